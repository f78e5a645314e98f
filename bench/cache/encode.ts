import { createHash } from 'node:crypto';
import type { ChatMessage } from '../../src/core/engine/messages';
import type { TokenCounter } from '../../src/core/tokens/tokenCounter';
import type { CacheBoundary } from '../../testing/providerServer/anthropicCacheRule';
import { roleMarker } from '../../testing/providerServer/prompt';

/** One request as a provider cache sees it: one token sequence, one block per message (or per block of a message sent as several). */
export interface EncodedRequest {
  readonly tokens: Uint32Array;
  /** One boundary per message, keyed by the whole prefix (for Anthropic's rule). */
  readonly boundaries: readonly CacheBoundary[];
}

/**
 * Where a text may be cut without changing its tokens: after a line break, before a letter. Both
 * pre-tokenizers (cl100k_base, o200k_base) end every piece that holds a line break at whitespace, a
 * line break or '/', and no piece that starts with a letter reaches back over a line break, so a
 * piece never spans such a cut, and BPE merges only within a piece: the text's tokens are the
 * paragraphs' tokens, one after the other (checked against whole-text encoding in
 * __tests__/bench/requestEncoder.test.ts).
 */
const PARAGRAPH_CUT = /\n(?=\p{L})/gu;

/** Pure: text cut after each line break that a letter follows (the cuts above). */
export function paragraphsOf(text: string): string[] {
  const out: string[] = [];
  let at = 0;
  for (const m of text.matchAll(PARAGRAPH_CUT)) {
    out.push(text.slice(at, m.index + 1));
    at = m.index + 1;
  }
  if (at < text.length || out.length === 0) out.push(text.slice(at));
  return out;
}

/**
 * Serializes messages exactly as the local provider server does (`encodePrompt`: each message is
 * one block, its role marker then its content), but memoises the tokens of each paragraph of a
 * block: a benchmark encodes the same history hundreds of times, and a message that grows each turn
 * (the library's system message) is mostly paragraphs encoded before; tokenizing dominates otherwise.
 */
export class RequestEncoder {
  private readonly memo = new Map<string, number[]>();

  constructor(
    private readonly model: string,
    private readonly counter: TokenCounter,
  ) {}

  /**
   * `breakpoints`: message indices that carry cache_control (on their last block), or
   * `${message}:${block}` for a block of a message sent as several (ChatMessage.blocks, as the
   * Anthropic adapter sends a system message's stable parts).
   */
  encode(messages: readonly ChatMessage[], breakpoints: ReadonlySet<number | string> = new Set()): EncodedRequest {
    const parts: number[][] = [];
    let length = 0;
    const boundaries: CacheBoundary[] = [];
    const hash = createHash('sha256').update(this.model).update('\u0000');
    messages.forEach((message, i) => {
      const blocks = message.blocks && message.blocks.length > 1 ? message.blocks : [message.content];
      blocks.forEach((block, b) => {
        const text = (b === 0 ? roleMarker(message.role) : '') + block;
        const tokens = this.blockTokens(text);
        parts.push(tokens);
        length += tokens.length;
        hash.update(text).update('\u0000');
        const marked = b === blocks.length - 1 ? breakpoints.has(i) || breakpoints.has(`${i}:${b}`) : breakpoints.has(`${i}:${b}`);
        boundaries.push({ key: hash.copy().digest('hex'), prefixTokens: length, breakpoint: marked });
      });
    });
    const flat = new Uint32Array(length);
    let at = 0;
    for (const part of parts) {
      flat.set(part, at);
      at += part.length;
    }
    return { tokens: flat, boundaries };
  }

  /** The tokens of one block: its paragraphs' tokens, each encoded once per encoder. */
  blockTokens(text: string): number[] {
    const paragraphs = paragraphsOf(text);
    if (paragraphs.length === 1) return this.paragraphTokens(text);
    const out: number[] = [];
    for (const paragraph of paragraphs) for (const id of this.paragraphTokens(paragraph)) out.push(id);
    return out;
  }

  private paragraphTokens(text: string): number[] {
    let tokens = this.memo.get(text);
    if (!tokens) {
      tokens = this.counter.encode(text);
      this.memo.set(text, tokens);
    }
    return tokens;
  }
}

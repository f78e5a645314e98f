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
 * Serializes messages exactly as the local provider server does (`encodePrompt`: each message is
 * one block, its role marker then its content), but memoises each block's tokens: a benchmark
 * encodes the same history hundreds of times and tokenizing dominates otherwise.
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

  private blockTokens(text: string): number[] {
    let tokens = this.memo.get(text);
    if (!tokens) {
      tokens = this.counter.encode(text);
      this.memo.set(text, tokens);
    }
    return tokens;
  }
}

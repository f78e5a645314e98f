import { createHash } from 'node:crypto';
import { encodingForModel, type EncodingName } from '../../core/tokens/encodings';
import { tokenCounterFor } from '../../core/tokens/tokenCounter';
import type { CacheBoundary } from './anthropicCacheRule';

/**
 * A request flattened the way the server "sees" it: one block per tool definition, system block
 * and message content block, in wire order. The first block of each message starts with a role
 * marker (`<|user|>\n`), so the same text under another role is a different prefix.
 */
export interface PromptBlock {
  readonly text: string;
  /** Anthropic `cache_control` on this block. */
  readonly breakpoint?: boolean;
  readonly ttlMs?: number;
}

export interface ParsedPrompt {
  readonly blocks: readonly PromptBlock[];
  /** Text of the last user message (text parts joined by newlines). */
  readonly lastUserText: string;
}

export interface EncodedPrompt {
  /** The whole prompt as one token sequence. */
  readonly tokens: number[];
  /** One boundary per block (for Anthropic's rule). */
  readonly boundaries: CacheBoundary[];
}

export function roleMarker(role: string): string {
  return `<|${role}|>\n`;
}

/** Deterministic text for a content part that is not plain text (images, tool calls): its JSON. */
export function partText(part: unknown): string {
  if (typeof part === 'string') return part;
  if (part && typeof part === 'object') {
    const record = part as Record<string, unknown>;
    if (typeof record.text === 'string' && (record.type === 'text' || record.type === 'input_text' || record.type === 'output_text')) {
      return record.text;
    }
    const { cache_control: _ignored, ...rest } = record;
    return JSON.stringify(rest);
  }
  return JSON.stringify(part ?? null);
}

// Conversations resend the same blocks turn after turn: remember their tokens (LRU, bounded by
// total tokens) so a long benchmark does not re-tokenize its whole history on every request.
const MEMO_MAX_TOKENS = 4_000_000;
const MEMO_MIN_CHARS = 64;
const memo = new Map<EncodingName, Map<string, number[]>>();
let memoTokens = 0;

function encodeBlock(model: string, text: string): readonly number[] {
  if (text.length < MEMO_MIN_CHARS) return tokenCounterFor(model).encode(text);
  const encoding = encodingForModel(model);
  let byText = memo.get(encoding);
  if (!byText) {
    byText = new Map();
    memo.set(encoding, byText);
  }
  const hit = byText.get(text);
  if (hit) {
    byText.delete(text);
    byText.set(text, hit);
    return hit;
  }
  const tokens = tokenCounterFor(model).encode(text);
  byText.set(text, tokens);
  memoTokens += tokens.length;
  while (memoTokens > MEMO_MAX_TOKENS) {
    const oldest = [...memo.values()].find((m) => m.size > 0);
    const first = oldest?.entries().next().value;
    if (!oldest || !first) break;
    oldest.delete(first[0]);
    memoTokens -= first[1].length;
  }
  return tokens;
}

/** Token sequence and per-block prefix identities for a prompt, under `model`'s tokenizer. */
export function encodePrompt(model: string, blocks: readonly PromptBlock[]): EncodedPrompt {
  const tokens: number[] = [];
  const boundaries: CacheBoundary[] = [];
  const hash = createHash('sha256').update(model).update('\u0000');
  for (const block of blocks) {
    for (const token of encodeBlock(model, block.text)) tokens.push(token);
    hash.update(block.text).update('\u0000');
    boundaries.push({
      key: hash.copy().digest('hex'),
      prefixTokens: tokens.length,
      breakpoint: block.breakpoint === true,
      ttlMs: block.ttlMs,
    });
  }
  return { tokens, boundaries };
}

export function countTokens(model: string, text: string): number {
  return tokenCounterFor(model).encode(text).length;
}

/**
 * Gemini's documented caching rules, as arithmetic over token sequences (shared by the local
 * provider server and the benchmarks):
 * - implicit: a request reuses the longest token prefix it shares with an earlier request to the
 *   same model, only when that prefix reaches the model's minimum (1024 tokens on Flash, 4096 on
 *   Pro); the whole shared prefix is reported as cachedContentTokenCount. No write charge.
 * - explicit: a request naming a cachedContents entry reads the entry's tokens from cache (all of
 *   them, whatever else it shares); the entry was billed once at the input price when made, plus
 *   storage per token-hour for its lifetime.
 */
import { sharedPrefixLength } from './openaiCacheRule';

export const GEMINI_FLASH_MIN_TOKENS = 1024;
export const GEMINI_PRO_MIN_TOKENS = 4096;

export function geminiMinCacheableTokens(model: string): number {
  return /flash/i.test(model) ? GEMINI_FLASH_MIN_TOKENS : GEMINI_PRO_MIN_TOKENS;
}

/** Cached tokens reported for a shared prefix under the implicit rule. */
export function geminiImplicitCachedTokens(sharedTokens: number, model: string): number {
  return Number.isFinite(sharedTokens) && sharedTokens >= geminiMinCacheableTokens(model) ? sharedTokens : 0;
}

const MAX_SEQUENCES_PER_MODEL = 2000;

/** Prompts seen so far per model: `account()` answers a new prompt's implicit hit, then remembers it. */
export class GeminiPromptCache {
  private readonly byModel = new Map<string, Uint32Array[]>();

  account(model: string, tokens: ArrayLike<number>): number {
    let list = this.byModel.get(model);
    if (!list) {
      list = [];
      this.byModel.set(model, list);
    }
    let best = 0;
    // Newest first, skipping prompts no longer than the best match so far (they cannot beat it).
    for (let i = list.length - 1; i >= 0 && best < tokens.length; i--) if (list[i].length > best) best = Math.max(best, sharedPrefixLength(list[i], tokens));
    const copy = Uint32Array.from(tokens);
    if (!list.some((earlier) => earlier.length >= copy.length && sharedPrefixLength(earlier, copy) === copy.length)) {
      list.push(copy);
      if (list.length > MAX_SEQUENCES_PER_MODEL) list.shift();
    }
    return Math.min(geminiImplicitCachedTokens(best, model), tokens.length);
  }

  clear(): void {
    this.byModel.clear();
  }
}

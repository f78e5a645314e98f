/**
 * OpenAI's documented prompt-caching rule, as pure arithmetic over token sequences:
 * a request reuses the longest exact token prefix it shares with an earlier request routed to the
 * same cache, only when that prefix is at least 1024 tokens long, and cached tokens are counted in
 * 128-token steps (1024, 1152, 1280, ...), rounded down.
 * Shared by the local provider server and the benchmarks.
 */

export const OPENAI_CACHE_MIN_TOKENS = 1024;
export const OPENAI_CACHE_STEP_TOKENS = 128;

/** Length of the longest common prefix of two token sequences. */
export function sharedPrefixLength(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/** Cached tokens reported for a shared prefix of `sharedTokens` tokens. */
export function openaiCachedTokens(sharedTokens: number): number {
  if (!Number.isFinite(sharedTokens) || sharedTokens < OPENAI_CACHE_MIN_TOKENS) return 0;
  return Math.floor(sharedTokens / OPENAI_CACHE_STEP_TOKENS) * OPENAI_CACHE_STEP_TOKENS;
}

/** Bound per cache key so a long benchmark cannot grow memory without limit (oldest dropped first). */
const MAX_SEQUENCES_PER_KEY = 2000;

/**
 * The prompts seen so far, per cache key (the server uses model + prompt_cache_key). `account()`
 * answers how many tokens of a new prompt are cached and then remembers the prompt.
 */
export class OpenAIPromptCache {
  private readonly byKey = new Map<string, Uint32Array[]>();

  /** Cached tokens for `tokens` against earlier prompts under `key`, without remembering it. */
  lookup(key: string, tokens: ArrayLike<number>): number {
    let best = 0;
    const list = this.byKey.get(key) ?? [];
    // Newest first: a conversation's last request usually shares the longest prefix, and an earlier
    // prompt no longer than the best match so far cannot beat it (a long replay skips nearly all).
    for (let i = list.length - 1; i >= 0 && best < tokens.length; i--) {
      if (list[i].length <= best) continue;
      best = Math.max(best, sharedPrefixLength(list[i], tokens));
    }
    return Math.min(openaiCachedTokens(best), tokens.length);
  }

  remember(key: string, tokens: ArrayLike<number>): void {
    let list = this.byKey.get(key);
    if (!list) {
      list = [];
      this.byKey.set(key, list);
    }
    const copy = Uint32Array.from(tokens);
    // An identical (or already covered) prompt adds nothing to what can be matched later.
    if (list.some((earlier) => earlier.length >= copy.length && sharedPrefixLength(earlier, copy) === copy.length)) return;
    list.push(copy);
    if (list.length > MAX_SEQUENCES_PER_KEY) list.shift();
  }

  /** lookup() then remember(): what one served request does. */
  account(key: string, tokens: ArrayLike<number>): number {
    const cached = this.lookup(key, tokens);
    this.remember(key, tokens);
    return cached;
  }

  clear(): void {
    this.byKey.clear();
  }
}

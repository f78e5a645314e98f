import type { ModelPrice } from '../pricing';

/**
 * When Strata makes an explicit Gemini cache entry (cachedContents) for the stable prefix (L1 and
 * the library block: the system instruction, with the tools in Agent mode), and when it leaves the
 * prefix to Gemini's implicit cache. Pure: the numbers and the rule, no I/O.
 *
 * Both caches bill a hit at the cached-input price (0.1 × input on 2.5 and later). Implicit caching
 * is free but not guaranteed (Google: "no cost saving guarantee"); an explicit entry is guaranteed
 * but costs storage per token-hour for its lifetime (TTL). Each request that reads the entry where
 * the implicit cache would have missed saves (input − cachedInput) per prefix token; the entry costs
 * storagePerHour × TTL hours per prefix token. So it pays as soon as ONE such request falls inside
 * the TTL when (input − cachedInput) ≥ storagePerHour × TTL/3600. With the 10-minute TTL:
 *   gemini-2.5-flash  0.27 ≥ 1.00/6 = 0.167  → explicit
 *   gemini-2.5-pro    1.125 ≥ 4.50/6 = 0.75  → explicit
 *   gemini-3-pro      1.80 ≥ 0.75            → explicit
 *   gemini-3-flash    0.45 ≥ 0.167           → explicit
 *   gemini-2.5-flash-lite 0.09 < 0.167       → implicit only (storage would eat the saving)
 */
export const EXPLICIT_CACHE_TTL_SECONDS = 600;

/**
 * A request that names an entry is served the entry's tokens from cache, and (as far as Google
 * documents) nothing more, while an implicit hit can cover the whole shared prefix, history
 * included. So the entry is used only while the stable prefix is at least this share of the
 * request (by characters, cheap to measure): below it, the chance of an implicit hit on the longer
 * prefix is worth more than the guarantee on the shorter one.
 */
export const EXPLICIT_MIN_SHARE = 0.5;

/** An entry this close to its expiry is not used again (a request in flight must not outlive it). */
export const EXPLICIT_CACHE_MARGIN_MS = 30_000;

/**
 * Google's minimum prompt size for context caching (implicit and explicit), by model family:
 * 1024 tokens on Flash, 4096 on Pro (2.5 and 3). Unknown families get the larger one.
 */
export function geminiCacheMinTokens(model: string): number {
  return /flash/i.test(model) ? 1024 : 4096;
}

/** Whether an explicit entry pays over implicit caching for a model at this price (the rule above). */
export function explicitCachePays(price: ModelPrice | null, ttlSeconds = EXPLICIT_CACHE_TTL_SECONDS): boolean {
  if (!price || price.cacheStoragePerHour === undefined) return false;
  return price.input - price.cachedInput >= (price.cacheStoragePerHour * ttlSeconds) / 3600;
}

/** Storage an entry of `tokens` is billed for over its whole lifetime, in token-hours. */
export function storageTokenHours(tokens: number, ttlSeconds = EXPLICIT_CACHE_TTL_SECONDS): number {
  return (tokens * ttlSeconds) / 3600;
}

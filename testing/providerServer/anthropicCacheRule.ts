/**
 * Anthropic's documented prompt-caching rule, as pure arithmetic over a request's block boundaries.
 *
 * A request is a sequence of blocks (tool definitions, then system blocks, then each message's
 * content blocks). Blocks marked with `cache_control` are breakpoints. Only a prefix ending at a
 * block boundary can be cached, and only entries created at breakpoints exist:
 * - read: for every breakpoint, the boundary itself and up to 20 earlier block boundaries are
 *   checked for a live entry (the documented lookback); the largest hit over all breakpoints is
 *   read (cache_read_input_tokens). Every breakpoint's hit has its lifetime refreshed ("refreshed
 *   each time the cached content is used"): an entry at a stable breakpoint (the end of the system
 *   blocks) stays live while later turns read past it, so the request after a compaction finds it;
 * - write: from the end of the read prefix up to the last breakpoint whose prefix reaches the
 *   minimum cacheable length (1024 tokens; 2048 for Haiku models) is written
 *   (cache_creation_input_tokens), creating one entry per such breakpoint;
 * - the rest is plain input (input_tokens, which excludes both cache counts).
 * An entry lives 5 minutes (or 1 hour with `ttl: "1h"`) after its last write or read, measured
 * with an injected clock. Shared by the local provider server and the benchmarks.
 */

export const ANTHROPIC_CACHE_TTL_MS = 5 * 60 * 1000;
export const ANTHROPIC_CACHE_TTL_1H_MS = 60 * 60 * 1000;
export const ANTHROPIC_LOOKBACK_BLOCKS = 20;
export const ANTHROPIC_MAX_BREAKPOINTS = 4;

/** Minimum cacheable prompt length for a model, in tokens. */
export function anthropicMinCacheableTokens(model: string): number {
  return /haiku/i.test(model) ? 2048 : 1024;
}

/** The end of one block: the identity and length of the prefix that ends there. */
export interface CacheBoundary {
  /** Identity of the whole prefix up to and including this block (e.g. a hash of model + content). */
  readonly key: string;
  /** Tokens in that prefix. Non-decreasing along the request. */
  readonly prefixTokens: number;
  /** The block carries `cache_control`. */
  readonly breakpoint: boolean;
  /** Entry lifetime for a breakpoint; default 5 minutes. */
  readonly ttlMs?: number;
}

export interface AnthropicCacheUsage {
  /** Plain input tokens (excluding cache reads and writes), as Anthropic's `input_tokens`. */
  readonly input: number;
  readonly cacheRead: number;
  readonly cacheWrite: number;
  /** The part of cacheWrite written with a 1-hour lifetime (the rest lives 5 minutes). */
  readonly cacheWrite1h: number;
}

export interface AnthropicCachePlan extends AnthropicCacheUsage {
  /** Boundary index whose entry is read, or -1. */
  readonly readIndex: number;
  /** Boundary indices whose live entries a breakpoint's lookup found (readIndex among them): each is refreshed. */
  readonly hitIndices: readonly number[];
  /** Breakpoint indices whose prefixes are written as new entries. */
  readonly writeIndices: readonly number[];
}

/** Pure: what a request reads and writes, given which prefixes are live in the cache. */
export function planAnthropicCache(
  boundaries: readonly CacheBoundary[],
  totalTokens: number,
  minTokens: number,
  isLive: (key: string) => boolean,
): AnthropicCachePlan {
  let cacheRead = 0;
  let readIndex = -1;
  let lastCacheable = -1;
  const hitIndices: number[] = [];
  boundaries.forEach((boundary, i) => {
    if (!boundary.breakpoint) return;
    if (boundary.prefixTokens >= minTokens) lastCacheable = i;
    for (let j = i; j >= Math.max(0, i - ANTHROPIC_LOOKBACK_BLOCKS); j--) {
      const candidate = boundaries[j];
      if (candidate.prefixTokens < minTokens) break;
      if (isLive(candidate.key)) {
        if (!hitIndices.includes(j)) hitIndices.push(j);
        if (candidate.prefixTokens > cacheRead) {
          cacheRead = candidate.prefixTokens;
          readIndex = j;
        }
        break;
      }
    }
  });
  const writeEnd = lastCacheable >= 0 ? boundaries[lastCacheable].prefixTokens : 0;
  const cacheWrite = Math.max(0, writeEnd - cacheRead);
  const writeIndices: number[] = [];
  if (cacheWrite > 0) {
    boundaries.forEach((boundary, i) => {
      if (boundary.breakpoint && boundary.prefixTokens >= minTokens && boundary.prefixTokens > cacheRead && i <= lastCacheable) {
        writeIndices.push(i);
      }
    });
  }
  // Each written stretch belongs to the breakpoint that ends it, and takes that breakpoint's lifetime.
  let cacheWrite1h = 0;
  let previousEnd = cacheRead;
  for (const i of writeIndices) {
    if (boundaries[i].ttlMs === ANTHROPIC_CACHE_TTL_1H_MS) cacheWrite1h += boundaries[i].prefixTokens - previousEnd;
    previousEnd = boundaries[i].prefixTokens;
  }
  return { input: Math.max(0, totalTokens - cacheRead - cacheWrite), cacheRead, cacheWrite, cacheWrite1h, readIndex, hitIndices, writeIndices };
}

/** Live cache entries with their expiry, driven by an injected clock (milliseconds). */
export class AnthropicPromptCache {
  private readonly expiry = new Map<string, { expiresAt: number; ttlMs: number }>();

  isLive(key: string, now: number): boolean {
    const entry = this.expiry.get(key);
    return entry !== undefined && now < entry.expiresAt;
  }

  /** Plans one request against the cache at time `now`, then applies its reads and writes. */
  account(boundaries: readonly CacheBoundary[], totalTokens: number, minTokens: number, now: number): AnthropicCacheUsage {
    const plan = planAnthropicCache(boundaries, totalTokens, minTokens, (key) => this.isLive(key, now));
    for (const i of plan.hitIndices) {
      const key = boundaries[i].key;
      const ttlMs = this.expiry.get(key)?.ttlMs ?? ANTHROPIC_CACHE_TTL_MS;
      this.expiry.set(key, { expiresAt: now + ttlMs, ttlMs });
    }
    for (const i of plan.writeIndices) {
      const ttlMs = boundaries[i].ttlMs ?? ANTHROPIC_CACHE_TTL_MS;
      this.expiry.set(boundaries[i].key, { expiresAt: now + ttlMs, ttlMs });
    }
    return { input: plan.input, cacheRead: plan.cacheRead, cacheWrite: plan.cacheWrite, cacheWrite1h: plan.cacheWrite1h };
  }

  clear(): void {
    this.expiry.clear();
  }
}

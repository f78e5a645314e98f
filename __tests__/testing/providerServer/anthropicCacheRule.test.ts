import {
  ANTHROPIC_CACHE_TTL_1H_MS,
  ANTHROPIC_CACHE_TTL_MS,
  AnthropicPromptCache,
  anthropicMinCacheableTokens,
  planAnthropicCache,
  type CacheBoundary,
} from '../../../testing/providerServer/anthropicCacheRule';

/** Boundaries for blocks of the given sizes; keys name the prefix ("b0", "b0|b1", ...) so equal prefixes share keys. */
function boundaries(sizes: readonly number[], breakpoints: readonly number[], names?: readonly string[]): CacheBoundary[] {
  let total = 0;
  const parts: string[] = [];
  return sizes.map((size, i) => {
    total += size;
    parts.push(names?.[i] ?? `b${i}:${size}`);
    return { key: parts.join('|'), prefixTokens: total, breakpoint: breakpoints.includes(i) };
  });
}
const total = (sizes: readonly number[]): number => sizes.reduce((a, b) => a + b, 0);
const MIN = 1024;

describe('anthropicMinCacheableTokens', () => {
  it('is 1024, and 2048 for Haiku models', () => {
    expect(anthropicMinCacheableTokens('claude-sonnet-4-5')).toBe(1024);
    expect(anthropicMinCacheableTokens('claude-opus-4-1')).toBe(1024);
    expect(anthropicMinCacheableTokens('claude-3-5-haiku-latest')).toBe(2048);
    expect(anthropicMinCacheableTokens('claude-haiku-4-5')).toBe(2048);
  });
});

describe('AnthropicPromptCache', () => {
  it('writes nothing without a breakpoint', () => {
    const cache = new AnthropicPromptCache();
    const sizes = [3000, 200];
    expect(cache.account(boundaries(sizes, []), total(sizes), MIN, 0)).toMatchObject({ input: 3200, cacheRead: 0, cacheWrite: 0 });
    expect(cache.account(boundaries(sizes, []), total(sizes), MIN, 1)).toMatchObject({ input: 3200, cacheRead: 0, cacheWrite: 0 });
  });

  it('caches a prefix of 1024 tokens but not of 1023', () => {
    const cache = new AnthropicPromptCache();
    expect(cache.account(boundaries([1023, 50], [0]), 1073, MIN, 0)).toMatchObject({ input: 1073, cacheRead: 0, cacheWrite: 0 });
    expect(cache.account(boundaries([1023, 50], [0]), 1073, MIN, 1)).toMatchObject({ input: 1073, cacheRead: 0, cacheWrite: 0 });
    expect(cache.account(boundaries([1024, 50], [0]), 1074, MIN, 2)).toMatchObject({ input: 50, cacheRead: 0, cacheWrite: 1024 });
    expect(cache.account(boundaries([1024, 50], [0]), 1074, MIN, 3)).toMatchObject({ input: 50, cacheRead: 1024, cacheWrite: 0 });
  });

  it('uses the model minimum (2048 for Haiku)', () => {
    const cache = new AnthropicPromptCache();
    expect(cache.account(boundaries([1500, 10], [0]), 1510, 2048, 0).cacheWrite).toBe(0);
    expect(cache.account(boundaries([2048, 10], [0]), 2058, 2048, 0).cacheWrite).toBe(2048);
  });

  it('reads the cached prefix and writes the rest up to the last breakpoint', () => {
    const cache = new AnthropicPromptCache();
    // Turn 1: system (breakpoint) + user message (breakpoint).
    const turn1 = [2000, 300];
    expect(cache.account(boundaries(turn1, [0, 1]), total(turn1), MIN, 0)).toMatchObject({ input: 0, cacheRead: 0, cacheWrite: 2300 });
    // Turn 2: same system and first message, then a reply and a new message; breakpoints on system and the last block.
    const turn2 = [2000, 300, 100, 400, 7];
    expect(cache.account(boundaries(turn2, [0, 3]), total(turn2), MIN, 1000)).toMatchObject({ input: 7, cacheRead: 2300, cacheWrite: 500 });
  });

  it('finds an entry up to 20 blocks before a breakpoint, not 21', () => {
    const sizes = [2000, ...Array<number>(25).fill(10)];
    const within = new AnthropicPromptCache();
    within.account(boundaries(sizes, [0]), total(sizes), MIN, 0);
    expect(within.account(boundaries(sizes, [20]), total(sizes), MIN, 1).cacheRead).toBe(2000);
    const beyond = new AnthropicPromptCache();
    beyond.account(boundaries(sizes, [0]), total(sizes), MIN, 0);
    expect(beyond.account(boundaries(sizes, [21]), total(sizes), MIN, 1)).toMatchObject({
      input: total(sizes) - 2210,
      cacheRead: 0,
      cacheWrite: 2210,
    });
  });

  it('misses when the prefix differs before the breakpoint', () => {
    const cache = new AnthropicPromptCache();
    cache.account(boundaries([2000, 100], [1], ['sys', 'q1']), 2100, MIN, 0);
    expect(cache.account(boundaries([2000, 100], [1], ['sys2', 'q1']), 2100, MIN, 1)).toMatchObject({ input: 0, cacheRead: 0, cacheWrite: 2100 });
  });

  it('expires an entry 5 minutes after it was written', () => {
    const cache = new AnthropicPromptCache();
    const b = boundaries([2000, 10], [0]);
    cache.account(b, 2010, MIN, 0);
    expect(cache.account(b, 2010, MIN, ANTHROPIC_CACHE_TTL_MS - 1).cacheRead).toBe(2000);
    const fresh = new AnthropicPromptCache();
    fresh.account(b, 2010, MIN, 0);
    expect(fresh.account(b, 2010, MIN, ANTHROPIC_CACHE_TTL_MS)).toMatchObject({ input: 10, cacheRead: 0, cacheWrite: 2000 });
  });

  it('refreshes the lifetime on every read', () => {
    const cache = new AnthropicPromptCache();
    const b = boundaries([2000, 10], [0]);
    cache.account(b, 2010, MIN, 0);
    expect(cache.account(b, 2010, MIN, 4 * 60_000).cacheRead).toBe(2000);
    expect(cache.account(b, 2010, MIN, 8 * 60_000).cacheRead).toBe(2000); // 8 min after write, 4 after the read
    expect(cache.account(b, 2010, MIN, 13 * 60_000 + 1).cacheRead).toBe(0); // more than 5 min after the last read
  });

  it('refreshes an earlier breakpoint\'s entry while later requests read past it (cached content used)', () => {
    const cache = new AnthropicPromptCache();
    // A stable system block (breakpoint 0) and a conversation that grows each turn (its end a breakpoint).
    const turn = (n: number) => boundaries([2000, ...Array.from({ length: n }, () => 300)], [0, n]);
    cache.account(turn(1), 2300, MIN, 0);
    for (let n = 2; n <= 8; n++) expect(cache.account(turn(n), 2000 + 300 * n, MIN, (n - 1) * 60_000).cacheRead).toBe(2000 + 300 * (n - 1));
    // Eight minutes after the system entry was written, a compaction rewrites everything after it: it is still live.
    const compacted = boundaries([2000, 500], [0, 1], ['b0:2000', 'summary']);
    expect(cache.account(compacted, 2500, MIN, 8 * 60_000)).toMatchObject({ cacheRead: 2000, cacheWrite: 500 });
  });

  it('reads the end of a grown system block through the lookback when the next block was appended after it', () => {
    const cache = new AnthropicPromptCache();
    // L1, library chunks 1-2 (anchor after chunk 2), the close tag, then a message.
    cache.account(boundaries([900, 400, 400, 5, 100], [2, 4], ['l1', 'c1', 'c2', 'close', 'm1']), 1805, MIN, 0);
    // A compaction appended chunk 3: the anchor moves after it, and the old anchor is one block back.
    const grown = boundaries([900, 400, 400, 600, 5, 200], [3, 5], ['l1', 'c1', 'c2', 'c3', 'close', 'summary']);
    expect(cache.account(grown, 2505, MIN, 60_000)).toMatchObject({ cacheRead: 1700, cacheWrite: 805 });
    // The same library as one block (its close inside) is written again whole.
    const single = new AnthropicPromptCache();
    single.account(boundaries([900, 805, 100], [1, 2], ['l1', 'lib12', 'm1']), 1805, MIN, 0);
    expect(single.account(boundaries([900, 1405, 200], [1, 2], ['l1', 'lib123', 'summary']), 2505, MIN, 60_000)).toMatchObject({ cacheRead: 0 });
  });

  it('keeps 1-hour entries for an hour', () => {
    const cache = new AnthropicPromptCache();
    const b: CacheBoundary[] = [{ key: 'k', prefixTokens: 3000, breakpoint: true, ttlMs: ANTHROPIC_CACHE_TTL_1H_MS }];
    cache.account(b, 3000, MIN, 0);
    expect(cache.account(b, 3000, MIN, 59 * 60_000).cacheRead).toBe(3000);
    expect(cache.account(b, 3000, MIN, 59 * 60_000 + ANTHROPIC_CACHE_TTL_1H_MS).cacheRead).toBe(0);
  });

  it('splits writes by the lifetime of the breakpoint that ends each stretch', () => {
    const b: CacheBoundary[] = [
      { key: 'sys', prefixTokens: 2000, breakpoint: true, ttlMs: ANTHROPIC_CACHE_TTL_1H_MS },
      { key: 'sys|m1', prefixTokens: 2600, breakpoint: true },
      { key: 'sys|m1|m2', prefixTokens: 2650, breakpoint: false },
    ];
    expect(new AnthropicPromptCache().account(b, 2650, MIN, 0)).toEqual({ input: 50, cacheRead: 0, cacheWrite: 2600, cacheWrite1h: 2000 });
  });

  it('plans without side effects', () => {
    const b = boundaries([1500, 600, 50], [0, 1]);
    const plan = planAnthropicCache(b, 2150, MIN, (key) => key === b[0].key);
    expect(plan).toMatchObject({ input: 50, cacheRead: 1500, cacheWrite: 600, readIndex: 0, writeIndices: [1] });
  });
});

import { EXPLICIT_CACHE_TTL_SECONDS, explicitCachePays, geminiCacheMinTokens, storageTokenHours } from '../../../src/providers/gemini/cachePolicy';
import { priceOf, costOf } from '../../../src/providers/pricing';
import { parseGeminiUsageMetadata, mergeStreamUsage } from '../../../src/providers/usage';
import { GeminiPromptCache, geminiImplicitCachedTokens } from '../../../testing/providerServer/geminiCacheRule';

describe('explicit over implicit, by price (10-minute TTL)', () => {
  test.each([
    ['gemini-2.5-flash', true],
    ['gemini-2.5-pro', true],
    ['gemini-3-pro-preview', true],
    ['gemini-3-flash-preview', true],
    ['gemini-2.5-flash-lite', false],
    ['gpt-4o', false],
  ])('%s: %s', (model, pays) => {
    expect(explicitCachePays(priceOf(model))).toBe(pays);
  });

  test('the rule is input − cached ≥ storage × TTL hours: a longer TTL turns Flash implicit', () => {
    const flash = priceOf('gemini-2.5-flash');
    expect(EXPLICIT_CACHE_TTL_SECONDS).toBe(600);
    // 0.27 ≥ 1.00 × h holds up to h = 0.27 (16.2 minutes).
    expect(explicitCachePays(flash, 16 * 60)).toBe(true);
    expect(explicitCachePays(flash, 17 * 60)).toBe(false);
  });

  test('minimums: 1024 on Flash, 4096 on Pro', () => {
    expect(geminiCacheMinTokens('gemini-2.5-flash')).toBe(1024);
    expect(geminiCacheMinTokens('gemini-3-flash-preview')).toBe(1024);
    expect(geminiCacheMinTokens('gemini-2.5-pro')).toBe(4096);
    expect(geminiCacheMinTokens('gemini-3-pro-preview')).toBe(4096);
  });

  test('storage is counted in the cost: tokens × hours × the hourly price', () => {
    // As the provider reports a creating call: the prompt (12,000, the entry's 10,000 read included) plus the entry written.
    const usage = { inputTokens: 22_000, outputTokens: 100, cachedReadTokens: 10_000, cacheWriteTokens: 10_000, cacheStorageTokenHours: storageTokenHours(10_000) };
    const cost = costOf('gemini-2.5-flash', usage)!;
    // 2,000 uncached × 0.30 + 10,000 read × 0.03 + 10,000 written × 0.30 + 100 out × 2.50 + 10,000/6 token-hours × 1.00, per million.
    expect(cost.usd).toBeCloseTo((2000 * 0.3 + 10_000 * 0.03 + 10_000 * 0.3 + 100 * 2.5 + (10_000 / 6) * 1) / 1e6, 12);
    expect(cost.cacheStorageUsd).toBeCloseTo(10_000 / 6 / 1e6, 12);
  });
});

describe("Gemini's usage through LangChain", () => {
  test('thinking tokens count as output (total − prompt); cached part from cache_read', () => {
    expect(parseGeminiUsageMetadata({ input_tokens: 5000, output_tokens: 40, total_tokens: 5240, input_token_details: { cache_read: 4096 } })).toEqual({
      inputTokens: 5000,
      outputTokens: 240,
      cachedReadTokens: 4096,
      cacheWriteTokens: 0,
    });
  });

  test('streamed growth is summed, the cached part taken whole', () => {
    const a = parseGeminiUsageMetadata({ input_tokens: 5000, output_tokens: 3, total_tokens: 5003, input_token_details: { cache_read: 4096 } });
    const b = parseGeminiUsageMetadata({ input_tokens: 0, output_tokens: 7, total_tokens: 7, input_token_details: { cache_read: 4096 } });
    expect(mergeStreamUsage(a, b, 'gemini')).toEqual({ inputTokens: 5000, outputTokens: 10, cachedReadTokens: 4096, cacheWriteTokens: 0 });
  });
});

describe("the server's implicit rule", () => {
  test('a shared prefix counts only from the model\'s minimum, then whole', () => {
    expect(geminiImplicitCachedTokens(1023, 'gemini-2.5-flash')).toBe(0);
    expect(geminiImplicitCachedTokens(1500, 'gemini-2.5-flash')).toBe(1500);
    expect(geminiImplicitCachedTokens(4000, 'gemini-2.5-pro')).toBe(0);
    const cache = new GeminiPromptCache();
    const first = Array.from({ length: 2000 }, (_, i) => i);
    expect(cache.account('gemini-2.5-flash', first)).toBe(0);
    expect(cache.account('gemini-2.5-flash', [...first.slice(0, 1800), 7, 7])).toBe(1800);
    expect(cache.account('gemini-2.5-pro', first)).toBe(0);
  });
});

import {
  OPENAI_CACHE_MIN_TOKENS,
  OPENAI_CACHE_STEP_TOKENS,
  OpenAIPromptCache,
  openaiCachedTokens,
  sharedPrefixLength,
} from '../../../testing/providerServer/openaiCacheRule';

const seq = (n: number, start = 0): number[] => Array.from({ length: n }, (_, i) => start + i);

describe('openaiCachedTokens', () => {
  it('caches nothing below 1024 shared tokens', () => {
    expect(openaiCachedTokens(0)).toBe(0);
    expect(openaiCachedTokens(1023)).toBe(0);
  });

  it('counts from 1024 in 128-token steps, rounding down', () => {
    expect(OPENAI_CACHE_MIN_TOKENS).toBe(1024);
    expect(OPENAI_CACHE_STEP_TOKENS).toBe(128);
    expect(openaiCachedTokens(1024)).toBe(1024);
    expect(openaiCachedTokens(1151)).toBe(1024);
    expect(openaiCachedTokens(1152)).toBe(1152);
    expect(openaiCachedTokens(1279)).toBe(1152);
    expect(openaiCachedTokens(5000)).toBe(4992);
  });
});

describe('sharedPrefixLength', () => {
  it('is the length of the common prefix', () => {
    expect(sharedPrefixLength([1, 2, 3], [1, 2, 4])).toBe(2);
    expect(sharedPrefixLength([1, 2], [1, 2, 3])).toBe(2);
    expect(sharedPrefixLength([], [1])).toBe(0);
    expect(sharedPrefixLength([9], [1])).toBe(0);
  });
});

describe('OpenAIPromptCache', () => {
  it('reports the longest prefix shared with any earlier prompt under the same key', () => {
    const cache = new OpenAIPromptCache();
    const base = seq(3000);
    expect(cache.account('k', base.slice(0, 1100))).toBe(0);
    cache.remember('k', [...base.slice(0, 2100), -1]);
    // Shares 1100 with the first prompt and 2100 with the second: the longer one counts.
    expect(cache.lookup('k', base)).toBe(2048);
  });

  it('does not share prompts across keys', () => {
    const cache = new OpenAIPromptCache();
    cache.remember('a', seq(2000));
    expect(cache.lookup('b', seq(2000))).toBe(0);
    expect(cache.lookup('a', seq(2000))).toBe(1920);
  });

  it('needs 1024 shared tokens: 1023 is not enough, 1024 is', () => {
    const cache = new OpenAIPromptCache();
    cache.remember('k', seq(1500));
    expect(cache.lookup('k', [...seq(1023), 99999, ...seq(400, 5000)])).toBe(0);
    expect(cache.lookup('k', [...seq(1024), 99999, ...seq(400, 5000)])).toBe(1024);
  });

  it('lookup alone remembers nothing; clear forgets everything', () => {
    const cache = new OpenAIPromptCache();
    expect(cache.lookup('k', seq(2000))).toBe(0);
    expect(cache.lookup('k', seq(2000))).toBe(0);
    cache.remember('k', seq(2000));
    cache.clear();
    expect(cache.lookup('k', seq(2000))).toBe(0);
  });
});

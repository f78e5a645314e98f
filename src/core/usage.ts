/**
 * One model call's token usage, normalised across providers.
 * inputTokens counts every prompt token, cached or not; cachedReadTokens and cacheWriteTokens are
 * the parts of it served from / written to the provider's prompt cache. (OpenAI reports prompt
 * tokens including cached ones; Anthropic reports input_tokens excluding cache reads and writes, so
 * its adapter adds them up.)
 */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cachedReadTokens: number;
  readonly cacheWriteTokens: number;
  /**
   * Explicit cache storage this call started or extended (Gemini cachedContents): cached tokens ×
   * hours of lifetime, billed per token-hour on top of the tokens. Absent on every other provider.
   */
  readonly cacheStorageTokenHours?: number;
}

export const ZERO_USAGE: Usage = { inputTokens: 0, outputTokens: 0, cachedReadTokens: 0, cacheWriteTokens: 0 };

export function addUsage(a: Usage, b: Usage): Usage {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedReadTokens: a.cachedReadTokens + b.cachedReadTokens,
    cacheWriteTokens: a.cacheWriteTokens + b.cacheWriteTokens,
    ...(a.cacheStorageTokenHours || b.cacheStorageTokenHours ? { cacheStorageTokenHours: (a.cacheStorageTokenHours ?? 0) + (b.cacheStorageTokenHours ?? 0) } : {}),
  };
}

/** Share of prompt tokens served from cache, 0..1. */
export function cachedShare(usage: Usage): number {
  return usage.inputTokens === 0 ? 0 : usage.cachedReadTokens / usage.inputTokens;
}

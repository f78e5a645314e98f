import { placeCacheBreakpoints } from '../../src/core/compiler/cacheBreakpoints';
import type { ChatMessage } from '../../src/core/engine/messages';
import { AnthropicPromptCache, anthropicMinCacheableTokens } from '../../testing/providerServer/anthropicCacheRule';
import { OpenAIPromptCache } from '../../testing/providerServer/openaiCacheRule';
import type { RequestEncoder } from './encode';

/** What the provider caches make of one request of a conversation. */
export interface TurnCacheUse {
  readonly turn: number;
  readonly promptTokens: number;
  /** OpenAI: cached_tokens. */
  readonly openaiCached: number;
  /** Anthropic: cache_read_input_tokens (reads only; writes are not served from cache). */
  readonly anthropicRead: number;
  /** Anthropic: cache_creation_input_tokens (billed above plain input; still uncached). */
  readonly anthropicWrite: number;
}

/** Scenarios carry no clock: turns are taken one minute apart, well inside Anthropic's 5-minute lifetime. */
export const TURN_INTERVAL_MS = 60_000;

/**
 * Replays a conversation's requests, in order, through both providers' cache rules (the same pure
 * rules the local provider server uses). Anthropic breakpoints come from the compiler's
 * placeCacheBreakpoints, for every layout alike.
 */
export function simulateCaches(requests: readonly (readonly ChatMessage[])[], model: string, encoder: RequestEncoder): TurnCacheUse[] {
  const openai = new OpenAIPromptCache();
  const anthropic = new AnthropicPromptCache();
  const minTokens = anthropicMinCacheableTokens(model);
  return requests.map((messages, index) => {
    const breakpoints = new Set(placeCacheBreakpoints(messages).map((b) => (b.block === undefined ? b.messageIndex : `${b.messageIndex}:${b.block}`)));
    const encoded = encoder.encode(messages, breakpoints);
    const openaiCached = openai.account(model, encoded.tokens);
    const usage = anthropic.account(encoded.boundaries, encoded.tokens.length, minTokens, index * TURN_INTERVAL_MS);
    return {
      turn: index + 1,
      promptTokens: encoded.tokens.length,
      openaiCached,
      anthropicRead: usage.cacheRead,
      anthropicWrite: usage.cacheWrite,
    };
  });
}

export interface CacheTotals {
  readonly promptTokens: number;
  readonly openaiCached: number;
  readonly openaiUncached: number;
  readonly anthropicRead: number;
  readonly anthropicWrite: number;
  readonly anthropicUncached: number;
}

export function totals(turns: readonly TurnCacheUse[]): CacheTotals {
  let promptTokens = 0;
  let openaiCached = 0;
  let anthropicRead = 0;
  let anthropicWrite = 0;
  for (const t of turns) {
    promptTokens += t.promptTokens;
    openaiCached += t.openaiCached;
    anthropicRead += t.anthropicRead;
    anthropicWrite += t.anthropicWrite;
  }
  return {
    promptTokens,
    openaiCached,
    openaiUncached: promptTokens - openaiCached,
    anthropicRead,
    anthropicWrite,
    anthropicUncached: promptTokens - anthropicRead,
  };
}

import { placeCacheBreakpoints } from '../../src/core/compiler/cacheBreakpoints';
import type { ChatMessage } from '../../src/core/engine/messages';
import { AnthropicPromptCache, anthropicMinCacheableTokens } from '../../testing/providerServer/anthropicCacheRule';
import { OpenAIPromptCache } from '../../testing/providerServer/openaiCacheRule';
import { GeminiPromptCache, GEMINI_FLASH_MIN_TOKENS } from '../../testing/providerServer/geminiCacheRule';
import type { RequestEncoder } from './encode';
import { EXPLICIT_MIN_SHARE } from '../../src/providers/gemini/cachePolicy';

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
  /**
   * Gemini as Strata drives it: the explicit entry of the system message (L1 and the library block)
   * once one exists for the same bytes (and while it is at least half the request), else the
   * implicit shared-prefix hit (Flash's 1024-token minimum); the larger of the two.
   */
  readonly geminiCached: number;
  /** Gemini: the entry's tokens on the turn it is made (billed at the input price: uncached). */
  readonly geminiWrite: number;
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
  const gemini = new GeminiPromptCache();
  let entry: string | null = null;
  return requests.map((messages, index) => {
    const breakpoints = new Set(placeCacheBreakpoints(messages).map((b) => (b.block === undefined ? b.messageIndex : `${b.messageIndex}:${b.block}`)));
    const encoded = encoder.encode(messages, breakpoints);
    const openaiCached = openai.account(model, encoded.tokens);
    const usage = anthropic.account(encoded.boundaries, encoded.tokens.length, minTokens, index * TURN_INTERVAL_MS);
    // Gemini's rule is keyed by Flash's minimum whatever the scenario's model; one model name for the implicit store.
    const implicit = gemini.account('gemini-2.5-flash', encoded.tokens);
    const system = messages[0]?.role === 'system' ? messages[0] : undefined;
    const systemTokens = system ? encoder.encode([system], new Set()).tokens.length : 0;
    const chars = messages.reduce((n, m) => n + m.content.length, 0);
    // Strata's rule (src/providers/gemini/cachePolicy.ts): an entry only while the prefix is at least half the request.
    const cacheable = system !== undefined && systemTokens >= GEMINI_FLASH_MIN_TOKENS && messages.length > 1 && system.content.length >= EXPLICIT_MIN_SHARE * chars;
    const reused = cacheable && entry === system.content;
    const made = cacheable && !reused;
    entry = cacheable ? system.content : null;
    return {
      turn: index + 1,
      promptTokens: encoded.tokens.length,
      openaiCached,
      anthropicRead: usage.cacheRead,
      anthropicWrite: usage.cacheWrite,
      geminiCached: reused ? Math.max(implicit, systemTokens) : made ? Math.max(0, implicit - systemTokens) : implicit,
      geminiWrite: made ? systemTokens : 0,
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
  readonly geminiCached: number;
  readonly geminiWrite: number;
  readonly geminiUncached: number;
}

export function totals(turns: readonly TurnCacheUse[]): CacheTotals {
  let promptTokens = 0;
  let openaiCached = 0;
  let anthropicRead = 0;
  let anthropicWrite = 0;
  let geminiCached = 0;
  let geminiWrite = 0;
  for (const t of turns) {
    geminiCached += t.geminiCached;
    geminiWrite += t.geminiWrite;
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
    geminiCached,
    geminiWrite,
    geminiUncached: promptTokens - geminiCached,
  };
}

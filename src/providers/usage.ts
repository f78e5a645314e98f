import type { Usage } from '../core/usage';
import type { ProviderKind } from '../core/ports/chatModel';

/**
 * Parsers from each provider's own usage fields to the normalised Usage (inputTokens includes
 * cached reads and cache writes). Payloads are untrusted JSON: missing or non-numeric fields count
 * as zero, never NaN.
 */

type Json = Readonly<Record<string, unknown>>;

function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0;
}

function obj(value: unknown): Json {
  return typeof value === 'object' && value !== null ? (value as Json) : {};
}

/**
 * OpenAI Chat Completions `usage`: prompt_tokens already includes the cached part,
 * prompt_tokens_details.cached_tokens. No cache-write charge. DeepSeek's compatible API reports
 * the cached part as prompt_cache_hit_tokens instead.
 */
export function parseOpenAIChatUsage(usage: unknown): Usage {
  const u = obj(usage);
  const details = obj(u.prompt_tokens_details);
  const cached = 'cached_tokens' in details ? num(details.cached_tokens) : num(u.prompt_cache_hit_tokens);
  return {
    inputTokens: num(u.prompt_tokens),
    outputTokens: num(u.completion_tokens),
    cachedReadTokens: cached,
    cacheWriteTokens: 0,
  };
}

/** OpenAI Responses `usage`: input_tokens includes input_tokens_details.cached_tokens. */
export function parseResponsesUsage(usage: unknown): Usage {
  const u = obj(usage);
  return {
    inputTokens: num(u.input_tokens),
    outputTokens: num(u.output_tokens),
    cachedReadTokens: num(obj(u.input_tokens_details).cached_tokens),
    cacheWriteTokens: 0,
  };
}

/**
 * Anthropic Messages `usage`: input_tokens counts only the tokens after the last cache
 * breakpoint; cache_creation_input_tokens and cache_read_input_tokens come on top.
 */
export function parseAnthropicUsage(usage: unknown): Usage {
  const u = obj(usage);
  const write = num(u.cache_creation_input_tokens);
  const read = num(u.cache_read_input_tokens);
  return {
    inputTokens: num(u.input_tokens) + write + read,
    outputTokens: num(u.output_tokens),
    cachedReadTokens: read,
    cacheWriteTokens: write,
  };
}

/**
 * LangChain's `usage_metadata` (already normalised by the adapters: input_tokens includes
 * input_token_details.cache_read and cache_creation).
 */
export function parseUsageMetadata(metadata: unknown): Usage {
  const m = obj(metadata);
  const details = obj(m.input_token_details);
  return {
    inputTokens: num(m.input_tokens),
    outputTokens: num(m.output_tokens),
    cachedReadTokens: num(details.cache_read),
    cacheWriteTokens: num(details.cache_creation),
  };
}

/**
 * Gemini through LangChain's usage_metadata: promptTokenCount already includes the cached part
 * (cachedContentTokenCount, implicit or explicit). candidatesTokenCount leaves out the thinking
 * tokens, which are billed as output: total − prompt counts both. In a stream each chunk carries
 * the growth of the counts since the previous one (LangChain subtracts), the cached part whole.
 */
export function parseGeminiUsageMetadata(metadata: unknown): Usage {
  const m = obj(metadata);
  const input = num(m.input_tokens);
  return {
    inputTokens: input,
    outputTokens: Math.max(num(m.output_tokens), num(m.total_tokens) - input),
    cachedReadTokens: num(obj(m.input_token_details).cache_read),
    cacheWriteTokens: 0,
  };
}

/**
 * Usage carried by one LangChain message or stream chunk, or undefined when it carries none.
 * The provider's raw `response_metadata.usage` wins when it holds the provider's own input field
 * (it is what the provider billed); otherwise LangChain's usage_metadata. Anthropic's streamed
 * message_start keeps only the cache fields in response_metadata, so there usage_metadata is used.
 */
export function usageFromMessage(
  kind: ProviderKind,
  message: { readonly usage_metadata?: unknown; readonly response_metadata?: unknown },
): Usage | undefined {
  const raw = obj(obj(message.response_metadata).usage);
  if ((kind === 'openai' || kind === 'openai-compatible') && 'prompt_tokens' in raw) return parseOpenAIChatUsage(raw);
  if (kind === 'openai-responses' && 'input_tokens' in raw) return parseResponsesUsage(raw);
  if (kind === 'anthropic' && 'input_tokens' in raw) return parseAnthropicUsage(raw);
  if (kind === 'gemini') return message.usage_metadata ? parseGeminiUsageMetadata(message.usage_metadata) : undefined;
  if (message.usage_metadata !== undefined && message.usage_metadata !== null) return parseUsageMetadata(message.usage_metadata);
  return undefined;
}

/**
 * Combines the usage reports of one streamed call. Providers report each figure once (OpenAI: one
 * final chunk) or cumulatively (Anthropic: input in message_start, the running output count in
 * message_delta), so the field-wise maximum is the call's usage; a sum would count twice.
 */
export function mergeStreamUsage(a: Usage | undefined, b: Usage | undefined, kind?: ProviderKind): Usage | undefined {
  if (kind === 'gemini') return mergeGrowth(a, b);
  if (!a) return b;
  if (!b) return a;
  return {
    inputTokens: Math.max(a.inputTokens, b.inputTokens),
    outputTokens: Math.max(a.outputTokens, b.outputTokens),
    cachedReadTokens: Math.max(a.cachedReadTokens, b.cachedReadTokens),
    cacheWriteTokens: Math.max(a.cacheWriteTokens, b.cacheWriteTokens),
  };
}

/** Gemini's streamed usage through LangChain: prompt and output counts arrive as growth (summed), the cached part whole (the largest). */
function mergeGrowth(a: Usage | undefined, b: Usage | undefined): Usage | undefined {
  if (!a) return b;
  if (!b) return a;
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedReadTokens: Math.max(a.cachedReadTokens, b.cachedReadTokens),
    cacheWriteTokens: Math.max(a.cacheWriteTokens, b.cacheWriteTokens),
  };
}

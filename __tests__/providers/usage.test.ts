import { AIMessage, AIMessageChunk } from '@langchain/core/messages';
import {
  mergeStreamUsage,
  parseAnthropicUsage,
  parseOpenAIChatUsage,
  parseResponsesUsage,
  parseUsageMetadata,
  usageFromMessage,
} from '../../src/providers/usage';

// Payloads as the providers document and send them (cached-token examples from their
// prompt-caching guides), and as LangChain hands them on.

const OPENAI_CHAT_USAGE = {
  prompt_tokens: 2006,
  completion_tokens: 300,
  total_tokens: 2306,
  prompt_tokens_details: { cached_tokens: 1920, audio_tokens: 0 },
  completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
};

const RESPONSES_USAGE = {
  input_tokens: 2006,
  input_tokens_details: { cached_tokens: 1920 },
  output_tokens: 300,
  output_tokens_details: { reasoning_tokens: 0 },
  total_tokens: 2306,
};

const ANTHROPIC_USAGE = {
  input_tokens: 21,
  cache_creation_input_tokens: 188,
  cache_read_input_tokens: 1800,
  cache_creation: { ephemeral_5m_input_tokens: 188, ephemeral_1h_input_tokens: 0 },
  output_tokens: 393,
  service_tier: 'standard',
};

describe('provider usage parsers', () => {
  test('OpenAI Chat Completions: prompt_tokens already includes cached_tokens', () => {
    expect(parseOpenAIChatUsage(OPENAI_CHAT_USAGE)).toEqual({ inputTokens: 2006, outputTokens: 300, cachedReadTokens: 1920, cacheWriteTokens: 0 });
  });

  test('OpenAI-compatible servers without details (Ollama) and DeepSeek prompt_cache_hit_tokens', () => {
    expect(parseOpenAIChatUsage({ prompt_tokens: 26, completion_tokens: 298, total_tokens: 324 })).toEqual({
      inputTokens: 26,
      outputTokens: 298,
      cachedReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(
      parseOpenAIChatUsage({ prompt_tokens: 1500, completion_tokens: 10, total_tokens: 1510, prompt_cache_hit_tokens: 1280, prompt_cache_miss_tokens: 220 }),
    ).toEqual({ inputTokens: 1500, outputTokens: 10, cachedReadTokens: 1280, cacheWriteTokens: 0 });
  });

  test('OpenAI Responses: input_tokens includes input_tokens_details.cached_tokens', () => {
    expect(parseResponsesUsage(RESPONSES_USAGE)).toEqual({ inputTokens: 2006, outputTokens: 300, cachedReadTokens: 1920, cacheWriteTokens: 0 });
  });

  test('Anthropic: input_tokens excludes cache reads and writes, so they are added', () => {
    expect(parseAnthropicUsage(ANTHROPIC_USAGE)).toEqual({ inputTokens: 21 + 188 + 1800, outputTokens: 393, cachedReadTokens: 1800, cacheWriteTokens: 188 });
  });

  test('LangChain usage_metadata (already normalised by the adapters)', () => {
    expect(
      parseUsageMetadata({ input_tokens: 2009, output_tokens: 393, total_tokens: 2402, input_token_details: { cache_creation: 188, cache_read: 1800 } }),
    ).toEqual({ inputTokens: 2009, outputTokens: 393, cachedReadTokens: 1800, cacheWriteTokens: 188 });
  });

  test('garbage never becomes NaN or negative', () => {
    const zero = { inputTokens: 0, outputTokens: 0, cachedReadTokens: 0, cacheWriteTokens: 0 };
    expect(parseOpenAIChatUsage(null)).toEqual(zero);
    expect(parseOpenAIChatUsage({ prompt_tokens: '12', completion_tokens: -3, prompt_tokens_details: null })).toEqual(zero);
    expect(parseAnthropicUsage({ input_tokens: Number.NaN, cache_read_input_tokens: Infinity })).toEqual(zero);
    expect(parseUsageMetadata('nope')).toEqual(zero);
  });
});

describe('usageFromMessage', () => {
  test('prefers the raw provider usage in response_metadata', () => {
    const message = new AIMessage({
      content: 'hi',
      response_metadata: { usage: OPENAI_CHAT_USAGE },
      usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 },
    });
    expect(usageFromMessage('openai', message)).toEqual({ inputTokens: 2006, outputTokens: 300, cachedReadTokens: 1920, cacheWriteTokens: 0 });
  });

  test('falls back to usage_metadata when the raw usage lacks the input count (Anthropic message_start)', () => {
    // LangChain keeps only the cache fields of message_start's usage in response_metadata.
    const start = new AIMessageChunk({
      content: '',
      response_metadata: { usage: { cache_creation_input_tokens: 188, cache_read_input_tokens: 1800 } },
      usage_metadata: { input_tokens: 2009, output_tokens: 1, total_tokens: 2010, input_token_details: { cache_creation: 188, cache_read: 1800 } },
    });
    expect(usageFromMessage('anthropic', start)).toEqual({ inputTokens: 2009, outputTokens: 1, cachedReadTokens: 1800, cacheWriteTokens: 188 });
  });

  test('a chunk with no usage reports none', () => {
    expect(usageFromMessage('openai', new AIMessageChunk({ content: 'token' }))).toBeUndefined();
  });

  test('Responses raw usage is read with the Responses parser', () => {
    const message = new AIMessage({ content: '', response_metadata: { usage: RESPONSES_USAGE } });
    expect(usageFromMessage('openai-responses', message)?.cachedReadTokens).toBe(1920);
  });
});

describe('mergeStreamUsage', () => {
  test('Anthropic stream: input from message_start, cumulative output from message_delta; never summed twice', () => {
    const start = { inputTokens: 2009, outputTokens: 1, cachedReadTokens: 1800, cacheWriteTokens: 188 };
    const delta = { inputTokens: 0, outputTokens: 393, cachedReadTokens: 0, cacheWriteTokens: 0 };
    expect(mergeStreamUsage(mergeStreamUsage(undefined, start), delta)).toEqual({ inputTokens: 2009, outputTokens: 393, cachedReadTokens: 1800, cacheWriteTokens: 188 });
  });

  test('absent reports leave the other untouched', () => {
    const one = { inputTokens: 5, outputTokens: 6, cachedReadTokens: 0, cacheWriteTokens: 0 };
    expect(mergeStreamUsage(one, undefined)).toBe(one);
    expect(mergeStreamUsage(undefined, undefined)).toBeUndefined();
  });
});

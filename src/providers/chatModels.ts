import { ChatAnthropic } from '@langchain/anthropic';
import type { AIMessageChunk, BaseMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { trimTrailingSlashes } from '../core/trim';
import { anthropicBaseUrl, OPENAI_BASE_URL } from './baseUrls';
import type { FunctionTool } from './toolMessages';
import type { ProviderConfig } from '../core/ports/chatModel';
import { geminiRunner, geminiStructuredRunner } from './gemini/runner';

/** One LangChain chat model bound to a call's options, reduced to the two calls Strata makes. */
export interface ModelRunner {
  stream(messages: BaseMessage[], signal: AbortSignal): Promise<AsyncIterable<AIMessageChunk>>;
  invoke(messages: BaseMessage[], signal: AbortSignal): Promise<AIMessageChunk | BaseMessage>;
}

export interface RunnerOptions {
  readonly config: ProviderConfig;
  readonly apiKey: string | undefined;
  /** The fetch the SDK uses; undefined = the platform's. */
  readonly fetch?: typeof fetch;
  readonly streaming: boolean;
  /** Anthropic's required max_tokens (the config's maxOutputTokens when set). */
  readonly maxOutput: number;
  /** OpenAI prompt_cache_key (sent only where the endpoint understands it). */
  readonly cacheKey?: string;
  /** Responses previous_response_id. */
  readonly previousResponseId?: string;
  /** Tools the model may call (bindTools); absent: a plain chat call, exactly as before. */
  readonly tools?: readonly FunctionTool[];
  /** OpenAI predicted output (Chat Completions only): sent as `prediction: { type: 'content' }`. */
  readonly prediction?: string;
  /** Gemini: an explicit cache entry the request reads its system instruction and tools from (./gemini/explicitCache.ts). */
  readonly cachedContent?: { readonly name: string };
}

/**
 * A keyless local server (Ollama, LM Studio, llama.cpp) ignores the Authorization header, but the
 * OpenAI SDK refuses to start without a key.
 */
const NO_KEY = 'not-needed';

/** Anthropic rejects browser requests without it (Obsidian is a browser to them). */
const ANTHROPIC_BROWSER_HEADERS = { 'anthropic-dangerous-direct-browser-access': 'true' };

/**
 * The SDKs' own request timeout. Strata enforces its own (idle) timeout by aborting, so this is
 * only a backstop; giving it explicitly also stops the Anthropic SDK from refusing non-streaming
 * calls with a large max_tokens.
 */
const SDK_TIMEOUT_MS = 15 * 60_000;

export function buildRunner(options: RunnerOptions): ModelRunner {
  const { config } = options;
  if (config.kind === 'anthropic') return anthropicRunner(options);
  if (config.kind === 'gemini') return geminiRunner(options);
  if (config.kind === 'claude-code' || config.kind === 'codex') throw new Error(`${config.kind} is a CLI, not a LangChain model`);
  const responses = config.kind === 'openai-responses';
  const model = openAiModel(options);
  const callOptions = {
    ...(options.cacheKey !== undefined ? { promptCacheKey: options.cacheKey } : {}),
    ...(responses && options.previousResponseId !== undefined ? { previous_response_id: options.previousResponseId } : {}),
    ...(config.kind === 'openai' && options.prediction !== undefined ? { prediction: { type: 'content' as const, content: options.prediction } } : {}),
  };
  const bound = options.tools && options.tools.length > 0 ? model.bindTools([...options.tools]) : model;
  return {
    stream: (messages, signal) => bound.stream(messages, { ...callOptions, signal }),
    invoke: (messages, signal) => bound.invoke(messages, { ...callOptions, signal }),
  };
}

/** The OpenAI model (Chat Completions, compatible endpoints, or Responses) for a runner's options. */
function openAiModel(options: RunnerOptions): ChatOpenAI {
  const { config } = options;
  return new ChatOpenAI({
    model: config.model,
    // Only when set: unset leaves the request exactly as the provider's default would have it.
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    // max_tokens (max_completion_tokens for reasoning models), or the Responses API's max_output_tokens.
    ...(config.maxOutputTokens !== undefined ? { maxTokens: config.maxOutputTokens } : {}),
    apiKey: options.apiKey ?? NO_KEY,
    // One retry policy (retry.ts): none in LangChain, none in the SDK (LangChain sets the SDK's to 0).
    maxRetries: 0,
    streaming: options.streaming,
    streamUsage: true,
    useResponsesApi: config.kind === 'openai-responses',
    timeout: SDK_TIMEOUT_MS,
    configuration: {
      baseURL: trimTrailingSlashes(config.baseUrl ?? OPENAI_BASE_URL),
      dangerouslyAllowBrowser: true,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  });
}

function anthropicRunner(options: RunnerOptions): ModelRunner {
  const model = anthropicModel(options);
  const bound = options.tools && options.tools.length > 0 ? model.bindTools([...options.tools]) : model;
  return {
    stream: (messages, signal) => bound.stream(messages, { signal }),
    invoke: (messages, signal) => bound.invoke(messages, { signal }),
  };
}

function anthropicModel(options: RunnerOptions): ChatAnthropic {
  const baseURL = anthropicBaseUrl(options.config.baseUrl);
  return new ChatAnthropic({
    model: options.config.model,
    apiKey: options.apiKey ?? NO_KEY,
    maxRetries: 0,
    streaming: options.streaming,
    streamUsage: true,
    maxTokens: options.maxOutput,
    ...(options.config.temperature !== undefined ? { temperature: options.config.temperature } : {}),
    anthropicApiUrl: baseURL,
    clientOptions: {
      baseURL,
      timeout: SDK_TIMEOUT_MS,
      dangerouslyAllowBrowser: true,
      defaultHeaders: ANTHROPIC_BROWSER_HEADERS,
      ...(options.fetch ? { fetch: options.fetch } : {}),
    },
  });
}

/** How a structured answer is asked for, and its JSON Schema (see ./structuredOutput.ts). */
export interface StructuredOutput {
  readonly schema: Record<string, unknown>;
  readonly name: string;
  readonly method: 'functionCalling' | 'jsonSchema';
  /** OpenAI strict mode (undefined: not sent). */
  readonly strict?: boolean;
}

/** One non-streamed structured call: the raw reply (parsing and validation are the caller's). */
export interface StructuredRunner {
  invoke(messages: BaseMessage[], signal: AbortSignal): Promise<BaseMessage>;
}

/** LangChain's withStructuredOutput with includeRaw, on the model a runner's options describe. */
export function buildStructuredRunner(options: RunnerOptions, output: StructuredOutput): StructuredRunner {
  const { config } = options;
  if (config.kind === 'gemini') return geminiStructuredRunner(options, output);
  if (config.kind === 'claude-code' || config.kind === 'codex') throw new Error(`${config.kind} is a CLI, not a LangChain model`);
  const settings = { name: output.name, method: output.method, includeRaw: true as const, ...(output.strict !== undefined ? { strict: output.strict } : {}) };
  const structured = config.kind === 'anthropic' ? anthropicModel(options).withStructuredOutput(output.schema, settings) : openAiModel(options).withStructuredOutput(output.schema, settings);
  return { invoke: async (messages, signal) => (await structured.invoke(messages, { signal })).raw };
}

import { ChatGoogleGenerativeAI } from '@langchain/google-genai';
import { SystemMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { geminiBaseUrl } from '../baseUrls';
import type { FunctionTool } from '../toolMessages';
import type { ProviderConfig } from '../../core/ports/chatModel';

/** What a Gemini call is built from (the Gemini part of chatModels.ts's RunnerOptions). */
export interface GeminiRunnerOptions {
  readonly config: ProviderConfig;
  readonly apiKey: string | undefined;
  readonly streaming: boolean;
  readonly tools?: readonly FunctionTool[];
  /** An explicit cache entry (cachedContents/…) holding the system instruction and tools. */
  readonly cachedContent?: { readonly name: string };
}

/** The runner shape of chatModels.ts (ModelRunner), declared here so the two modules do not import each other. */
export interface GeminiRunner {
  stream(messages: BaseMessage[], signal: AbortSignal): Promise<AsyncIterable<AIMessageChunk>>;
  invoke(messages: BaseMessage[], signal: AbortSignal): Promise<AIMessageChunk | BaseMessage>;
}

/**
 * Gemini through LangChain's ChatGoogleGenerativeAI (over @google/generative-ai 0.24, which runs on
 * Node 20; Google's newer @google/genai needs Node 22). That SDK calls the global fetch (it takes
 * none), so Gemini requests use the platform's fetch: Google's API answers browsers (CORS), and
 * Obsidian's requestUrl fallback does not apply. Model list, Test connection and the explicit
 * cache's own calls (./explicitCache.ts) go through the fetch given, as for the other providers.
 */
export function geminiModel(options: GeminiRunnerOptions): ChatGoogleGenerativeAI {
  const { config } = options;
  const model = new ChatGoogleGenerativeAI({
    model: config.model,
    // The SDK refuses to start without a key; createProvider requires one for Gemini.
    apiKey: options.apiKey ?? '',
    baseUrl: geminiBaseUrl(config.baseUrl),
    // One retry policy (retry.ts): none in LangChain.
    maxRetries: 0,
    streaming: options.streaming,
    streamUsage: true,
    ...(config.temperature !== undefined ? { temperature: config.temperature } : {}),
    ...(config.maxOutputTokens !== undefined ? { maxOutputTokens: config.maxOutputTokens } : {}),
  });
  const cached = options.cachedContent;
  if (cached) model.useCachedContent({ name: cached.name, model: `models/${config.model}`, contents: [] });
  settleAggregate(model);
  return model;
}

type StreamClient = { generateContentStream: (...args: unknown[]) => Promise<{ response: Promise<unknown> }> };

/**
 * The SDK's generateContentStream also returns `response`, the whole reply aggregated from a copy of
 * the stream. LangChain reads only the stream, so when a stream breaks (a cut connection, a stop)
 * that promise rejects with no one listening: an unhandled rejection, fatal under Node. The stream
 * itself reports the failure; the aggregate is marked handled.
 */
function settleAggregate(model: ChatGoogleGenerativeAI): void {
  const client = (model as unknown as { client: StreamClient }).client;
  const original = client.generateContentStream.bind(client);
  client.generateContentStream = async (...args: unknown[]) => {
    const result = await original(...args);
    result.response.catch(() => undefined);
    return result;
  };
}

/**
 * A request against an explicit cache entry sends neither the system instruction nor the tools:
 * Gemini refuses them beside `cachedContent` (the entry holds both, ./explicitCache.ts).
 */
function withoutCachedPart(messages: BaseMessage[], cached: boolean): BaseMessage[] {
  if (!cached) return messages;
  return messages.length > 0 && SystemMessage.isInstance(messages[0]) ? messages.slice(1) : messages;
}

export function geminiRunner(options: GeminiRunnerOptions): GeminiRunner {
  const model = geminiModel(options);
  const cached = options.cachedContent !== undefined;
  const bound = !cached && options.tools && options.tools.length > 0 ? model.bindTools([...options.tools]) : model;
  return {
    stream: (messages, signal) => bound.stream(withoutCachedPart(messages, cached), { signal }),
    invoke: (messages, signal) => bound.invoke(withoutCachedPart(messages, cached), { signal }),
  };
}

/** Gemini's structured answer: a forced function call (LangChain's functionCalling: allowedFunctionNames = [name]). */
export function geminiStructuredRunner(
  options: GeminiRunnerOptions,
  output: { readonly schema: Record<string, unknown>; readonly name: string; readonly method: 'functionCalling' | 'jsonSchema' },
): { invoke(messages: BaseMessage[], signal: AbortSignal): Promise<BaseMessage> } {
  const structured = geminiModel(options).withStructuredOutput(output.schema, { name: output.name, method: output.method, includeRaw: true });
  return { invoke: async (messages, signal) => (await structured.invoke(messages, { signal })).raw };
}

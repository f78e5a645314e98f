import type { AnthropicPromptCache } from './anthropicCacheRule';
import type { Api } from './errors';
import type { OpenAIPromptCache } from './openaiCacheRule';
import type { GeminiState } from './gemini';
import type { SseStream } from './sse';

/** A stored Responses API response: the conversation it closes, for previous_response_id. */
export interface StoredResponse {
  readonly id: string;
  /** Every input item of the conversation so far plus this response's output items. */
  readonly items: readonly unknown[];
  /** The response object as returned (for GET /v1/responses/{id}). */
  readonly response: unknown;
}

/** Everything the server remembers between requests. */
export interface ServerState {
  readonly openaiCache: OpenAIPromptCache;
  readonly anthropicCache: AnthropicPromptCache;
  readonly responses: Map<string, StoredResponse>;
  /** Gemini's implicit prefixes and cachedContents entries. */
  readonly gemini: GeminiState;
  readonly defaultModel: string;
  nextId(prefix: string): string;
}

/** One generation request, as a handler sees it. */
export interface Exchange {
  readonly api: Api;
  readonly body: Record<string, unknown>;
  /** Lower-cased request headers. */
  readonly headers: Readonly<Record<string, string>>;
  readonly streaming: boolean;
  readonly state: ServerState;
  /** Clock reading (ms) for this request. */
  readonly now: number;
  readonly requestId: string;
  json(status: number, body: unknown, headers?: Record<string, string>): void;
  /** Starts an SSE response (a pending stream-cut fault applies to it). */
  stream(headers?: Record<string, string>): SseStream;
  /** Resolves after `ms` (a scripted slow answer): false when the client has gone meanwhile. */
  wait(ms: number): Promise<boolean>;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

/**
 * The chat-model port: what the core needs from a model and what providers implement. It lives in
 * the core so that the dependency points one way (providers import the core, never the reverse).
 */
import type { z } from 'zod';
import type { CacheBreakpoint } from '../compiler/cacheBreakpoints';
import type { ChatMessage } from '../engine/messages';
import type { ToolSpec } from '../agent/types';
import type { AgentStep, ToolCall } from '../conversation/records/agent';
import type { Usage } from '../usage';

/** Every provider kind, in the order the settings offer them; ProviderKind is derived from it. */
export const PROVIDER_KINDS = ['openai', 'openai-compatible', 'anthropic', 'openai-responses', 'claude-code', 'codex', 'gemini'] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export type CachingKind = 'automatic-prefix' | 'explicit-breakpoints' | 'none';

/** What a provider/model can do. Drives the MessageCompiler (full vs delta) and the UI. */
export interface Capabilities {
  /** The provider keeps the conversation between calls (Claude Code --resume, Responses previous_response_id). */
  readonly sessionResumption: boolean;
  readonly caching: CachingKind;
  readonly streaming: boolean;
  readonly toolCalling: boolean;
  readonly images: boolean;
  readonly contextWindow: number;
  readonly maxOutput: number;
}

/** One configured provider as stored in settings (no secrets: the key is looked up by secretId). */
export interface ProviderConfig {
  readonly id: string;
  readonly kind: ProviderKind;
  /** The configured display name, what errors call the provider (unset: the kind and the id). */
  readonly name?: string;
  readonly model: string;
  /** For OpenAI-compatible endpoints (Ollama, LM Studio, OpenRouter, llama.cpp, vLLM) and tests. */
  readonly baseUrl?: string;
  /** Name of the secret in Obsidian's SecretStorage holding the API key. */
  readonly secretId?: string;
  /** Claude Code and Codex: the CLI executable and working directory. */
  readonly executable?: string;
  readonly cwd?: string;
  /** Sent only when set (unset: the provider's default). Claude Code ignores both. */
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
}

/** A compiled request, ready for one provider call. */
export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  /** Explicit cache breakpoints (Anthropic); ignored by providers that cache automatically. */
  readonly breakpoints?: readonly CacheBreakpoint[];
  /** OpenAI prompt_cache_key: one per conversation so its requests land on the same cache. */
  readonly cacheKey?: string;
  /** Session to resume (Responses previous_response_id, Claude Code session id). */
  readonly sessionId?: string;
  readonly signal?: AbortSignal;
  /** Called with each streamed text delta, in order. */
  readonly onToken?: (delta: string) => void;
  /** Called when an attempt failed and another follows after a wait (the chat shows it, with a cancel). */
  readonly onRetry?: (notice: RetryNotice) => void;
  /** Tools the model may call (LangChain bindTools); only for providers with `toolCalling`. */
  readonly tools?: readonly ToolSpec[];
  /**
   * The agent loop's steps so far, sent after `messages` in the provider's own tool format (the
   * model's calls, then their results), so each step's request extends the previous one.
   */
  readonly steps?: readonly AgentStep[];
  /**
   * The provider's session already holds the steps' calls (Responses previous_response_id is the
   * response that made them): only their results are sent.
   */
  readonly callsSeen?: boolean;
  /** A user note sent last, after the steps (the agent's step limit: answer now). */
  readonly finalNote?: string;
  /** OpenAI predicted output (Chat Completions `prediction`): text the answer mostly repeats. Sent only by OpenAI providers. */
  readonly prediction?: string;
}

/** Why an attempt is retried, in the words the chat uses. */
export type RetryReason = 'rate-limited' | 'server' | 'timeout' | 'network';

/** A failed attempt about to be retried: "rate limited: retrying (2/3) in 20 s". */
export interface RetryNotice {
  /** The attempt about to be made (2, 3, ...). */
  readonly attempt: number;
  /** Attempts allowed in all, the first included. */
  readonly of: number;
  /** The wait before it, in milliseconds: the server's retry-after, or the backoff. */
  readonly delayMs: number;
  readonly reason: RetryReason;
  /** The wait is the server's own (retry-after), not Strata's backoff. */
  readonly serverAsked: boolean;
}

/** A complete, successful response. */
export interface ChatResult {
  readonly text: string;
  readonly usage: Usage;
  /** Session to resume next time (Responses response id, Claude Code session id), if any. */
  readonly sessionId?: string;
  /** Provider-reported model name, when it differs from the configured one. */
  readonly model?: string;
  /**
   * False when the provider reported no token usage (some OpenAI-compatible servers send none
   * while streaming): `usage` is then all zeros, not a measurement. Absent means reported.
   */
  readonly usageReported?: boolean;
  /** The model asked for tools (a request with `tools`): the loop runs them and continues. */
  readonly toolCalls?: readonly ToolCall[];
}

/** A request for an answer in a schema's shape (the artifact planner's), not streamed. */
export interface StructuredRequest<T> {
  readonly messages: readonly ChatMessage[];
  readonly schema: z.ZodType<T>;
  /** The answer's name (the forced tool's, where the provider answers by tool call). */
  readonly name: string;
  readonly signal?: AbortSignal;
}

/** A structured answer as the model gave it: the caller validates `value` (it may be off-schema). */
export interface StructuredResult {
  /** The tool call's arguments (an object), or the reply's text when the model wrote text (JSON or not). */
  readonly value: unknown;
  readonly usage: Usage;
  /** False when the provider reported no usage (all zeros). */
  readonly usageReported?: boolean;
  /** Provider-reported model name, when it differs from the configured one. */
  readonly model?: string;
  /** How the answer was asked for (LangChain's method: functionCalling, jsonSchema…). */
  readonly method: string;
}

/** A chat model behind one provider. Errors are ProviderError (src/providers/errors.ts). */
export interface ChatProvider {
  readonly config: ProviderConfig;
  readonly capabilities: Capabilities;
  send(request: ChatRequest): Promise<ChatResult>;
  /** Structured output, where the provider has it (absent: ask for JSON in text through `send`). */
  structured?<T>(request: StructuredRequest<T>): Promise<StructuredResult>;
}

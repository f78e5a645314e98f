import { HumanMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { addUsage, ZERO_USAGE, type Usage } from '../core/usage';
import { buildRunner, buildStructuredRunner, type ModelRunner, type StructuredOutput } from './chatModels';
import { classifyError, finalizeError, IncompleteStreamError, isFetchBlocked, isProviderReported, type FailureContext } from './classify';
import { ProviderError } from './errors';
import { toAnthropicMessages, toLangChainMessages } from './langchainMessages';
import { foldSteps } from '../core/engine/agentHistory';
import { anthropicStepMessages, functionTools, openAiStepMessages, toolCallsOf } from './toolMessages';
import { retryNotice, withRetries, type PendingRetry, type RetryPolicy } from './retry';
import type { Sleep, Timers } from '../core/timers';
import type { Capabilities, ChatProvider, ChatRequest, ChatResult, ProviderConfig, StructuredRequest, StructuredResult } from '../core/ports/chatModel';
import { structuredOutputFor, toolAnswer } from './structuredOutput';
import { mergeStreamUsage, usageFromMessage } from './usage';
import type { GeminiExplicitCache } from './gemini/explicitCache';
import { deterministicCallIds } from './gemini/callIds';
import type { ToolCall } from '../core/conversation/records/agent';

export interface LangChainProviderOptions {
  readonly getApiKey: () => Promise<string | undefined>;
  /** The fetch for normal (streaming) calls; undefined = the platform's. */
  readonly fetch?: typeof fetch;
  /** Non-streaming fetch that CORS cannot block (Obsidian's requestUrl), used when `fetch` is blocked. */
  readonly fallbackFetch?: typeof fetch;
  readonly policy: RetryPolicy;
  readonly sleep: Sleep;
  readonly timers: Timers;
  readonly now: () => number;
  /** Streaming: longest wait for the reply's first text (reasoning models can think a while first). */
  readonly timeoutMs: number;
  /**
   * Streaming: longest silence once text has started arriving. A stream that stalls mid-reply is
   * given up on (its text is kept by the caller) instead of waiting out `timeoutMs`.
   */
  readonly stallTimeoutMs: number;
  /** Non-streaming: longest wait for the whole reply. */
  readonly nonStreamingTimeoutMs: number;
  /** Anthropic's required max_tokens. */
  readonly maxOutputTokens: number;
  /** Gemini: the explicit cache entries of the stable prefix (absent: implicit caching only). */
  readonly explicitCache?: GeminiExplicitCache;
}

/** Anthropic caps the reply length per request; a generous chat default that every current model allows. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 16_384;

type Chunk = { readonly content?: unknown; readonly response_metadata?: unknown; readonly additional_kwargs?: unknown; readonly usage_metadata?: unknown; readonly id?: string };

/** Text of a LangChain message content: a string, or the text blocks of a block list. */
function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  let out = '';
  for (const block of content as unknown[]) {
    if (typeof block === 'object' && block !== null && (block as { type?: unknown }).type === 'text') {
      const text = (block as { text?: unknown }).text;
      if (typeof text === 'string') out += text;
    }
  }
  return out;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

/** What one attempt produced. */
interface Outcome {
  readonly text: string;
  readonly usage: Usage | undefined;
  readonly metadata: Record<string, unknown>;
  readonly kwargs: Record<string, unknown>;
  readonly id?: string;
  /** The whole reply message (chunks joined): where tool calls are read from. */
  readonly message?: unknown;
}

/**
 * ChatProvider over a LangChain chat model (OpenAI Chat Completions, OpenAI-compatible endpoints,
 * OpenAI Responses, Anthropic Messages).
 *
 * Streaming and CORS: a request with `onToken` streams through `fetch`. If that fetch fails with
 * the TypeError a browser raises when CORS (or the network) blocks it ("Failed to fetch"), before
 * any token arrived, and a `fallbackFetch` is configured, the same request is sent once more,
 * non-streaming, through the fallback (Obsidian's requestUrl, which CORS does not apply to); the
 * whole reply is then handed to `onToken` as one delta. The provider remembers the switch: later
 * calls go straight to the fallback. A fallback call is not counted as a retry.
 *
 * Timeouts: Strata's own, by aborting the request (so nothing is left dangling): a streaming call
 * fails after `timeoutMs` without any text, or after `stallTimeoutMs` without data once text has
 * arrived (a stalled stream); a non-streaming one after `nonStreamingTimeoutMs`.
 */
export class LangChainProvider implements ChatProvider {
  private useFallback = false;
  /** Requests whose explicit cache entry was found gone and made again (once each). */
  private readonly remade = new WeakSet<ChatRequest>();

  constructor(
    readonly config: ProviderConfig,
    readonly capabilities: Capabilities,
    private readonly options: LangChainProviderOptions,
  ) {}

  /** True once `fetch` was found blocked and calls go through the fallback fetch. */
  get usingFallback(): boolean {
    return this.useFallback;
  }

  /** What an error of a call is classified with (secrets to scrub, the timeout, whether the user stopped it), with overrides. */
  private failureContext(apiKey: string | undefined, signal: AbortSignal | undefined, timeoutMs: number, resumedSession: boolean) {
    return (overrides: Partial<FailureContext> = {}): FailureContext => ({
      kind: this.config.kind,
      providerId: this.config.id,
      providerName: this.config.name,
      baseUrl: this.config.baseUrl,
      secrets: [apiKey],
      now: this.options.now,
      userAborted: signal?.aborted ?? false,
      timedOut: false,
      timeoutMs,
      resumedSession,
      ...overrides,
    });
  }

  async send(request: ChatRequest): Promise<ChatResult> {
    const apiKey = await this.options.getApiKey();
    const context = this.failureContext(apiKey, request.signal, this.options.timeoutMs, request.sessionId !== undefined && this.config.kind === 'openai-responses');
    if (request.signal?.aborted) throw classifyError(request.signal.reason, context());

    const messages = this.messagesOf(request);
    let delivered = false;
    const deliver = (delta: string): void => {
      delivered = true;
      request.onToken?.(delta);
    };

    try {
      return await withRetries(() => this.attempt(request, messages, apiKey, deliver, context), {
        policy: this.options.policy,
        sleep: this.options.sleep,
        signal: request.signal,
        // Tokens already shown cannot be taken back: a failure after them is final.
        mayRetry: () => !delivered,
        finalize: (error, attempts) => finalizeError(error, context(), attempts, this.options.policy.maxRetryAfterMs),
        ...(request.onRetry ? { onRetry: (retry: PendingRetry) => request.onRetry?.(retryNotice(retry)) } : {}),
      });
    } catch (error) {
      // An abort during a retry wait arrives here as the signal's reason.
      if (request.signal?.aborted) throw classifyError(error, context({ userAborted: true }));
      throw error instanceof ProviderError ? error : classifyError(error, context());
    }
  }

  /**
   * A structured answer (./structuredOutput.ts has the method per kind), not streamed, with the
   * same retries, timeout, CORS fallback and error classification as `send`. The answer is
   * returned raw: the caller validates it.
   */
  async structured<T>(request: StructuredRequest<T>): Promise<StructuredResult> {
    const apiKey = await this.options.getApiKey();
    const context = this.failureContext(apiKey, request.signal, this.options.nonStreamingTimeoutMs, false);
    if (request.signal?.aborted) throw classifyError(request.signal.reason, context());
    const messages = this.messagesOf({ messages: request.messages });
    const output = structuredOutputFor(this.config.kind, request.schema, request.name);
    try {
      return await withRetries(() => this.structuredAttempt(messages, output, apiKey, request.signal, context), {
        policy: this.options.policy,
        sleep: this.options.sleep,
        signal: request.signal,
        mayRetry: () => true,
        finalize: (error, attempts) => finalizeError(error, context(), attempts, this.options.policy.maxRetryAfterMs),
      });
    } catch (error) {
      if (request.signal?.aborted) throw classifyError(error, context({ userAborted: true }));
      throw error instanceof ProviderError ? error : classifyError(error, context());
    }
  }

  private async structuredAttempt(
    messages: BaseMessage[],
    output: StructuredOutput,
    apiKey: string | undefined,
    signal: AbortSignal | undefined,
    context: (overrides?: Partial<FailureContext>) => FailureContext,
  ): Promise<StructuredResult> {
    const guard = this.guard(signal, this.options.nonStreamingTimeoutMs);
    try {
      const fetchFn = this.useFallback ? this.options.fallbackFetch : this.options.fetch;
      const runner = buildStructuredRunner({ config: this.config, apiKey, fetch: fetchFn, streaming: false, maxOutput: this.options.maxOutputTokens }, output);
      const raw = (await runner.invoke(messages, guard.signal)) as Chunk & { readonly tool_calls?: unknown };
      const usage = usageFromMessage(this.config.kind, raw);
      const metadata = record(raw.response_metadata);
      const model = metadata.model_name ?? metadata.model;
      return {
        value: toolAnswer(raw, output.name) ?? textOf(raw.content),
        usage: usage ?? ZERO_USAGE,
        usageReported: usage !== undefined,
        method: output.method,
        ...(typeof model === 'string' && model !== this.config.model ? { model } : {}),
      };
    } catch (caught) {
      guard.abort();
      const failure = context({ userAborted: signal?.aborted ?? false, timedOut: guard.timedOut() });
      if (!failure.userAborted && !failure.timedOut && !this.useFallback && this.options.fallbackFetch && isFetchBlocked(caught)) {
        this.useFallback = true;
        return this.structuredAttempt(messages, output, apiKey, signal, context);
      }
      throw classifyError(caught, failure);
    } finally {
      guard.dispose();
    }
  }

  /** The request's messages, then the agent loop's steps, in the provider's own tool format. */
  private messagesOf(request: ChatRequest): BaseMessage[] {
    const anthropic = this.config.kind === 'anthropic';
    const images = this.capabilities.images;
    // Earlier agent turns go as native tool messages only beside tool definitions (providers refuse tool
    // messages without them); a request without tools gets their results as blocks instead.
    const messages = request.tools !== undefined ? request.messages : foldSteps(request.messages);
    const base = anthropic ? toAnthropicMessages(messages, request.breakpoints, images) : toLangChainMessages(messages, images);
    const steps = request.steps ?? [];
    const note = request.finalNote !== undefined ? [new HumanMessage(request.finalNote)] : [];
    if (steps.length === 0) return [...base, ...note];
    return [...base, ...(anthropic ? anthropicStepMessages(steps, true) : openAiStepMessages(steps, request.callsSeen ?? false)), ...note];
  }

  private async attempt(
    request: ChatRequest,
    messages: BaseMessage[],
    apiKey: string | undefined,
    deliver: (delta: string) => void,
    context: (overrides?: Partial<FailureContext>) => FailureContext,
  ): Promise<ChatResult> {
    const streaming = request.onToken !== undefined && this.capabilities.streaming && !this.useFallback;
    const fetchFn = this.useFallback ? this.options.fallbackFetch : this.options.fetch;
    const guard = this.guard(request.signal, streaming ? this.options.timeoutMs : this.options.nonStreamingTimeoutMs);
    let receivedChars = 0;
    // Whether the server answered with headers: a failure after that, in a stream, is a cut.
    // Observable only through a fetch we were given (the platform's is the SDK's default).
    let responded = false;
    const observedFetch: typeof fetch | undefined = fetchFn
      ? async (input, init) => {
          const response = await fetchFn(input, init);
          responded = true;
          return response;
        }
      : undefined;
    const cache = this.options.explicitCache;
    try {
      const cached = cache ? await cache.prepare(request, apiKey, guard.signal) : undefined;
      const runner = this.runner(apiKey, observedFetch, streaming, request, cached?.name);
      let outcome: Outcome;
      if (streaming) {
        outcome = await this.streamOnce(runner, messages, guard, request.tools !== undefined, (delta) => {
          // From the first text on, silence means a stalled stream: the shorter timer applies.
          if (receivedChars === 0) guard.shorten(this.options.stallTimeoutMs);
          receivedChars += delta.length;
          deliver(delta);
        });
      } else {
        outcome = await this.invokeOnce(runner, messages, guard.signal);
        if (outcome.text && request.onToken) deliver(outcome.text);
      }
      const made = cache?.takeUnbilled(request);
      return this.result(made && outcome.usage ? { ...outcome, usage: addUsage(outcome.usage, made) } : outcome, request.tools !== undefined);
    } catch (caught) {
      // Gone before its TTL (deleted elsewhere, expired early): the next attempt makes a new one.
      const status = (caught as { status?: unknown } | null)?.status;
      if ((status === 403 || status === 404) && !this.remade.has(request) && cache?.forget(request) && !request.signal?.aborted) {
        this.remade.add(request);
        // The entry was gone (expired early, deleted elsewhere): once more, making a new one; not a retry.
        return this.attempt(request, messages, apiKey, deliver, context);
      }
      const ours = guard.signal.aborted;
      guard.abort();
      const stalled = guard.timedOut() && receivedChars > 0;
      const failure = context({
        userAborted: request.signal?.aborted ?? false,
        timedOut: guard.timedOut(),
        ...(stalled ? { stalledMs: Math.min(this.options.timeoutMs, this.options.stallTimeoutMs) } : {}),
      });
      // Once the stream is open, a failure that is neither ours (abort, timeout) nor the provider's
      // (status, error event) is the connection dropping, whatever the SDK called it.
      const error =
        streaming && (responded || receivedChars > 0) && !ours && !(caught instanceof IncompleteStreamError) && !isProviderReported(caught)
          ? new IncompleteStreamError(receivedChars, caught)
          : caught;
      if (!failure.userAborted && !failure.timedOut && receivedChars === 0 && !this.useFallback && this.options.fallbackFetch && !(error instanceof IncompleteStreamError) && isFetchBlocked(error)) {
        this.useFallback = true;
        return this.attempt(request, messages, apiKey, deliver, context);
      }
      throw classifyError(error, failure);
    } finally {
      guard.dispose();
    }
  }

  private runner(apiKey: string | undefined, fetchFn: typeof fetch | undefined, streaming: boolean, request: ChatRequest, cachedContent?: string): ModelRunner {
    const sendCacheKey = this.capabilities.caching === 'automatic-prefix' && this.config.kind !== 'anthropic' && this.config.kind !== 'gemini';
    return buildRunner({
      config: this.config,
      apiKey,
      fetch: fetchFn,
      streaming,
      maxOutput: this.options.maxOutputTokens,
      cacheKey: sendCacheKey ? request.cacheKey : undefined,
      previousResponseId: request.sessionId,
      ...(request.tools && request.tools.length > 0 ? { tools: functionTools(request.tools) } : {}),
      ...(request.prediction !== undefined ? { prediction: request.prediction } : {}),
      ...(cachedContent !== undefined ? { cachedContent: { name: cachedContent } } : {}),
    });
  }

  private async streamOnce(runner: ModelRunner, messages: BaseMessage[], guard: Guard, withTools: boolean, onDelta: (delta: string) => void): Promise<Outcome> {
    const stream = await runner.stream(messages, guard.signal);
    // Tool calls arrive as argument fragments; LangChain's chunk concatenation reassembles them.
    let whole: AIMessageChunk | undefined;
    let text = '';
    let usage: Usage | undefined;
    let id: string | undefined;
    const metadata: Record<string, unknown> = {};
    const kwargs: Record<string, unknown> = {};
    for await (const chunk of stream as AsyncIterable<Chunk>) {
      guard.touch();
      const delta = textOf(chunk.content);
      if (delta) {
        text += delta;
        onDelta(delta);
      }
      usage = mergeStreamUsage(usage, usageFromMessage(this.config.kind, chunk), this.config.kind);
      Object.assign(metadata, record(chunk.response_metadata));
      Object.assign(kwargs, record(chunk.additional_kwargs));
      id ??= chunk.id;
      if (withTools) whole = whole ? concat(whole, chunk as AIMessageChunk) : (chunk as AIMessageChunk);
    }
    if (!this.streamComplete(metadata, kwargs)) throw new IncompleteStreamError(text.length);
    return { text, usage, metadata, kwargs, id, ...(whole ? { message: whole } : {}) };
  }

  /** Each API marks the end of a complete reply; a stream without it was cut. */
  private streamComplete(metadata: Record<string, unknown>, kwargs: Record<string, unknown>): boolean {
    switch (this.config.kind) {
      case 'anthropic':
        return kwargs.stop_reason !== undefined && kwargs.stop_reason !== null;
      case 'openai-responses':
        return metadata.status === 'completed' || metadata.status === 'incomplete';
      case 'gemini':
        return typeof metadata.finishReason === 'string';
      default:
        return metadata.finish_reason !== undefined && metadata.finish_reason !== null;
    }
  }

  private async invokeOnce(runner: ModelRunner, messages: BaseMessage[], signal: AbortSignal): Promise<Outcome> {
    const message = (await runner.invoke(messages, signal)) as Chunk;
    return {
      text: textOf(message.content),
      usage: usageFromMessage(this.config.kind, message),
      metadata: record(message.response_metadata),
      kwargs: record(message.additional_kwargs),
      id: message.id,
      message,
    };
  }

  private result(outcome: Outcome, withTools: boolean): ChatResult {
    const model = outcome.metadata.model_name ?? outcome.metadata.model;
    const responseId = typeof outcome.metadata.id === 'string' ? outcome.metadata.id : outcome.id;
    return {
      text: outcome.text,
      usage: outcome.usage ?? ZERO_USAGE,
      usageReported: outcome.usage !== undefined,
      ...(this.config.kind === 'openai-responses' && responseId ? { sessionId: responseId } : {}),
      ...(typeof model === 'string' && model !== this.config.model ? { model } : {}),
      ...(withTools && outcome.message ? { toolCalls: this.toolCalls(outcome.message, responseId) } : {}),
    };
  }

  private toolCalls(message: unknown, responseId: string | undefined): ToolCall[] {
    const calls = toolCallsOf(message, responseId ?? 'call');
    return this.config.kind === 'gemini' ? deterministicCallIds(calls) : calls;
  }

  /** An abort controller tied to the caller's signal and to an inactivity timer. */
  private guard(outer: AbortSignal | undefined, initialTimeoutMs: number): Guard {
    let timeoutMs = initialTimeoutMs;
    const controller = new AbortController();
    const timers = this.options.timers;
    let timedOut = false;
    let handle: unknown;
    const onOuterAbort = (): void => controller.abort(outer?.reason);
    outer?.addEventListener('abort', onOuterAbort, { once: true });
    const arm = (): void => {
      if (handle !== undefined) timers.clearTimeout(handle);
      handle = timers.setTimeout(() => {
        timedOut = true;
        controller.abort(new Error(`No answer within ${timeoutMs} ms`));
      }, timeoutMs);
    };
    arm();
    return {
      signal: controller.signal,
      touch: arm,
      shorten: (ms) => {
        timeoutMs = Math.min(timeoutMs, ms);
        arm();
      },
      timedOut: () => timedOut,
      abort: () => {
        if (!controller.signal.aborted) controller.abort(new Error('Request abandoned'));
      },
      dispose: () => {
        if (handle !== undefined) timers.clearTimeout(handle);
        outer?.removeEventListener('abort', onOuterAbort);
      },
    };
  }
}

interface Guard {
  readonly signal: AbortSignal;
  /** Data arrived: restart the inactivity timer. */
  touch(): void;
  /** From now on, the inactivity timer is at most `ms` (restarted now). */
  shorten(ms: number): void;
  timedOut(): boolean;
  /** Cancel the underlying HTTP request (after a failure), so nothing is left running. */
  abort(): void;
  dispose(): void;
}

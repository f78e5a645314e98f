/**
 * Embeddings over an OpenAI-compatible `POST {baseUrl}/embeddings` (OpenAI, Ollama's /v1, LM Studio,
 * the local test server). A small direct client rather than LangChain's OpenAIEmbeddings: that
 * class drops the response's `usage` (needed for the cost), takes no per-call AbortSignal, and
 * sends all batches at once (Promise.all), which a rate limit punishes. Errors are classified and
 * retried exactly as chat calls are (classify.ts, retry.ts).
 */
import { longestSubstringMatch, lowerKeys } from '../core/nameMatch';
import type { ProviderConfig } from '../core/ports/chatModel';
import type { Embedder, EmbeddingBatch } from '../core/search/embedder';
import { tokenCounterFor } from '../core/tokens/tokenCounter';
import { trimTrailingSlashes } from '../core/trim';
import { OPENAI_BASE_URL } from './baseUrls';
import { buildError, classifyError, finalizeError, type FailureContext } from './classify';
import { ProviderError } from './errors';
import { KEY_REQUIRED, type ProviderDeps } from './createProvider';
import type { PriceOverrides } from './pricing';
import { providerConfigOf } from './providerConfig';
import type { ProviderSettings } from '../core/settings/settings';
import { DEFAULT_RETRY_POLICY, withRetries } from './retry';
import { DEFAULT_TIMERS, makeSleep } from '../core/timers';

/** USD per million input tokens (OpenAI's list prices; embeddings have no output tokens). */
const EMBEDDING_PRICES: Readonly<Record<string, number>> = {
  'text-embedding-3-small': 0.02,
  'text-embedding-3-large': 0.13,
  'text-embedding-ada-002': 0.1,
};

/** Price per million tokens: a user override (its `input`), then the table; null when unknown. */
export function embeddingPrice(model: string, overrides: PriceOverrides = {}): number | null {
  const exact = overrides[model];
  if (exact) return exact.input;
  const name = model.toLowerCase();
  return longestSubstringMatch(name, lowerKeys(overrides))?.input ?? longestSubstringMatch(name, EMBEDDING_PRICES) ?? null;
}

export function embeddingCost(model: string, tokens: number, overrides: PriceOverrides = {}): number | null {
  const price = embeddingPrice(model, overrides);
  return price === null ? null : (tokens * price) / 1e6;
}

export const DEFAULT_EMBEDDING_BATCH = 64;
export const DEFAULT_EMBEDDING_TIMEOUT_MS = 60_000;

/** A fetch is required here (unlike chat): `fallbackFetch` (requestUrl, which CORS cannot block) when given, else `fetch`. */
export interface EmbedderDeps extends ProviderDeps {
  /** Texts per request (OpenAI accepts up to 2048; local servers prefer fewer). */
  readonly batchSize?: number;
  /** Ask for shorter vectors (text-embedding-3-* only). */
  readonly dimensions?: number;
  readonly priceOverrides?: PriceOverrides;
}

interface WireEmbedding {
  readonly index?: unknown;
  readonly embedding?: unknown;
}

/** An HTTP error in the shape classify.ts reads (status, headers, parsed body under `error`). */
class EmbeddingHttpError extends Error {
  constructor(
    readonly status: number,
    readonly headers: Headers,
    readonly error: unknown,
  ) {
    super(`HTTP ${status}`);
    this.name = 'EmbeddingHttpError';
  }
}

function decodeVector(value: unknown): Float32Array | undefined {
  if (Array.isArray(value) && value.every((v): v is number => typeof v === 'number')) return Float32Array.from(value);
  if (typeof value === 'string') {
    // A server that ignored encoding_format=float and sent base64 little-endian float32.
    const binary = atob(value);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
    return new Float32Array(bytes.buffer, 0, Math.floor(bytes.length / 4));
  }
  return undefined;
}

export function createEmbedder(config: ProviderConfig, deps: EmbedderDeps): Embedder {
  const now = deps.now ?? (() => Date.now());
  const timers = deps.timers ?? DEFAULT_TIMERS;
  const sleep = deps.sleep ?? makeSleep(timers);
  const policy = { ...DEFAULT_RETRY_POLICY, ...deps.retry };
  const timeoutMs = deps.timeoutMs ?? DEFAULT_EMBEDDING_TIMEOUT_MS;
  const batchSize = Math.max(1, Math.floor(deps.batchSize ?? DEFAULT_EMBEDDING_BATCH));
  const baseUrl = trimTrailingSlashes(config.baseUrl ?? OPENAI_BASE_URL);
  // Embedding calls never stream, so the fetch CORS cannot block (requestUrl in Obsidian) is the right one.
  const given = deps.fallbackFetch ?? deps.fetch;
  if (!given) throw new Error('createEmbedder needs a fetch: requestUrlFetch(requestUrl) in Obsidian, the global fetch in Node');
  const fetchFn: typeof fetch = given;
  const context = (apiKey: string | undefined, extra: Partial<FailureContext> = {}): FailureContext => ({
    kind: config.kind,
    providerId: config.id,
    providerName: config.name,
    baseUrl: config.baseUrl,
    secrets: [apiKey],
    now,
    userAborted: false,
    timedOut: false,
    timeoutMs,
    resumedSession: false,
    ...extra,
  });

  async function apiKeyOf(): Promise<string | undefined> {
    const key = config.secretId ? await deps.getSecret(config.secretId) : null;
    if (key) return key;
    if (KEY_REQUIRED.has(config.kind)) throw buildError({ kind: 'auth', reason: 'no-key' }, context(undefined), 1);
    return undefined;
  }

  /** One HTTP request for one batch; throws ProviderError. */
  async function request(texts: readonly string[], apiKey: string | undefined, signal: AbortSignal | undefined): Promise<{ vectors: Float32Array[]; tokens: number | undefined }> {
    const controller = new AbortController();
    let timedOut = false;
    const timer = timers.setTimeout(() => {
      timedOut = true;
      controller.abort(new DOMException('The embedding request timed out.', 'TimeoutError'));
    }, timeoutMs);
    const onAbort = (): void => controller.abort(signal?.reason);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await fetchFn(`${baseUrl}/embeddings`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}) },
        body: JSON.stringify({ model: config.model, input: texts, encoding_format: 'float', ...(deps.dimensions ? { dimensions: deps.dimensions } : {}) }),
        signal: controller.signal,
      });
      const text = await response.text();
      let body: unknown;
      try {
        body = JSON.parse(text);
      } catch {
        body = undefined;
      }
      if (!response.ok) throw new EmbeddingHttpError(response.status, response.headers, body ?? { message: text.slice(0, 300) });
      return parseBody(body, texts.length);
    } catch (error) {
      throw classifyError(error, context(apiKey, { userAborted: signal?.aborted ?? false, timedOut }));
    } finally {
      timers.clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  function parseBody(body: unknown, expected: number): { vectors: Float32Array[]; tokens: number | undefined } {
    const record = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
    const data = Array.isArray(record.data) ? (record.data as WireEmbedding[]) : [];
    const vectors: (Float32Array | undefined)[] = new Array<Float32Array | undefined>(expected);
    data.forEach((item, position) => {
      const index = typeof item.index === 'number' ? item.index : position;
      if (index >= 0 && index < expected) vectors[index] = decodeVector(item.embedding);
    });
    const dims = vectors[0]?.length ?? 0;
    if (vectors.some((v) => v === undefined || v.length !== dims || dims === 0)) {
      throw new ProviderError({
        kind: 'bad-request',
        providerId: config.id,
        message: `The embeddings from ${config.name ?? config.id} are malformed (expected ${expected} vectors of one length). Check that ${config.model} is an embedding model.`,
        advice: 'Choose an embedding model in the semantic search settings.',
        attempts: 1,
      });
    }
    const usage = record.usage && typeof record.usage === 'object' ? (record.usage as Record<string, unknown>) : {};
    const tokens = typeof usage.prompt_tokens === 'number' ? usage.prompt_tokens : undefined;
    return { vectors: vectors.filter((v): v is Float32Array => v !== undefined), tokens };
  }

  async function embedBatch(texts: readonly string[], apiKey: string | undefined, signal: AbortSignal | undefined): Promise<EmbeddingBatch> {
    let requests = 0;
    const result = await withRetries(
      () => {
        requests++;
        return request(texts, apiKey, signal);
      },
      { policy, sleep, signal, finalize: (error, attempts) => finalizeError(error, context(apiKey), attempts, policy.maxRetryAfterMs) },
    );
    // Some compatible servers report no usage: count with the model's tokenizer (never LangChain's getNumTokens).
    const tokens = result.tokens ?? texts.reduce((sum, text) => sum + tokenCounterFor(config.model).count(text), 0);
    return { vectors: result.vectors, tokens, costUsd: embeddingCost(config.model, tokens, deps.priceOverrides), requests };
  }

  return {
    model: config.model,
    async embed(texts, signal) {
      if (config.kind === 'anthropic' || config.kind === 'claude-code' || config.kind === 'codex' || config.kind === 'gemini') {
        throw buildError({ kind: 'unsupported', detail: 'It has no embeddings API: choose an OpenAI or OpenAI-compatible provider (Ollama works) for semantic search.' }, context(undefined), 1);
      }
      const apiKey = await apiKeyOf();
      const out: Float32Array[] = [];
      let tokens = 0;
      let cost: number | null = 0;
      let requests = 0;
      try {
        for (let start = 0; start < texts.length; start += batchSize) {
          const batch = await embedBatch(texts.slice(start, start + batchSize), apiKey, signal);
          out.push(...batch.vectors);
          tokens += batch.tokens;
          cost = cost === null || batch.costUsd === null ? null : cost + batch.costUsd;
          requests += batch.requests;
        }
      } catch (error) {
        // An abort during a retry wait arrives as the signal's reason.
        if (signal?.aborted) throw classifyError(error, context(apiKey, { userAborted: true }));
        throw error instanceof ProviderError ? error : classifyError(error, context(apiKey));
      }
      return { vectors: out, tokens, costUsd: cost, requests };
    },
  };
}

/** The embedder the settings ask for (see embeddingTarget in core/search/semanticSettings.ts). */
export function embedderForTarget(target: { readonly provider: ProviderSettings; readonly model: string; readonly batchSize: number }, deps: ProviderDeps): Embedder {
  return createEmbedder(providerConfigOf(target.provider, target.model), { ...deps, batchSize: target.batchSize });
}

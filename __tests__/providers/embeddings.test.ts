import type { ProviderServer } from '../../testing/providerServer';
import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { createEmbedder, embeddingCost, embeddingPrice, type EmbedderDeps } from '../../src/providers/embeddings';
import { ProviderError } from '../../src/providers/errors';
import { requestUrlFetch, type RequestUrlLike } from '../../src/providers/requestUrlFetch';
import type { ProviderConfig } from '../../src/core/ports/chatModel';
import { API_KEY, recordingSleep } from './helpers';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

// The embedding client against the local provider server's /v1/embeddings, over real HTTP.

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const TEXTS = Array.from({ length: 10 }, (_, i) => `Note ${i}: repairing the car, part ${i} of the series about automobiles.`);

function openai(model = 'text-embedding-3-small'): ProviderConfig {
  return { id: 'openai', kind: 'openai', model, baseUrl: `${server.url}/v1`, secretId: 'key' };
}

function deps(extra: Partial<EmbedderDeps> = {}): EmbedderDeps & { waits: number[] } {
  const { sleep, waits } = recordingSleep();
  return { getSecret: () => API_KEY, fetch, sleep, waits, ...extra };
}

function tokens(model: string, texts: readonly string[]): number {
  return texts.reduce((sum, text) => sum + tokenCounterFor(model).encode(text).length, 0);
}

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const outcome = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(ProviderError);
  expect((outcome as Error).message).not.toContain(API_KEY);
  return outcome as ProviderError;
}

test('batches: 10 texts at 4 a request make 3 requests, vectors in input order, usage and cost summed', async () => {
  const embedder = createEmbedder(openai(), deps({ batchSize: 4 }));
  const result = await embedder.embed(TEXTS);
  const bodies = server.requests.map((r) => r.body as { model: string; input: string[]; encoding_format: string });
  expect(bodies.map((b) => b.input.length)).toEqual([4, 4, 2]);
  expect(bodies.every((b) => b.model === 'text-embedding-3-small' && b.encoding_format === 'float')).toBe(true);
  expect(server.requests[0].headers.authorization).toBe('[redacted]');
  expect(result.vectors).toHaveLength(10);
  expect(result.vectors.every((v) => v instanceof Float32Array && v.length === 256)).toBe(true);
  // Order kept: the same text embedded alone gives the same vector.
  const alone = await embedder.embed([TEXTS[7]]);
  expect(Array.from(alone.vectors[0])).toEqual(Array.from(result.vectors[7]));
  expect(result.tokens).toBe(tokens('text-embedding-3-small', TEXTS));
  expect(result.requests).toBe(3);
  expect(result.costUsd).toBeCloseTo((result.tokens * 0.02) / 1e6, 12);
});

test('prices: text-embedding-3-small and -large listed, overrides win, unknown models unpriced', () => {
  expect(embeddingPrice('text-embedding-3-small')).toBe(0.02);
  expect(embeddingPrice('text-embedding-3-large')).toBe(0.13);
  expect(embeddingCost('text-embedding-3-large', 1_000_000)).toBeCloseTo(0.13, 12);
  expect(embeddingPrice('nomic-embed-text')).toBeNull();
  expect(embeddingPrice('nomic-embed-text', { 'nomic-embed-text': { input: 0, cachedInput: 0, output: 0 } })).toBe(0);
});

test('dimensions are asked for when set', async () => {
  const result = await createEmbedder(openai('text-embedding-3-large'), deps({ dimensions: 32 })).embed(['short vectors']);
  expect(server.requests[0].body.dimensions).toBe(32);
  expect(result.vectors[0]).toHaveLength(32);
  expect(result.costUsd).toBeCloseTo((result.tokens * 0.13) / 1e6, 12);
});

test('429 and 503 are retried with the project policy (retry-after honoured), and counted as requests', async () => {
  server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 3 });
  server.injectFault({ kind: 'status', status: 503 });
  const d = deps({ batchSize: 4 });
  const result = await createEmbedder(openai(), d).embed(TEXTS.slice(0, 4));
  expect(result.vectors).toHaveLength(4);
  expect(result.requests).toBe(3);
  expect(d.waits).toEqual([3000, 1000]);
  expect(server.requests).toHaveLength(3);
});

test('a fault that outlasts the attempts fails with the provider wording, attempts counted', async () => {
  server.injectFault({ kind: 'status', status: 500, times: 3 });
  const error = await failure(createEmbedder(openai(), deps()).embed(['x']));
  expect(error.kind).toBe('server');
  expect(error.attempts).toBe(3);
  expect(error.message).toMatch(/500 \(server error\) three times/);
});

test('401 is not retried; no key for OpenAI fails before any request', async () => {
  const keyed = await startKeyed();
  try {
    const error = await failure(createEmbedder({ ...openai(), baseUrl: `${keyed.url}/v1` }, deps({ getSecret: () => 'wrong' })).embed(['x']));
    expect(error.kind).toBe('auth');
    expect(keyed.requests).toHaveLength(1);
  } finally {
    await keyed.close();
  }
  const none = await failure(createEmbedder(openai(), deps({ getSecret: () => null })).embed(['x']));
  expect(none.kind).toBe('auth');
  expect(server.requests).toHaveLength(0);
});

async function startKeyed(): Promise<ProviderServer> {
  const { startProviderServer } = await import('../../testing/providerServer');
  return startProviderServer({ apiKey: 'right' });
}

test('Ollama-style: openai-compatible, keyless, base URL .../v1, a local model name (unpriced)', async () => {
  const config: ProviderConfig = { id: 'ollama', kind: 'openai-compatible', model: 'nomic-embed-text', baseUrl: `${server.url}/v1` };
  const result = await createEmbedder(config, deps({ getSecret: () => null })).embed(['hello there']);
  expect(result.vectors[0]).toHaveLength(256);
  expect(server.requests[0].headers.authorization).toBeUndefined();
  expect(result.tokens).toBeGreaterThan(0);
  expect(result.costUsd).toBeNull();
});

test('through requestUrlFetch (the Obsidian path) as the CORS-free fetch', async () => {
  const calls: string[] = [];
  const requestUrl: RequestUrlLike = async (params) => {
    calls.push(`${params.method} ${params.url}`);
    const response = await fetch(params.url, { method: params.method, headers: params.headers, body: params.body });
    const headers: Record<string, string> = {};
    response.headers.forEach((value, name) => (headers[name] = value));
    return { status: response.status, headers, text: await response.text() };
  };
  const embedder = createEmbedder(openai(), deps({ fallbackFetch: requestUrlFetch(requestUrl) }));
  const result = await embedder.embed(['via requestUrl']);
  expect(calls).toEqual([`POST ${server.url}/v1/embeddings`]);
  expect(result.vectors[0]).toHaveLength(256);
});

test('abortable: aborting during a hanging request fails at once as aborted', async () => {
  const controller = new AbortController();
  server.injectFault({ kind: 'hang' });
  const pending = createEmbedder(openai(), deps()).embed(['a', 'b'], controller.signal);
  await waitFor(() => server.requests.length === 1);
  controller.abort();
  const error = await failure(pending);
  expect(error.kind).toBe('aborted');
});

test('a server that never answers times out; the timeout is retried like a chat call', async () => {
  server.injectFault({ kind: 'hang', times: 2 });
  const d = deps({ timeoutMs: 100 });
  const result = await createEmbedder(openai(), d).embed(['slow']);
  expect(result.requests).toBe(3);
  expect(d.waits).toHaveLength(2);
  server.injectFault({ kind: 'hang', times: 3 });
  const error = await failure(createEmbedder(openai(), deps({ timeoutMs: 100 })).embed(['slow']));
  expect(error.kind).toBe('timeout');
  expect(error.attempts).toBe(3);
});

test('anthropic has no embeddings: a plain unsupported error, no request', async () => {
  const error = await failure(createEmbedder({ id: 'anthropic', kind: 'anthropic', model: 'claude-x', baseUrl: server.url }, deps()).embed(['x']));
  expect(error.kind).toBe('unsupported');
  expect(error.message).toMatch(/no embeddings API/);
  expect(server.requests).toHaveLength(0);
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 5));
}

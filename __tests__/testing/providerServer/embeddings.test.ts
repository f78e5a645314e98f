import type { ProviderServer } from '../../../testing/providerServer';
import { deterministicEmbedding } from '../../../testing/providerServer/embeddingVector';
import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import { useProviderServer } from '../../helpers/providerServer';

// POST /v1/embeddings on the local provider server, over real HTTP.

let server: ProviderServer;
useProviderServer((s) => (server = s));

interface EmbeddingsReply {
  object: string;
  model: string;
  data: { object: string; index: number; embedding: number[] | string }[];
  usage: { prompt_tokens: number; total_tokens: number };
  error: { param?: string };
}

async function post(path: string, body: unknown): Promise<{ status: number; json: EmbeddingsReply; vector: (i: number) => number[] }> {
  const response = await fetch(`${server.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await response.json()) as EmbeddingsReply;
  return { status: response.status, json, vector: (i) => json.data[i].embedding as number[] };
}

function cosine(a: readonly number[], b: readonly number[]): number {
  return a.reduce((sum, value, i) => sum + value * b[i], 0);
}

test('OpenAI shape: one unit vector per input, in order, usage counted with the tokenizer', async () => {
  const input = ['Repairing the old car before winter', 'A recipe for sourdough bread'];
  const { status, json, vector } = await post('/v1/embeddings', { model: 'text-embedding-3-small', input, encoding_format: 'float' });
  expect(status).toBe(200);
  expect(json.object).toBe('list');
  expect(json.model).toBe('text-embedding-3-small');
  expect(json.data.map((d) => [d.object, d.index])).toEqual([
    ['embedding', 0],
    ['embedding', 1],
  ]);
  for (const i of [0, 1]) {
    expect(vector(i)).toHaveLength(256);
    expect(cosine(vector(i), vector(i))).toBeCloseTo(1, 5);
  }
  const expected = input.reduce((sum, text) => sum + tokenCounterFor('text-embedding-3-small').encode(text).length, 0);
  expect(json.usage).toEqual({ prompt_tokens: expected, total_tokens: expected });
  expect(server.requests.map((r) => r.api)).toEqual(['openai-embeddings']);
});

test('deterministic, a single string works, and the path without /v1 too (Ollama and OpenAI base URLs)', async () => {
  const a = await post('/v1/embeddings', { model: 'nomic-embed-text', input: 'fixing the automobile' });
  const b = await post('/embeddings', { model: 'nomic-embed-text', input: ['fixing the automobile'] });
  expect(a.vector(0)).toEqual(b.vector(0));
  expect(a.vector(0)).toEqual(deterministicEmbedding('fixing the automobile').map((v): unknown => expect.closeTo(v, 12)));
});

test('similar texts are near, unrelated ones are not: paraphrases through the thesaurus, word forms through trigrams', () => {
  const query = deterministicEmbedding('how do I fix my car');
  const paraphrase = deterministicEmbedding('Repairing an automobile at home');
  const unrelated = deterministicEmbedding('Planting tulips in autumn');
  expect(cosine(query, paraphrase)).toBeGreaterThan(0.3);
  expect(cosine(query, paraphrase)).toBeGreaterThan(cosine(query, unrelated) + 0.25);
  expect(cosine(deterministicEmbedding('photograph'), deterministicEmbedding('photographic'))).toBeGreaterThan(0.5);
  expect(deterministicEmbedding('the of and').every((v) => v === 0)).toBe(true);
});

test('dimensions and base64 encoding as OpenAI does them', async () => {
  const floats = await post('/v1/embeddings', { model: 'text-embedding-3-large', input: 'vector', dimensions: 64 });
  expect(floats.vector(0)).toHaveLength(64);
  const b64 = await post('/v1/embeddings', { model: 'text-embedding-3-large', input: 'vector', dimensions: 64, encoding_format: 'base64' });
  const bytes = Buffer.from(b64.json.data[0].embedding as string, 'base64');
  const decoded = Array.from({ length: 64 }, (_, i) => bytes.readFloatLE(i * 4));
  decoded.forEach((v, i) => expect(v).toBeCloseTo(floats.vector(0)[i], 6));
});

test('bad requests get OpenAI 400 errors', async () => {
  expect((await post('/v1/embeddings', { input: 'x' })).status).toBe(400);
  const empty = await post('/v1/embeddings', { model: 'm', input: [] });
  expect(empty.status).toBe(400);
  expect(empty.json.error.param).toBe('input');
  expect((await post('/v1/embeddings', { model: 'm', input: 'x', dimensions: 0 })).status).toBe(400);
  expect((await post('/v1/embeddings', { model: 'm', input: 'x', encoding_format: 'int8' })).status).toBe(400);
});

test('injected faults apply to embedding requests', async () => {
  server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 2 });
  server.injectFault({ kind: 'status', status: 503 });
  const first = await fetch(`${server.url}/v1/embeddings`, { method: 'POST', body: JSON.stringify({ model: 'm', input: 'x' }) });
  expect(first.status).toBe(429);
  expect(first.headers.get('retry-after')).toBe('2');
  expect((await post('/v1/embeddings', { model: 'm', input: 'x' })).status).toBe(503);
  expect((await post('/v1/embeddings', { model: 'm', input: 'x' })).status).toBe(200);
});

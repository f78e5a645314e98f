import type { ProviderServer } from '../../src/node/providerServer';
import { formatSpend } from '../../src/core/search/embedder';
import { HybridSearch, reciprocalRankFusion } from '../../src/core/search/hybrid';
import type { SearchHit, VaultSearch } from '../../src/core/search/types';
import { VectorStore } from '../../src/core/search/vectors';
import { createEmbedder } from '../../src/providers/embeddings';
import type { ProviderConfig } from '../../src/core/ports/chatModel';
import { recordingSleep, useLocalServer } from '../providers/helpers';
import { exactWordSearch, fixtureChunks, LITERAL, PARAPHRASES } from './hybridFixture';

// Hybrid search: an exact-word lexical stand-in fused with embeddings from the local provider
// server over real HTTP.

let server: ProviderServer;
useLocalServer((s) => (server = s));

const MODEL = 'text-embedding-3-small';

function embedder(model = MODEL, batchSize = 4) {
  const config: ProviderConfig = { id: 'openai', kind: 'openai', model, baseUrl: `${server.url}/v1`, secretId: 'key' };
  return createEmbedder(config, { getSecret: () => 'sk-test', fetch, sleep: recordingSleep().sleep, batchSize });
}

const embeddingRequests = (): number => server.requests.filter((r) => r.api === 'openai-embeddings').length;

async function hybridOver(lexical: VaultSearch = exactWordSearch(fixtureChunks()), errors: unknown[] = []): Promise<HybridSearch> {
  const e = embedder();
  const hybrid = new HybridSearch({ lexical, embedder: e, store: new VectorStore(e.model), batchSize: 4, onSemanticError: (error) => errors.push(error) });
  await hybrid.embedChunks(fixtureChunks());
  server.reset();
  return hybrid;
}

function rankOf(hits: readonly SearchHit[], path: string): number {
  return hits.findIndex((h) => h.path === path) + 1;
}

describe('reciprocal rank fusion', () => {
  test('sums 1/(k + rank) over the lists: found by both beats first in one', () => {
    const fused = reciprocalRankFusion([{ items: ['a', 'b', 'c'] }, { items: ['c', 'd', 'b'] }], (x) => x);
    expect(fused.map((f) => f.key)).toEqual(['c', 'b', 'a', 'd']);
    expect(fused[0].score).toBeCloseTo(1 / 63 + 1 / 61, 12);
    expect(fused[1].score).toBeCloseTo(1 / 62 + 1 / 63, 12);
    expect(fused[2].score).toBeCloseTo(1 / 61, 12);
  });

  test('ties go to the earlier first appearance (list order, then rank); k and weights change the balance', () => {
    expect(reciprocalRankFusion([{ items: ['a', 'b'] }, { items: ['x', 'y'] }], (s) => s).map((f) => f.key)).toEqual(['a', 'x', 'b', 'y']);
    expect(reciprocalRankFusion([{ items: ['x', 'y'] }, { items: ['a', 'b'] }], (s) => s).map((f) => f.key)).toEqual(['x', 'a', 'y', 'b']);
    expect(reciprocalRankFusion([{ items: ['a', 'b'] }, { items: ['x', 'y'], weight: 2 }], (s) => s).map((f) => f.key)).toEqual(['x', 'y', 'a', 'b']);
    // With a small k the first rank dominates: a single first place beats two third places.
    const lists = [{ items: ['a', 'q', 'c'] }, { items: ['b', 'r', 'c'] }, { items: ['a', 's', 't'] }];
    expect(reciprocalRankFusion(lists, (s) => s, 1)[0].key).toBe('a');
    expect(reciprocalRankFusion([{ items: ['a', 'q', 'c'] }, { items: ['b', 'r', 'c'] }], (s) => s, 1)[0].key).toBe('a');
    expect(reciprocalRankFusion([{ items: ['a', 'q', 'c'] }, { items: ['b', 'r', 'c'] }], (s) => s, 60)[0].key).toBe('c');
  });
});

describe('hybrid search over the fixture vault', () => {
  test('paraphrases the lexical side misses are found; literal questions stay found (recall@3)', async () => {
    const lexical = exactWordSearch(fixtureChunks());
    const hybrid = await hybridOver(lexical);
    let lexicalHits = 0;
    let hybridHits = 0;
    for (const [query, path] of [...PARAPHRASES, ...LITERAL]) {
      const lexicalRank = rankOf(await lexical.search(query, { k: 3 }), path);
      const hybridRank = rankOf(await hybrid.search(query, { k: 3 }), path);
      if (lexicalRank > 0) lexicalHits++;
      if (hybridRank > 0) hybridHits++;
      if (PARAPHRASES.some(([q]) => q === query)) expect([query, lexicalRank]).toEqual([query, 0]);
      expect([query, hybridRank > 0]).toEqual([query, true]);
    }
    expect(lexicalHits).toBe(LITERAL.length);
    expect(hybridHits).toBe(PARAPHRASES.length + LITERAL.length);
  });

  test('hits are whole SearchHits: lexical ones keep their snippet, vector-only ones are filled from the chunk; scores are the fused ones', async () => {
    const hybrid = await hybridOver();
    const hits = await hybrid.search('fix broken automobile', { k: 5 });
    const window = hits.find((h) => h.path === 'Home/Broken window.md') as SearchHit;
    expect(window.snippet).toMatch(/^lexical: /);
    const car = hits.find((h) => h.path === 'Garage/Car maintenance.md') as SearchHit;
    expect(car).toMatchObject({ heading: 'Brakes', headings: ['Brakes'], startLine: 3, endLine: 4 });
    expect(car.snippet).toMatch(/^Replaced the brake pads/);
    expect(hits.every((h, i) => i === 0 || h.score <= hits[i - 1].score)).toBe(true);
    expect(hits[0].score).toBeLessThanOrEqual(2 / 61);
    // Deterministic: the same search gives the same list.
    expect(await hybrid.search('fix broken automobile', { k: 5 })).toEqual(hits);
  });

  test('perNote and k limit the list', async () => {
    const hybrid = await hybridOver();
    const all = await hybrid.search('car tyres brakes', { k: 10 });
    expect(all.filter((h) => h.path === 'Garage/Car maintenance.md')).toHaveLength(2);
    const one = await hybrid.search('car tyres brakes', { k: 10, perNote: 1 });
    expect(one.filter((h) => h.path === 'Garage/Car maintenance.md')).toHaveLength(1);
    expect(await hybrid.search('car tyres brakes', { k: 2 })).toHaveLength(2);
  });
});

describe('embedding only what changed, and what it costs', () => {
  test('embedChunks embeds new hashes only; a changed chunk is re-embedded; prune drops deleted chunks', async () => {
    const e = embedder();
    const store = new VectorStore(e.model);
    const hybrid = new HybridSearch({ lexical: exactWordSearch([]), embedder: e, store, batchSize: 4 });
    const chunks = fixtureChunks();
    const first = await hybrid.embedChunks(chunks);
    expect(first).toMatchObject({ embedded: 9, reused: 0, removed: 0 });
    expect(embeddingRequests()).toBe(3);
    expect(server.requests.map((r) => (r.body as { input: string[] }).input.length)).toEqual([4, 4, 1]);
    expect(first.spend.tokens).toBeGreaterThan(50);
    expect(first.spend.requests).toBe(3);
    expect(first.spend.usd).toBeCloseTo((first.spend.tokens * 0.02) / 1e6, 12);

    server.reset();
    expect(await hybrid.embedChunks(chunks)).toMatchObject({ embedded: 0, reused: 9 });
    expect(embeddingRequests()).toBe(0);

    const changed = chunks.map((c, i) => (i === 2 ? { ...c, text: `${c.text} Dentist in June.`, hash: 'changed' } : c));
    expect(await hybrid.embedChunks(changed.slice(0, 8), { prune: true })).toMatchObject({ embedded: 1, reused: 7, removed: 1 });
    expect(server.requests.map((r) => (r.body as { input: string[] }).input)).toEqual([[expect.stringContaining('Dentist in June.')]]);
    expect(store.size).toBe(8);
    expect(hybrid.spend.requests).toBe(4);
    expect(formatSpend(hybrid.spend)).toBe(`${hybrid.spend.tokens.toLocaleString('en-US')} embedding tokens, <$0.0001`);
    expect(formatSpend({ tokens: 2_000_000, usd: 0.04, requests: 40, unpricedBatches: 0 })).toBe('2,000,000 embedding tokens, $0.0400');
    expect(formatSpend({ tokens: 5000, usd: 0, requests: 2, unpricedBatches: 2 })).toBe('5,000 embedding tokens, unknown price (free on a local model)');
  });

  test('a saved store is reused after a restart; a model change re-embeds everything', async () => {
    const e = embedder();
    const store = new VectorStore(e.model);
    await new HybridSearch({ lexical: exactWordSearch([]), embedder: e, store }).embedChunks(fixtureChunks());
    const saved = JSON.parse(JSON.stringify(store)) as unknown;
    server.reset();

    const again = new HybridSearch({ lexical: exactWordSearch([]), embedder: e, store: VectorStore.restore(saved, e.model) });
    expect(await again.embedChunks(fixtureChunks())).toMatchObject({ embedded: 0, reused: 9 });
    expect(embeddingRequests()).toBe(0);

    const large = embedder('text-embedding-3-large');
    const switched = new HybridSearch({ lexical: exactWordSearch([]), embedder: large, store: VectorStore.restore(saved, large.model) });
    const report = await switched.embedChunks(fixtureChunks());
    expect(report).toMatchObject({ embedded: 9, reused: 0 });
    expect(server.requests.every((r) => (r.body as { model: string }).model === 'text-embedding-3-large')).toBe(true);
    expect(report.spend.usd).toBeCloseTo((report.spend.tokens * 0.13) / 1e6, 12);
    // A store of one model cannot be searched with another model's query vectors.
    expect(() => new HybridSearch({ lexical: exactWordSearch([]), embedder: large, store: VectorStore.restore(saved, e.model) })).toThrow(/text-embedding-3-small/);
  });

  test('a query is embedded once (cached by its text) and its cost counted', async () => {
    const hybrid = await hybridOver();
    const before = hybrid.spend;
    await hybrid.search('trip to Portugal');
    await hybrid.search('trip to Portugal');
    await hybrid.search('buy a cheap computer');
    expect(server.requests.map((r) => (r.body as { input: string[] }).input)).toEqual([['trip to Portugal'], ['buy a cheap computer']]);
    expect(hybrid.spend.requests - before.requests).toBe(2);
    expect(hybrid.spend.tokens).toBeGreaterThan(before.tokens);
  });

  test('when the embedding provider fails, the search answers with the lexical ranking and says so', async () => {
    const errors: unknown[] = [];
    const lexical = exactWordSearch(fixtureChunks());
    const hybrid = await hybridOver(lexical, errors);
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    const hits = await hybrid.search('kitchen window glass', { k: 3 });
    expect(hits.map((h) => h.path)).toEqual((await lexical.search('kitchen window glass', { k: 3 })).map((h) => h.path));
    expect(errors).toHaveLength(1);
    expect(String((errors[0] as Error).message)).toMatch(/500/);
    // A failed query is not cached: the next search asks again.
    await hybrid.search('kitchen window glass', { k: 3 });
    expect(embeddingRequests()).toBe(4);
  });

  test('a 429 during indexing is retried and the batch completes', async () => {
    const e = embedder(MODEL, 9);
    const hybrid = new HybridSearch({ lexical: exactWordSearch([]), embedder: e, store: new VectorStore(e.model), batchSize: 9 });
    server.injectFault({ kind: 'status', status: 429 });
    const report = await hybrid.embedChunks(fixtureChunks());
    expect(report.embedded).toBe(9);
    expect(report.spend.requests).toBe(2);
  });

  test('an abort stops indexing between batches, keeping the batches already embedded', async () => {
    const e = embedder();
    const store = new VectorStore(e.model);
    const controller = new AbortController();
    // The user stops right after the first batch arrives.
    const stopsAfterOne = {
      model: e.model,
      embed: async (texts: readonly string[], signal?: AbortSignal) => {
        const result = await e.embed(texts, signal);
        controller.abort();
        return result;
      },
    };
    const hybrid = new HybridSearch({ lexical: exactWordSearch([]), embedder: stopsAfterOne, store, batchSize: 4 });
    await expect(hybrid.embedChunks(fixtureChunks(), { signal: controller.signal })).rejects.toThrow();
    expect(store.size).toBe(4);
    expect(embeddingRequests()).toBe(1);
  });
});

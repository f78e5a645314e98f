import type { ProviderServer } from '../../../testing/providerServer';
import { formatSpend, type Embedder } from '../../../src/core/search/embedder';
import { reciprocalRankFusion } from '../../../src/core/search/fusion';
import { ChunkVectors } from '../../../src/core/search/semantic';
import type { SearchHit } from '../../../src/core/search/types';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { createEmbedder } from '../../../src/providers/embeddings';
import type { ProviderConfig } from '../../../src/core/ports/chatModel';
import { recordingSleep } from '../../providers/helpers';
import { MemoryVault } from './memoryVault';
import { LITERAL, NOTES, PARAPHRASES } from './semanticFixture';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

// Semantic search: the real vault index fused with embeddings from the local provider server over
// real HTTP (its deterministic embedding has a small thesaurus, so paraphrases land near).

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const MODEL = 'text-embedding-3-small';

function embedder(model = MODEL): Embedder {
  const config: ProviderConfig = { id: 'openai', kind: 'openai', model, baseUrl: `${server.url}/v1`, secretId: 'key' };
  return createEmbedder(config, { getSecret: () => 'sk-test', fetch, sleep: recordingSleep().sleep });
}

const embeddingRequests = (): number => server.requests.filter((r) => r.api === 'openai-embeddings').length;
const inputs = (): string[][] => server.requests.filter((r) => r.api === 'openai-embeddings').map((r) => (r.body as { input: string[] }).input);

async function indexed(vault = new MemoryVault(NOTES)): Promise<{ vault: MemoryVault; index: VaultIndex; vectors: ChunkVectors }> {
  const index = await VaultIndex.create(vault);
  const vectors = ChunkVectors.create(embedder());
  await vectors.sync(index, { batchSize: 4 });
  index.setSemantic(vectors);
  server.reset();
  return { vault, index, vectors };
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
    expect(reciprocalRankFusion([{ items: ['a', 'q', 'c'] }, { items: ['b', 'r', 'c'] }], (s) => s, 1)[0].key).toBe('a');
    expect(reciprocalRankFusion([{ items: ['a', 'q', 'c'] }, { items: ['b', 'r', 'c'] }], (s) => s, 60)[0].key).toBe('c');
  });
});

describe('semantic search fused into the vault index', () => {
  test('paraphrases the lexical index misses are found; literal questions stay found (top 3)', async () => {
    const lexical = await VaultIndex.create(new MemoryVault(NOTES));
    const { index } = await indexed();
    for (const [query, path] of PARAPHRASES) {
      expect([query, rankOf(await lexical.search(query, { k: 3, perNote: 1 }), path)]).toEqual([query, 0]);
      expect([query, rankOf(await index.search(query, { k: 3, perNote: 1 }), path) > 0]).toEqual([query, true]);
    }
    for (const [query, path] of LITERAL) {
      expect([query, rankOf(await lexical.search(query, { k: 3, perNote: 1 }), path)]).toEqual([query, 1]);
      expect([query, rankOf(await index.search(query, { k: 3, perNote: 1 }), path)]).toEqual([query, 1]);
    }
  });

  test('hits are whole SearchHits read from the note, fused scores in order, deterministic', async () => {
    const { index } = await indexed();
    const hits = await index.search('fix automobile', { k: 5 });
    const car = hits.find((h) => h.path === 'Garage/Car maintenance.md') as SearchHit;
    expect(car).toMatchObject({ heading: 'Brakes', headings: ['Car maintenance', 'Brakes'], startLine: 3 });
    expect(car.text).toMatch(/^## Brakes\n\nReplaced the brake pads/);
    expect(car.snippet).toMatch(/^Replaced the brake pads/);
    expect(hits.every((h, i) => i === 0 || h.score <= hits[i - 1].score)).toBe(true);
    expect(hits[0].score).toBeLessThanOrEqual(2 / 61);
    expect(await index.search('fix automobile', { k: 5 })).toEqual(hits);
  });

  test('perNote and k limit the fused list', async () => {
    const { index } = await indexed();
    const all = await index.search('car tyres brakes', { k: 10 });
    expect(all.filter((h) => h.path === 'Garage/Car maintenance.md')).toHaveLength(2);
    expect((await index.search('car tyres brakes', { k: 10, perNote: 1 })).filter((h) => h.path === 'Garage/Car maintenance.md')).toHaveLength(1);
    expect(await index.search('car tyres brakes', { k: 2 })).toHaveLength(2);
  });
});

describe('embedding only what changed, and what it costs', () => {
  test('sync embeds every chunk once; an edit re-embeds only the changed section; a moved note reuses its vectors; deleted chunks are dropped', async () => {
    const vault = new MemoryVault(NOTES);
    const index = await VaultIndex.create(vault);
    const vectors = ChunkVectors.create(embedder());
    const first = await vectors.sync(index, { batchSize: 4 });
    expect(first).toMatchObject({ embedded: 9, current: 0, reused: 0, removed: 0 });
    expect(inputs().map((batch) => batch.length)).toEqual([4, 4, 1]);
    expect(inputs().flat()).toContain('Car maintenance > Car maintenance > Tyres\n\n## Tyres\n\nWinter tyres go on in November. Pressure 2.4 bar front, 2.2 bar rear.');
    expect(first.spend.requests).toBe(3);
    expect(first.spend.usd).toBeCloseTo((first.spend.tokens * 0.02) / 1e6, 12);

    server.reset();
    expect(await vectors.sync(index)).toMatchObject({ embedded: 0, current: 9 });
    expect(embeddingRequests()).toBe(0);

    // An edit to one section: the other section of that note keeps its vector (same text, new chunk id).
    const car = NOTES['Garage/Car maintenance.md'].replace('2.2 bar rear.', '2.2 bar rear. Summer tyres in April.');
    const lisbon = NOTES['Travel/Lisbon.md'].replace('Journey', 'Lisbon');
    vault.write('Garage/Car maintenance.md', car);
    index.upsert('Garage/Car maintenance.md', car);
    index.remove('Cooking/Bread.md');
    vault.write('Trips/Lisbon.md', lisbon);
    index.upsert('Trips/Lisbon.md', lisbon);
    index.remove('Travel/Lisbon.md');
    const second = await vectors.sync(index);
    expect(second).toMatchObject({ embedded: 2, reused: 1, removed: 4 });
    expect(inputs()).toEqual([[expect.stringContaining('Summer tyres in April.'), expect.stringContaining('Lisbon > Lisbon')]]);
    expect(vectors.size).toBe(index.chunkCount);
    expect(vectors.status).toMatchObject({ embedded: 8, chunks: 8, error: null });
    expect(formatSpend(vectors.status.spend)).toBe(`${vectors.status.spend.tokens.toLocaleString('en-US')} embedding tokens, <$0.0001`);
    expect(formatSpend({ tokens: 2_000_000, usd: 0.04, requests: 40, unpricedBatches: 0 })).toBe('2,000,000 embedding tokens, $0.0400');
  });

  test('saved vectors are reused after a restart with the index; a model change re-embeds everything', async () => {
    const { index, vectors } = await indexed();
    const savedIndex = await index.serialize();
    const saved = JSON.parse(JSON.stringify(vectors)) as unknown;

    const again = new VaultIndex(new MemoryVault(NOTES));
    expect(again.restore(savedIndex)).toBe(true);
    const restored = ChunkVectors.restore(saved, embedder());
    expect(await restored.sync(again)).toMatchObject({ embedded: 0, current: 9 });
    expect(embeddingRequests()).toBe(0);
    expect(restored.status.spend).toEqual(vectors.status.spend);

    const switched = ChunkVectors.restore(saved, embedder('text-embedding-3-large'));
    const report = await switched.sync(again);
    expect(report).toMatchObject({ embedded: 9, current: 0 });
    expect(server.requests.every((r) => (r.body as { model: string }).model === 'text-embedding-3-large')).toBe(true);
    expect(report.spend.usd).toBeCloseTo((report.spend.tokens * 0.13) / 1e6, 12);
    expect(ChunkVectors.restore({ version: 99 }, embedder()).size).toBe(0);
    expect(ChunkVectors.restore('garbage', embedder()).size).toBe(0);
  });

  test('a query is embedded once (cached by its text) and its cost counted', async () => {
    const { index, vectors } = await indexed();
    const before = vectors.status.spend;
    await index.search('trip to Portugal');
    await index.search('trip to Portugal');
    await index.search('buy a cheap computer');
    expect(inputs()).toEqual([['trip to Portugal'], ['buy a cheap computer']]);
    expect(vectors.status.spend.requests - before.requests).toBe(2);
    expect(vectors.status.spend.tokens).toBeGreaterThan(before.tokens);
  });

  test('when the embedding provider fails, the search answers lexically and the status says why', async () => {
    const lexical = await VaultIndex.create(new MemoryVault(NOTES));
    const { index, vectors } = await indexed();
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    const hits = await index.search('kitchen window glass', { k: 3 });
    expect(hits.map((h) => h.path)).toEqual((await lexical.search('kitchen window glass', { k: 3 })).map((h) => h.path));
    expect(vectors.status.error).toMatch(/500/);
    // A failed query is not cached: the next search asks again, and a success clears the error.
    await index.search('kitchen window glass', { k: 3 });
    expect(embeddingRequests()).toBe(4);
    expect(vectors.status.error).toBeNull();
  });

  test('a 429 during indexing is retried and the batch completes', async () => {
    const index = await VaultIndex.create(new MemoryVault(NOTES));
    const vectors = ChunkVectors.create(embedder());
    server.injectFault({ kind: 'status', status: 429 });
    const report = await vectors.sync(index, { batchSize: 9 });
    expect(report.embedded).toBe(9);
    expect(report.spend.requests).toBe(2);
  });

  test('a failed sync keeps the batches already embedded and names the error; the next sync finishes the rest', async () => {
    const index = await VaultIndex.create(new MemoryVault(NOTES));
    const vectors = ChunkVectors.create(embedder());
    const base = embedder();
    let calls = 0;
    const failsSecond: Embedder = {
      model: base.model,
      embed: (texts, signal) => (++calls === 2 ? Promise.reject(new Error('unreachable')) : base.embed(texts, signal)),
    };
    const flaky = ChunkVectors.restore(JSON.parse(JSON.stringify(vectors)), failsSecond);
    await expect(flaky.sync(index, { batchSize: 4 })).rejects.toThrow('unreachable');
    expect(flaky.size).toBe(4);
    expect(flaky.status.error).toBe('unreachable');
    expect(await flaky.sync(index, { batchSize: 4 })).toMatchObject({ embedded: 5, current: 4 });
    expect(flaky.status.error).toBeNull();
  });

  test('an abort stops indexing between batches, keeping the batches already embedded', async () => {
    const index = await VaultIndex.create(new MemoryVault(NOTES));
    const base = embedder();
    const controller = new AbortController();
    const stopsAfterOne: Embedder = {
      model: base.model,
      embed: async (texts, signal) => {
        const result = await base.embed(texts, signal);
        controller.abort();
        return result;
      },
    };
    const vectors = ChunkVectors.create(stopsAfterOne);
    await expect(vectors.sync(index, { batchSize: 4, signal: controller.signal })).rejects.toThrow();
    expect(vectors.size).toBe(4);
    expect(embeddingRequests()).toBe(1);
    expect(vectors.status.error).toBeNull();
  });

  test('a chunk re-indexed while its batch was out is not stored; the next sync embeds its new text', async () => {
    const vault = new MemoryVault(NOTES);
    const index = await VaultIndex.create(vault);
    const base = embedder();
    const editsDuring: Embedder = {
      model: base.model,
      embed: async (texts, signal) => {
        const result = await base.embed(texts, signal);
        if (texts.some((t) => t.includes('tulip'))) {
          vault.write('Garden/Tulips.md', '# Planting\n\nPlant daffodils instead.\n');
          index.upsert('Garden/Tulips.md', '# Planting\n\nPlant daffodils instead.\n');
        }
        return result;
      },
    };
    const vectors = ChunkVectors.create(editsDuring);
    await vectors.sync(index, { batchSize: 100 });
    expect(vectors.size).toBe(8);
    server.reset();
    expect(await vectors.sync(index)).toMatchObject({ embedded: 1 });
    expect(inputs()).toEqual([[expect.stringContaining('daffodils')]]);
  });
});

test("the first section's embedding carries the note's aliases, tags and properties; the others do not", async () => {
  const note = '---\naliases: [Parasite film]\ntags: [cinema]\ndirector: Bong Joon-ho\nyear: 2019\n---\n# Plot\n\nA poor family works its way into a rich household.\n\n# Music\n\nThe score is by Jung Jae-il.\n';
  const index = await VaultIndex.create(new MemoryVault({ 'Films/Parasite.md': note }));
  const inputs = await index.embeddingInputs(index.embeddingTargets().map((t) => t.id));
  expect(inputs.map((i) => i.text)).toEqual([
    'Parasite > Plot\n\nParasite film\n#cinema\ndirector Bong Joon-ho\nyear 2019\n\n# Plot\n\nA poor family works its way into a rich household.',
    'Parasite > Music\n\n# Music\n\nThe score is by Jung Jae-il.',
  ]);
});

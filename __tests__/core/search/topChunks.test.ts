import fc from 'fast-check';
import { DEFAULT_RANKING, rankChunks, type Ranking } from '../../../src/core/search/chunkRanking';
import { meanLogChunks } from '../../../src/core/search/noteEvidence';
import { makeHits, pickHits } from '../../../src/core/search/searchHits';
import type { TermIndex, TermQuery } from '../../../src/core/search/termIndex';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { MemoryVault } from './memoryVault';

/**
 * The query path (topChunks.ts over the term index's typed matches) against the formula as
 * written (rankChunks over MiniSearch-shaped results, every match ranked): over random vaults,
 * edits, queries, k, per-note limits and ranking knobs, the hits are the same, scores to the bit.
 */

const noPause = (): Promise<void> => Promise.resolve();
// Few words, so notes share terms and scores tie; stems that meet, prefixes and one-typo pairs.
const WORDS = ['greenhouse', 'greenhouses', 'vents', 'venting', 'tomato', 'tomatoes', 'compost', 'composting', 'sourdough', 'starter', 'started', 'hydration', 'frost', 'frosts', 'night', 'water', 'watering', 'garden', 'gardener', 'gardens', 'seedling', 'seedlings', 'planter', 'plantar'];
const NAMES = ['Plan', 'Frost', 'Bread', 'Walks', 'Misc', 'Seeds', 'Index', 'Log'];
const FOLDERS = ['', 'Garden/', 'Kitchen/'];

const words = (min: number, max: number) => fc.array(fc.constantFrom(...WORDS), { minLength: min, maxLength: max }).map((w) => w.join(' '));
const section = fc.tuple(words(1, 3), words(0, 30), fc.option(fc.constantFrom(...NAMES), { nil: undefined }));
const noteText = fc.tuple(fc.boolean(), fc.array(section, { minLength: 1, maxLength: 10 })).map(
  ([tagged, sections]) =>
    `${tagged ? '---\ntags: [garden]\naliases: [Greenhouse notes]\n---\n' : ''}` +
    sections.map(([heading, body, link]) => `## ${heading}\n\n${body}${link ? ` See [[${link}]].` : ''}`).join('\n\n') +
    '\n',
);
const path = fc.tuple(fc.constantFrom(...FOLDERS), fc.constantFrom(...NAMES)).map(([folder, name]) => `${folder}${name}.md`);
const vault = fc.dictionary(path, noteText, { minKeys: 1, maxKeys: 12 });
const edit = fc.oneof(fc.tuple(fc.constant('write' as const), path, noteText), fc.tuple(fc.constant('delete' as const), path, fc.constant('')));
// Query words, with typos and cut-off words now and then (fuzzy and prefix matching).
const queryWord = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...WORDS, 'the', 'at', 'of') },
  { weight: 1, arbitrary: fc.constantFrom(...WORDS).map((w) => `${w.slice(0, 3)}x${w.slice(4)}`) },
  { weight: 1, arbitrary: fc.constantFrom(...WORDS).map((w) => w.slice(0, 5)) },
);
const query = fc.array(queryWord, { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
const ranking = fc.record({
  noteShare: fc.constantFrom(0, 0.1, 0.5, 1),
  noteDecay: fc.constantFrom(0, 0.5, 0.9, 0.9999),
  coverage: fc.constantFrom(0, 1.75, 3),
  coverageLength: fc.constantFrom(0, 0.5, 1),
  linkShare: fc.constantFrom(0, 0.2, 1),
  linkSeeds: fc.constantFrom(0, 1, 2, 5),
});

/** The full ranking of every match (rankChunks), its first k hits as pickHits takes them. */
async function reference(index: VaultIndex, source: MemoryVault, knobs: Ranking, q: string, k: number, perNote: number | undefined) {
  const inner = index as unknown as { terms: TermIndex; chunks: ReadonlyMap<number, { path: string; headings: string[]; startLine: number; endLine: number }>; notes: ReadonlyMap<string, { ids: readonly number[] }> };
  const lengths = { chunksOf: (p: string) => inner.notes.get(p)?.ids.length ?? 1, meanLogChunks: meanLogChunks(inner.notes.values(), (n) => n.ids.length) };
  const { boost, bm25, prefixMin, fuzzyMin, looseWeight } = knobs;
  const options: TermQuery = { boost: { ...boost }, bm25: { ...bm25 }, prefix: (t) => prefixMin > 0 && t.length >= prefixMin, fuzzy: (t) => (fuzzyMin > 0 && t.length >= fuzzyMin ? 1 : false), weights: { prefix: looseWeight, fuzzy: looseWeight } };
  const full = rankChunks(inner.terms.search(q, options), inner.chunks, knobs, inner.notes.size, index.links, lengths);
  return makeHits(source, pickHits(full, k, perNote));
}

test('searches give the first k of the full ranking, over random vaults, edits, queries and knobs', async () => {
  await fc.assert(
    fc.asyncProperty(
      vault,
      fc.array(edit, { maxLength: 6 }),
      fc.array(query, { minLength: 1, maxLength: 6 }),
      fc.integer({ min: 1, max: 12 }),
      fc.constantFrom(undefined, 1, 2),
      ranking,
      async (notes, edits, queries, k, perNote, knobs) => {
        const source = new MemoryVault(notes);
        const settings = { ranking: knobs };
        const index = await VaultIndex.create(source, settings, { pause: noPause });
        for (const [kind, p, text] of edits) {
          if (kind === 'write') {
            source.write(p, text);
            index.upsert(p, text);
          } else {
            source.delete(p);
            index.remove(p);
          }
        }
        const full: Ranking = { ...DEFAULT_RANKING, ...knobs };
        for (const q of queries) {
          const want = await reference(index, source, full, q, k, perNote);
          expect(await index.search(q, { k, perNote })).toEqual(want);
        }
      },
    ),
    { numRuns: 150 },
  );
}, 120_000);

test('ties in score go by path, then line: the same hits as the full ranking when every note scores the same', async () => {
  const notes: Record<string, string> = {};
  for (let i = 0; i < 30; i++) notes[`N${String(i).padStart(2, '0')}.md`] = '## Frost\n\nfrost\n\n## Frost\n\nfrost\n';
  const source = new MemoryVault(notes);
  const index = await VaultIndex.create(source, {}, { pause: noPause });
  for (const perNote of [undefined, 1]) {
    for (const k of [1, 5, 30, 100]) expect(await index.search('frost', { k, perNote })).toEqual(await reference(index, source, DEFAULT_RANKING, 'frost', k, perNote));
  }
});

import fc from 'fast-check';
import MiniSearch from 'minisearch';
import { TermIndex, type TermQuery } from '../../../src/core/search/termIndex';
import { decodeTermIndex, encodeTermIndex, runSteps, type StoredTermIndex } from '../../../src/core/search/termIndexCodec';
import { processTerm, tokenize } from '../../../src/core/search/text';

/**
 * The term index against MiniSearch 7 (what it replaced): the same documents and queries give the
 * same documents, scores, matched terms and query terms. Removal equals never having added, and
 * the saved form answers like the index it was saved from.
 */

const FIELDS = ['title', 'body'];
// Stems that meet (walk, walks, walking), prefixes (garden, gardener), typos (plant, plans) and stop words.
const WORDS = ['walk', 'walks', 'walking', 'walker', 'garden', 'gardener', 'gardening', 'plant', 'plants', 'plans', 'planet', 'the', 'and', 'tomato', 'tomatoes', 'compost', 'composting', 'sun', 'water', 'watering', 'café', '2024', 'x'];
const text = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 12 }).map((w) => w.join(' '));
const docs = fc.array(fc.tuple(text, text), { minLength: 1, maxLength: 25 });
const query = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 4 }).map((w) => w.join(' '));

const OPTIONS: TermQuery = {
  boost: { title: 2 },
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
  prefix: (t) => t.length >= 4,
  fuzzy: (t) => (t.length >= 5 ? 1 : false),
  weights: { prefix: 0.3, fuzzy: 0.3 },
};

type Row = [number, number, string[], string[]];
const rows = (results: Array<{ id: number; score: number; terms: string[]; queryTerms: string[] }>): Row[] =>
  results.map((r): Row => [r.id, Math.round(r.score * 1e9) / 1e9, [...r.terms].sort(), [...r.queryTerms].sort()]).sort((a, b) => a[0] - b[0]);

test('scores like MiniSearch: same documents, scores, matched terms and query terms', () => {
  fc.assert(
    fc.property(docs, fc.array(query, { minLength: 1, maxLength: 5 }), (list, queries) => {
      const mini = new MiniSearch<{ id: number; title: string; body: string }>({ fields: FIELDS, tokenize: (t) => tokenize(t), processTerm: (t) => processTerm(t) });
      const index = new TermIndex(FIELDS);
      list.forEach(([title, body], i) => {
        mini.add({ id: i + 1, title, body });
        index.add(i + 1, [title, body]);
      });
      for (const q of queries) {
        const expected = mini.search(q, { ...OPTIONS, prefix: OPTIONS.prefix, fuzzy: OPTIONS.fuzzy, boost: { ...OPTIONS.boost } } as Parameters<typeof mini.search>[1]);
        expect(rows(index.search(q, OPTIONS))).toEqual(rows(expected as never));
      }
    }),
    { numRuns: 150 },
  );
});

test('removing documents gives the scores of an index that never had them; the saved form answers the same', () => {
  fc.assert(
    fc.property(docs, fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }), query, (list, removed, q) => {
      const incremental = new TermIndex(FIELDS);
      const fresh = new TermIndex(FIELDS);
      list.forEach(([title, body], i) => incremental.add(i + 1, [title, body]));
      list.forEach(([title, body], i) => {
        if (removed[i]) incremental.remove(i + 1);
        else fresh.add(i + 1, [title, body]);
      });
      const want = rows(fresh.search(q, OPTIONS));
      expect(rows(incremental.search(q, OPTIONS))).toEqual(want);
      const restored = runSteps(decodeTermIndex(JSON.parse(JSON.stringify(runSteps(encodeTermIndex(incremental)))) as StoredTermIndex, FIELDS));
      expect(restored.documentCount).toBe(fresh.documentCount);
      expect(rows(restored.search(q, OPTIONS))).toEqual(want);
    }),
    { numRuns: 150 },
  );
});

test('typed matches (match) hold search()\'s scores, query terms and matched terms, query after query', () => {
  fc.assert(
    fc.property(docs, fc.array(fc.boolean(), { minLength: 25, maxLength: 25 }), fc.array(query, { minLength: 1, maxLength: 4 }), (list, removed, queries) => {
      const index = new TermIndex(FIELDS);
      list.forEach(([title, body], i) => index.add(i + 1, [title, body]));
      list.forEach((_, i) => removed[i] && index.remove(i + 1));
      for (const q of queries) {
        const want = index.search(q, OPTIONS).map((r): Row => [r.id, r.score, [...r.terms].sort(), [...r.queryTerms].sort()]).sort((a, b) => a[0] - b[0]);
        const matches = index.match(q, OPTIONS);
        const got: Row[] = [];
        for (let m = 0; m < matches.count; m++) {
          const queryTerms = matches.queryTerms.filter((_, t) => (matches.masks[m * matches.words + (t >>> 5)] >>> (t & 31)) & 1);
          got.push([matches.docs[m], matches.scores[m], matches.termsOf(matches.docs[m]).sort(), queryTerms.sort()]);
        }
        expect(got.sort((a, b) => a[0] - b[0])).toEqual(want);
      }
    }),
    { numRuns: 150 },
  );
});

test('a removed document is skipped until compaction drops it; ids are checked', async () => {
  const index = new TermIndex(FIELDS);
  index.add(1, ['Walks', 'walking in the garden']);
  index.add(2, ['Plants', 'plants in the garden']);
  index.remove(1);
  expect(index.dirtShare).toBeGreaterThan(0);
  expect(index.search('garden', OPTIONS).map((r) => r.id)).toEqual([2]);
  await index.compact();
  expect(index.dirtShare).toBe(0);
  expect(index.search('garden', OPTIONS).map((r) => r.id)).toEqual([2]);
  expect(() => index.add(2, ['', ''])).toThrow('duplicate');
  expect(() => index.add(-1, ['', ''])).toThrow('bad document id');
});

test('a damaged or foreign saved form is refused', () => {
  const index = new TermIndex(FIELDS);
  index.add(1, ['Garden', 'tomatoes and compost']);
  const saved = runSteps(encodeTermIndex(index));
  expect(() => runSteps(decodeTermIndex(saved, ['title', 'body', 'tags']))).toThrow('other fields');
  expect(() => runSteps(decodeTermIndex({ ...saved, postings: saved.postings.slice(0, 4) }, FIELDS))).toThrow();
  expect(() => runSteps(decodeTermIndex({ ...saved, postings: '!!!!' }, FIELDS))).toThrow();
  expect(() => runSteps(decodeTermIndex({ ...saved, terms: `${saved.terms}\nextra` }, FIELDS))).toThrow();
});

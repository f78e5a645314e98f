import fc from 'fast-check';
import { INDEX_FORMAT_VERSION, VaultIndex, type BuildOptions } from '../../../src/core/search/vaultIndex';
import { formatSavedIndex, readSavedIndex, type SavedIndexFile } from '../../../src/core/search/savedIndex';
import type { SearchHit } from '../../../src/core/search/types';
import { MemoryVault } from './memoryVault';
import { DEFAULT_RANKING, rankChunks } from '../../../src/core/search/chunkRanking';
import { meanLogChunks } from '../../../src/core/search/noteEvidence';
import type { TermIndex, TermQuery } from '../../../src/core/search/termIndex';
import { generateVault, MemoryVault as GeneratedVault } from '../../../bench/search/generateVault';

/**
 * The index as it is kept at scale: note-by-note updates give what a rebuild gives, the saved
 * index round-trips (another format version is rebuilt), and hostile sizes (a 5 MB note, 25,000
 * tiny notes) are worked in slices: no stretch between two pauses costs over 50 ms.
 */

const noPause = (): Promise<void> => Promise.resolve();
const WORDS = ['greenhouse', 'vents', 'tomatoes', 'compost', 'sourdough', 'starter', 'hydration', 'walking', 'walks', 'garden', 'gardener', 'seedlings', 'frost', 'night', 'water'];
const QUERIES = ['greenhouse vents at night', 'walking in the garden', 'sourdough hydration', 'frost seedlings', 'gardener water', 'compst'];

const noteText = fc
  .tuple(fc.boolean(), fc.array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 20 }), { minLength: 1, maxLength: 4 }))
  .map(([tagged, sections]) => `${tagged ? '---\ntags: [garden]\n---\n' : ''}${sections.map((words, i) => `## ${words[0]} ${i}\n\n${words.join(' ')}.`).join('\n\n')}\n`);
const PATHS = ['Garden/Plan.md', 'Garden/Frost.md', 'Kitchen/Bread.md', 'Walks.md', 'Notes/Misc.md'];
const op = fc.oneof(fc.tuple(fc.constant('write' as const), fc.constantFrom(...PATHS), noteText), fc.tuple(fc.constant('delete' as const), fc.constantFrom(...PATHS), fc.constant('')));

const answers = async (index: VaultIndex): Promise<Array<Array<[string, number, number, number, string]>>> => {
  const out = [];
  for (const q of QUERIES) out.push((await index.search(q, { k: 20 })).map((h: SearchHit): [string, number, number, number, string] => [h.path, h.startLine, h.endLine, h.score, h.text]));
  return out;
};

test('note-by-note updates answer exactly as a fresh build of the same notes; so does the saved index', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
      const vault = new MemoryVault({ 'Garden/Plan.md': '# Plan\n\nGreenhouse vents open at noon.\n' });
      const index = new VaultIndex(vault);
      await index.build({ pause: noPause });
      for (const [kind, path, text] of ops) {
        if (kind === 'write') {
          vault.write(path, text);
          if (text.length % 2 === 0) index.upsert(path, text);
          else await index.update(path, text, null, { pause: noPause });
        } else {
          vault.delete(path);
          index.remove(path);
        }
      }
      const fresh = await VaultIndex.create(vault, {}, { pause: noPause });
      const want = await answers(fresh);
      expect(await answers(index)).toEqual(want);
      expect(index.paths()).toEqual(fresh.paths());
      const restored = new VaultIndex(vault);
      expect(restored.restoreReport(await index.serialize())).toBe('restored');
      expect(await answers(restored)).toEqual(want);
      expect((await restored.build({ pause: noPause })).indexed).toBe(0);
    }),
    { numRuns: 60 },
  );
});

test('the saved index: restored in steps too; another version, damaged postings or a cut file are rebuilt', async () => {
  const vault = new MemoryVault({ 'a.md': '# Alpha\n\nGreenhouse vents.', 'b.md': 'Sourdough starter at 75 % hydration.' });
  const first = await VaultIndex.create(vault, {}, { pause: noPause });
  const saved = await first.serialize();
  const stored = readSavedIndex(saved) as SavedIndexFile;
  expect(stored.version).toBe(INDEX_FORMAT_VERSION);
  let pauses = 0;
  const stepped = new VaultIndex(vault);
  expect(await stepped.restoreReportAsync(saved, () => Promise.resolve(void pauses++))).toBe('restored');
  expect(pauses).toBeGreaterThan(0);
  expect(await answers(stepped)).toEqual(await answers(first));

  const older = new VaultIndex(vault);
  expect(older.restoreReport(formatSavedIndex({ ...stored, version: INDEX_FORMAT_VERSION - 1 }))).toBe('other-version');
  expect((await older.build({ pause: noPause })).indexed).toBe(2);
  const damaged = new VaultIndex(vault);
  expect(damaged.restoreReport(formatSavedIndex({ ...stored, terms: { ...stored.terms, postings: 'AAAA' } }))).toBe('damaged');
  expect(damaged.noteCount).toBe(0);
  expect(new VaultIndex(vault).restoreReport(saved.slice(0, saved.length - 10))).toBe('damaged');
});

/** Build options that time slices by this process's CPU (other load on the machine does not count) and record each stretch between pauses. */
function sliced(): { options: BuildOptions; longest: () => number; pauses: () => number } {
  const cpu = (): number => {
    const used = process.cpuUsage();
    return (used.user + used.system) / 1000;
  };
  let last = cpu();
  let longest = 0;
  let count = 0;
  const pause = (): Promise<void> => {
    longest = Math.max(longest, cpu() - last);
    count++;
    return new Promise((resolve) =>
      setImmediate(() => {
        last = cpu();
        resolve();
      }),
    );
  };
  return { options: { now: cpu, sliceMs: 12, yieldEvery: 50, pause }, longest: () => Math.max(longest, cpu() - last), pauses: () => count };
}

test('a 5 MB note is hashed, cut and indexed in slices with pauses between them, and found', async () => {
  const paragraph = (i: number): string => `Paragraph ${i} about greenhouse vents, frost on seedlings and the sourdough starter.\n\n`;
  let big = '---\ntags: [huge]\n---\n# Huge\n\n';
  for (let i = 0; big.length < 5_000_000; i++) big += `${i % 40 === 0 ? `## Part ${i}\n\n` : ''}${paragraph(i)}`;
  big += 'The word zanzibarite appears once, at the very end.\n';
  const vault = new MemoryVault({ 'Huge.md': big, 'Small.md': 'Greenhouse vents.' });
  const run = sliced();
  const index = new VaultIndex(vault);
  await index.build(run.options);
  expect(run.pauses()).toBeGreaterThan(10);
  // How long the longest slice takes is the bench's figure (bench/search/scale.ts, "longest task"):
  // timed here it flakes on a loaded CI machine (process CPU counts the GC's threads too).
  console.debug(`5 MB note: ${run.pauses()} pauses, longest stretch ${run.longest().toFixed(1)} ms of process CPU`);
  expect((await index.search('zanzibarite', { k: 1 }))[0]?.path).toBe('Huge.md');

  const edit = sliced();
  await index.update('Huge.md', `${big}Another line about quokkas.\n`, null, edit.options);
  expect(edit.pauses()).toBeGreaterThan(10);
  expect((await index.search('quokkas', { k: 1 }))[0]?.path).toBe('Huge.md');
}, 120_000);

test('25,000 tiny notes build with a pause at least every 50 notes', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 25_000; i++) files[`Tiny/${String(i).padStart(5, '0')}.md`] = `Note ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}.`;
  const vault = new MemoryVault(files);
  const run = sliced();
  const index = new VaultIndex(vault);
  const report = await index.build(run.options);
  expect(report.indexed).toBe(25_000);
  expect(run.pauses()).toBeGreaterThanOrEqual(25_000 / 50); // At least every 50 notes (yieldEvery).
  console.debug(`25,000 notes: ${run.pauses()} pauses, longest stretch ${run.longest().toFixed(1)} ms of process CPU`);
  expect((await index.search('note 12345', { k: 1 }))[0]?.path).toBe('Tiny/12345.md');
}, 120_000);

test('searches over the term index give the full ranking of every match (rankChunks), one hit per note', async () => {
  const generated = generateVault(400, 7);
  const index = await VaultIndex.create(new GeneratedVault(generated.notes), {}, { pause: noPause });
  const inner = index as unknown as { terms: TermIndex; chunks: ReadonlyMap<number, { path: string; startLine: number }>; notes: ReadonlyMap<string, { ids: readonly number[] }> };
  // Coverage is discounted for long notes (issue 33): the notes' lengths in chunks, as the index keeps them.
  const lengths = { chunksOf: (p: string) => inner.notes.get(p)?.ids.length ?? 1, meanLogChunks: meanLogChunks([...inner.notes.values()].map((n) => n.ids.length)) };
  const { boost, bm25, prefixMin, fuzzyMin, looseWeight } = DEFAULT_RANKING;
  const options: TermQuery = { boost: { ...boost }, bm25: { ...bm25 }, prefix: (t) => prefixMin > 0 && t.length >= prefixMin, fuzzy: (t) => (fuzzyMin > 0 && t.length >= fuzzyMin ? 1 : false), weights: { prefix: looseWeight, fuzzy: looseWeight } };
  let compared = 0;
  for (const query of generated.queries) {
    const results = inner.terms.search(query, options);
    const full = rankChunks(results, inner.chunks, DEFAULT_RANKING, inner.notes.size, index.links, lengths);
    const top = (await index.search(query, { k: 10, perNote: 1 })).map((h) => [h.path, h.startLine, h.score]);
    const want: unknown[] = [];
    const seen = new Set<string>();
    for (const hit of full) {
      if (want.length >= 10) break;
      if (seen.has(hit.meta.path)) continue;
      seen.add(hit.meta.path);
      want.push([hit.meta.path, hit.meta.startLine, hit.score]);
    }
    expect(top).toEqual(want);
    compared += want.length;
  }
  expect(compared).toBeGreaterThan(generated.queries.length);
}, 60_000);

import fc from 'fast-check';
import { base64ToBytes, base64ToBytesFast, bytesToBase64 } from '../../../src/core/search/base64';
import { formatSavedIndex, INDEX_FORMAT_VERSION, readSavedIndex, type SavedIndexFile } from '../../../src/core/search/savedIndex';
import { runSteps } from '../../../src/core/search/slices';
import type { TermIndex } from '../../../src/core/search/termIndex';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import type { SearchHit } from '../../../src/core/search/types';
import { MemoryVault } from './memoryVault';

/**
 * The saved index's format (savedIndex.ts, format 5): a JSON header line and sections read a part
 * per step, postings decoded per term when first read. A restored index edited note by note
 * answers as a fresh build; another version's file is refused by its first bytes; damage to any
 * section is refused and the index rebuilt; big indexes are read in many steps.
 */

const noPause = (): Promise<void> => Promise.resolve();
const WORDS = ['greenhouse', 'vents', 'tomatoes', 'compost', 'sourdough', 'starter', 'hydration', 'walking', 'garden', 'seedlings', 'frost', 'night', 'water', 'quokkas'];
const QUERIES = ['greenhouse vents at night', 'walking in the garden', 'sourdough hydration', 'frost seedlings', 'quokkas water', 'compst'];
const PATHS = ['Garden/Plan.md', 'Garden/Frost.md', 'Kitchen/Bread.md', 'Walks.md', 'Notes/Misc.md', 'Notes/More.md'];

const noteText = fc
  .array(fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 3 })
  .map((sections) => sections.map((words, i) => `## ${words[0]} ${i}\n\n${words.join(' ')} [[${words[words.length - 1]}]].`).join('\n\n'));
const op = fc.oneof(fc.tuple(fc.constant('write' as const), fc.constantFrom(...PATHS), noteText), fc.tuple(fc.constant('delete' as const), fc.constantFrom(...PATHS), fc.constant('')));

const answers = async (index: VaultIndex): Promise<unknown[]> => {
  const out = [];
  for (const q of QUERIES) out.push((await index.search(q, { k: 20 })).map((h: SearchHit) => [h.path, h.startLine, h.score]));
  return out;
};

function apply(vault: MemoryVault, index: VaultIndex, ops: ReadonlyArray<readonly ['write' | 'delete', string, string]>): void {
  for (const [kind, path, text] of ops) {
    if (kind === 'write') {
      vault.write(path, text);
      index.upsert(path, text);
    } else {
      vault.delete(path);
      index.remove(path);
    }
  }
}

test('a restored index, edited note by note (its terms still packed), answers as a fresh build; saved again, too', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 12 }), fc.array(op, { minLength: 1, maxLength: 12 }), async (before, after) => {
      const vault = new MemoryVault({ 'Garden/Plan.md': '# Plan\n\nGreenhouse vents open at noon.\n' });
      const first = await VaultIndex.create(vault, {}, { pause: noPause });
      apply(vault, first, before);
      const restored = new VaultIndex(vault);
      expect(restored.restoreReport(await first.serialize())).toBe('restored');
      // Edits before any query: new postings go after the saved ones of terms not yet decoded.
      apply(vault, restored, after);
      const fresh = await VaultIndex.create(vault, {}, { pause: noPause });
      const again = new VaultIndex(vault);
      expect(again.restoreReport(await restored.serialize())).toBe('restored');
      const want = await answers(fresh);
      expect(await answers(restored)).toEqual(want);
      expect(await answers(again)).toEqual(want);
      expect(restored.paths()).toEqual(fresh.paths());
      expect(restored.links.neighbours('Garden/Plan.md')).toEqual(fresh.links.neighbours('Garden/Plan.md'));
    }),
    { numRuns: 60 },
  );
});

test("a restored index decodes a term's postings only when a query reads it", async () => {
  const vault = new MemoryVault({ 'a.md': 'Greenhouse vents at night.', 'b.md': 'Sourdough starter and hydration.' });
  const index = await VaultIndex.create(vault, {}, { pause: noPause });
  const restored = new VaultIndex(vault);
  expect(restored.restoreReport(await index.serialize())).toBe('restored');
  const terms = (restored as unknown as { terms: TermIndex }).terms;
  const all = terms.termCount;
  expect(terms.packedTerms).toBe(all);
  expect((await restored.search('sourdough', { k: 1 }))[0]?.path).toBe('b.md');
  expect(terms.packedTerms).toBeLessThan(all);
  expect(terms.packedTerms).toBeGreaterThan(0);
});

test("another version's file is refused by its first bytes (format 4 was one JSON document) and rebuilt", async () => {
  const vault = new MemoryVault({ 'a.md': 'Greenhouse vents.', 'b.md': 'Sourdough.' });
  const saved = await (await VaultIndex.create(vault, {}, { pause: noPause })).serialize();
  expect(saved.startsWith(`{"version":${INDEX_FORMAT_VERSION},`)).toBe(true);
  const stored = readSavedIndex(saved) as SavedIndexFile;
  const older = new VaultIndex(vault);
  expect(older.restoreReport(formatSavedIndex({ ...stored, version: 4 }))).toBe('other-version');
  expect((await older.build({ pause: noPause })).indexed).toBe(2);
  // Format 4: one JSON document. Not parsed (it would be tens of MB): its version is in its first bytes.
  expect(new VaultIndex(vault).restoreReport(`{"version":4,"fingerprint":"x","nextId":3,"notes":[${'"'.repeat(3)}`)).toBe('other-version');
  expect(new VaultIndex(vault).restoreReport(`{"version":${INDEX_FORMAT_VERSION + 1},"sections":[]}\n`)).toBe('other-version');
});

test('damage to any section is refused, the index left empty, and a build finds the notes again', async () => {
  const vault = new MemoryVault({ 'a.md': '# Alpha\n\nGreenhouse vents, see [[b]].', 'b.md': 'Sourdough starter at 75 % hydration.' });
  const saved = await (await VaultIndex.create(vault, {}, { pause: noPause })).serialize();
  const stored = readSavedIndex(saved) as SavedIndexFile;
  const damaged = [
    saved.slice(0, -1),
    `${saved}x`,
    saved.replace('\n', ' '),
    saved.replace(/"sections":\[\["notes",(\d+)\]/, (_, n: string) => `"sections":[["notes",${Number(n) + 1}]`),
    formatSavedIndex({ ...stored, notes: [stored.notes[0].slice(1)] }),
    formatSavedIndex({ ...stored, links: [`${stored.links[0]},`] }),
    formatSavedIndex({ ...stored, terms: { ...stored.terms, documents: `${stored.terms.documents}AAAA` } }),
    formatSavedIndex({ ...stored, terms: { ...stored.terms, postings: stored.terms.postings.slice(0, -4) } }),
    formatSavedIndex({ ...stored, terms: { ...stored.terms, postings: `${stored.terms.postings}AAAA` } }),
    formatSavedIndex({ ...stored, terms: { ...stored.terms, terms: `${stored.terms.terms}\nextra` } }),
    formatSavedIndex({ ...stored, terms: { ...stored.terms, fields: ['title', 'body'] } }),
  ];
  for (const text of damaged) {
    expect(text).not.toBe(saved);
    const index = new VaultIndex(vault);
    expect(index.restoreReport(text)).toBe('damaged');
    expect(index.noteCount).toBe(0);
    expect((await index.build({ pause: noPause })).indexed).toBe(2);
    expect((await index.search('sourdough', { k: 1 }))[0]?.path).toBe('b.md');
  }
});

test('a posting that names no document (damage the structure check cannot see) is left out when its term is read', async () => {
  const vault = new MemoryVault({ 'a.md': 'Greenhouse vents.', 'b.md': 'Greenhouse frost.' });
  const saved = await (await VaultIndex.create(vault, {}, { pause: noPause })).serialize();
  const stored = readSavedIndex(saved) as SavedIndexFile;
  // Every posting's document delta set to 100 (one byte each, so the structure stays whole).
  const bytes = base64ToBytes(stored.terms.postings);
  for (let p = 0, term = 0; p < bytes.length; term++) {
    const count = bytes[p++];
    for (let i = 0; i < count; i++) {
      bytes[p++] = 100;
      while (bytes[p++] >= 0x80);
    }
  }
  const index = new VaultIndex(vault);
  expect(index.restoreReport(formatSavedIndex({ ...stored, terms: { ...stored.terms, postings: bytesToBase64(bytes) } }))).toBe('restored');
  expect(await index.search('greenhouse', { k: 5 })).toEqual([]);
});

test('hostile sizes are read in steps: 25,000 notes restore in parts of 1,000, 12 MB of base64 a piece at a time', async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 25_000; i++) files[`Tiny/${String(i).padStart(5, '0')}.md`] = `Note ${i}: ${WORDS[i % WORDS.length]} ${WORDS[(i * 7) % WORDS.length]}.`;
  const vault = new MemoryVault(files);
  const saved = await (await VaultIndex.create(vault, {}, { pause: noPause, yieldEvery: 1_000_000 })).serialize();
  let pauses = 0;
  const restored = new VaultIndex(vault);
  expect(await restored.restoreReportAsync(saved, () => Promise.resolve(void pauses++))).toBe('restored');
  expect(pauses).toBeGreaterThanOrEqual(25 + 25); // A step per 1,000 notes, then per 1,000 notes' links.
  expect((await restored.search('note 12345', { k: 1 }))[0]?.path).toBe('Tiny/12345.md');

  const big = new Uint8Array(9_000_000).map((_, i) => (i * 2_654_435_761) >>> 24);
  const text = bytesToBase64(big);
  const steps = base64ToBytesFast(text);
  let count = 0;
  for (let next = steps.next(); !next.done; next = steps.next()) count++;
  expect(count).toBeGreaterThanOrEqual(5);
  expect(Buffer.compare(runSteps(base64ToBytesFast(text)), big)).toBe(0); // (toEqual walks 9 MB an element at a time)
}, 120_000);

test('the stepped base64 decoder reads what base64ToBytes reads, and refuses what it refuses', () => {
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 300 }), fc.nat(), fc.constantFrom('!', '=', 'é', '\u{1F600}', ' '), (bytes, at, bad) => {
      const text = bytesToBase64(bytes);
      expect(runSteps(base64ToBytesFast(text))).toEqual(base64ToBytes(text));
      if (text.length === 0) return;
      const i = at % text.length;
      const broken = text.slice(0, i) + bad + text.slice(i + 1);
      let want: Uint8Array | 'throws';
      try {
        want = base64ToBytes(broken);
      } catch {
        want = 'throws';
      }
      let got: Uint8Array | 'throws';
      try {
        got = runSteps(base64ToBytesFast(broken));
      } catch {
        got = 'throws';
      }
      expect(got).toEqual(want);
    }),
    { numRuns: 300 },
  );
});

import path from 'node:path';
import { FsVault } from '../../../src/node/fsVault';
import { INDEX_FORMAT_VERSION, VaultIndex } from '../../../src/core/search/vaultIndex';
import { formatSavedIndex, readSavedIndex, type SavedIndexFile } from '../../../src/core/search/savedIndex';
import type { SearchHit } from '../../../src/core/search/types';
import { MemoryVault } from './memoryVault';

const VAULT = path.join(__dirname, 'fixtures', 'vault');
const noPause = (): Promise<void> => Promise.resolve();

async function fixtureIndex(): Promise<VaultIndex> {
  const index = new VaultIndex(new FsVault(VAULT), { excludedFolders: ['Strata'] });
  await index.build({ pause: noPause });
  return index;
}

const top = async (index: VaultIndex, query: string): Promise<string | undefined> => (await index.search(query, { k: 1 }))[0]?.path;
const summary = (hits: SearchHit[]): Array<[string, number, number]> => hits.map((h) => [h.path, h.startLine, h.score]);

describe('VaultIndex over the fixture vault', () => {
  test('finds notes by body, title, alias, tag, heading, code and folded diacritics', async () => {
    const index = await fixtureIndex();
    expect(await top(index, 'how much sun do tomato plants need')).toBe('Garden/Tomatoes.md');
    expect(await top(index, 'love apples')).toBe('Garden/Tomatoes.md');
    expect(await top(index, 'vegetables')).toBe('Garden/Tomatoes.md');
    expect(await top(index, 'turning the compost heap')).toBe('Garden/Compost.md');
    expect(await top(index, 'hydration function')).toBe('Kitchen/Sourdough.md');
    expect(await top(index, 'creme brulee')).toBe('Kitchen/Crème brûlée.md');
    expect(await top(index, 'CRÈME')).toBe('Kitchen/Crème brûlée.md');
  });

  test('a note that is all properties is found by them', async () => {
    const index = await fixtureIndex();
    expect(await top(index, 'the 2016 film with Amy Adams')).toBe('Films/Arrival.md');
    expect(await top(index, 'villeneuve')).toBe('Films/Arrival.md');
    expect(await index.search('heptapod')).toEqual([]); // URLs are not indexed
  });

  test('Thai, Japanese and Chinese notes are found by a word inside a sentence', async () => {
    const index = await fixtureIndex();
    const thai = await index.search('อาหารไทย', { k: 1 });
    expect(thai[0].path).toBe('Languages/Thai.md');
    expect(thai[0].heading).toBe('อาหาร');
    expect(await top(index, '図書館')).toBe('Languages/Japanese.md');
    expect(await top(index, '公园')).toBe('Languages/Chinese.md');
  });

  test('a hit carries the heading path, the line range, the chunk text as in the note and a snippet', async () => {
    const index = await fixtureIndex();
    const [hit] = await index.search('aphids', { k: 1 });
    expect(hit).toMatchObject({ path: 'Garden/Tomatoes.md', headings: ['Growing tomatoes', 'Pests'], heading: 'Pests', startLine: 14, endLine: 16 });
    expect(hit.text).toBe('## Pests\n\nAphids gather under the leaves; a jet of water or soapy spray removes them. #pests');
    expect(hit.snippet).toContain('Aphids gather');
    expect(hit.snippet).not.toContain('## Pests');
  });

  test('the excluded chat folder is not indexed; typos and prefixes of longer words still match', async () => {
    const index = await fixtureIndex();
    expect(index.has('Strata/Chats.md')).toBe(false);
    expect((await index.search('saved chat')).map((h) => h.path)).not.toContain('Strata/Chats.md');
    expect(await top(index, 'sourdugh')).toBe('Kitchen/Sourdough.md'); // one letter missing
    expect(await top(index, 'caramel')).toBe('Kitchen/Crème brûlée.md'); // prefix of "caramelised"
  });

  test('k and perNote limit the list; an empty query gives nothing', async () => {
    const index = await fixtureIndex();
    const all = await index.search('water', { k: 10 });
    expect(all.filter((h) => h.path === 'Garden/Tomatoes.md').length).toBeGreaterThan(1);
    const one = await index.search('water', { k: 10, perNote: 1 });
    expect(new Set(one.map((h) => h.path)).size).toBe(one.length);
    expect(await index.search('water', { k: 1 })).toHaveLength(1);
    expect(await index.search('   ')).toEqual([]);
  });

  test('an aborted search rejects', async () => {
    const index = await fixtureIndex();
    const controller = new AbortController();
    controller.abort();
    await expect(index.search('water', { signal: controller.signal })).rejects.toThrow('stopped');
  });
});

describe('VaultIndex updates', () => {
  const notes = {
    'a.md': '# Alpha\n\nThe zebra crossing is near the school.',
    'b.md': '# Beta\n\nGiraffes have long necks.',
    'chats/c.md': 'A chat about zebras.',
  };

  test('modify, delete and rename keep the index current', async () => {
    const vault = new MemoryVault(notes);
    const index = new VaultIndex(vault, { excludedFolders: ['chats'] });
    await index.build({ pause: noPause });
    expect(await top(index, 'zebra')).toBe('a.md');

    vault.write('a.md', '# Alpha\n\nNow about penguins only.');
    index.upsert('a.md', '# Alpha\n\nNow about penguins only.');
    expect(await index.search('zebra')).toEqual([]);
    expect(await top(index, 'penguins')).toBe('a.md');

    vault.write('b2.md', vault.files.get('b.md')!.text);
    vault.delete('b.md');
    await index.rename('b.md', 'b2.md');
    expect((await index.search('giraffe')).map((h) => h.path)).toEqual(['b2.md']);
    expect(await top(index, 'b2')).toBe('b2.md'); // the new name is indexed

    vault.delete('a.md');
    index.remove('a.md');
    expect(await index.search('penguins')).toEqual([]);
    expect(index.noteCount).toBe(1);

    // Moving a note into an excluded folder takes it out of the index.
    vault.write('chats/b2.md', vault.files.get('b2.md')!.text);
    vault.delete('b2.md');
    await index.rename('b2.md', 'chats/b2.md');
    expect(await index.search('giraffe')).toEqual([]);
  });

  test('build after changes outside the events: new, changed and deleted notes are caught', async () => {
    const vault = new MemoryVault(notes);
    const index = new VaultIndex(vault);
    await index.build({ pause: noPause });
    vault.write('new.md', 'Okapis live in the forest.');
    vault.write('a.md', 'Zebus are cattle.');
    vault.delete('b.md');
    const report = await index.build({ pause: noPause });
    expect(report).toMatchObject({ indexed: 2, removed: 1, unchanged: 1 });
    expect(await top(index, 'okapi')).toBe('new.md');
    expect(await index.search('giraffes')).toEqual([]);
  });

  test('build yields between batches and reports progress', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 25; i++) files[`n${String(i).padStart(2, '0')}.md`] = `Note number ${i}.`;
    const index = new VaultIndex(new MemoryVault(files));
    let pauses = 0;
    const progress: Array<[number, number]> = [];
    await index.build({ yieldEvery: 10, pause: () => { pauses++; return Promise.resolve(); }, onProgress: (done, total) => progress.push([done, total]) });
    expect(pauses).toBe(2);
    expect(progress).toEqual([[10, 25], [20, 25], [25, 25]]);
  });
});

describe('VaultIndex persistence', () => {
  const files = { 'a.md': '# Alpha\n\nZebras and lions.', 'b.md': '# Beta\n\nLions sleep.', 'c.md': 'Cats are small lions.' };

  test('a restored index answers like the one saved, and a restart reads no unchanged note', async () => {
    const vault = new MemoryVault(files);
    const first = new VaultIndex(vault);
    await first.build({ pause: noPause });
    const saved = await first.serialize();
    expect(readSavedIndex(saved)).toMatchObject({ version: INDEX_FORMAT_VERSION, fingerprint: first.fingerprint });

    const second = new VaultIndex(vault);
    expect(second.restore(saved)).toBe(true);
    expect(summary(await second.search('lions'))).toEqual(summary(await first.search('lions')));
    vault.reads = [];
    const report = await second.build({ pause: noPause });
    expect(report).toMatchObject({ indexed: 0, unchanged: 3, readToCompare: 0 });
    expect(vault.reads).toEqual([]);
  });

  test('after a restart only changed notes are re-indexed; a touched note is hashed, not re-indexed', async () => {
    const vault = new MemoryVault(files);
    const first = new VaultIndex(vault);
    await first.build({ pause: noPause });
    const saved = await first.serialize();
    vault.write('a.md', '# Alpha\n\nTigers now.');
    vault.touch('b.md');
    vault.reads = [];
    const second = new VaultIndex(vault);
    second.restore(saved);
    const report = await second.build({ pause: noPause });
    expect(report).toMatchObject({ indexed: 1, unchanged: 2, readToCompare: 1 });
    expect(vault.reads).toEqual(['a.md', 'b.md']);
    expect(await top(second, 'tigers')).toBe('a.md');
    expect((await second.search('zebras'))).toEqual([]);
  });

  test('without stat, a restart compares content hashes and re-indexes only what changed', async () => {
    const vault = new MemoryVault(files, false);
    const first = new VaultIndex(vault);
    await first.build({ pause: noPause });
    const saved = await first.serialize();
    vault.write('c.md', 'Cats are small tigers.');
    const second = new VaultIndex(vault);
    second.restore(saved);
    expect(await second.build({ pause: noPause })).toMatchObject({ indexed: 1, unchanged: 2, readToCompare: 2 });
  });

  test('an index saved by another format version or with other settings is not reused', async () => {
    const vault = new MemoryVault(files);
    const first = new VaultIndex(vault);
    await first.build({ pause: noPause });
    const saved = await first.serialize();
    expect(new VaultIndex(vault, { excludedFolders: ['chats'] }).restore(saved)).toBe(false);
    expect(new VaultIndex(vault, { chunk: { maxChars: 800 } }).restore(saved)).toBe(false);
    const older = formatSavedIndex({ ...(readSavedIndex(saved) as SavedIndexFile), version: INDEX_FORMAT_VERSION - 1 });
    const stale = new VaultIndex(vault);
    expect(stale.restore(older)).toBe(false);
    expect(stale.noteCount).toBe(0);
    expect(await stale.build({ pause: noPause })).toMatchObject({ indexed: 3 });
    expect(new VaultIndex(vault).restore('not json')).toBe(false);
    expect(new VaultIndex(vault).restore('')).toBe(false);
    // Same settings in another order give the same fingerprint.
    expect(new VaultIndex(vault, { excludedFolders: ['x', 'y/'] }).fingerprint).toBe(new VaultIndex(vault, { excludedFolders: ['y', 'x'] }).fingerprint);
  });

  test('updates after a restore work (ids do not collide)', async () => {
    const vault = new MemoryVault(files);
    const first = new VaultIndex(vault);
    await first.build({ pause: noPause });
    const second = new VaultIndex(vault);
    second.restore(await first.serialize());
    vault.write('d.md', 'Lions roar loudly.');
    second.upsert('d.md', 'Lions roar loudly.');
    second.remove('c.md');
    const paths = (await second.search('lions', { k: 10 })).map((h) => h.path).sort();
    expect(paths).toEqual(['a.md', 'b.md', 'd.md']);
  });
});

describe('VaultIndex determinism', () => {
  test('the same notes indexed in another order give the same list; ties go by path then line', async () => {
    const files: Record<string, string> = {
      'z/same.md': 'Identical text about herons.',
      'a/same.md': 'Identical text about herons.',
      'm.md': '# One\n\nHerons fish.\n\n# Two\n\nHerons fish.',
      'other.md': 'Egrets and herons wade in the shallows of the lake.',
    };
    const forward = new VaultIndex(new MemoryVault(files));
    await forward.build({ pause: noPause });
    const backward = new VaultIndex(new MemoryVault(files));
    for (const p of Object.keys(files).sort().reverse()) backward.upsert(p, files[p]);
    const a = await forward.search('herons', { k: 10 });
    const b = await backward.search('herons', { k: 10 });
    expect(summary(b)).toEqual(summary(a));
    const same = a.filter((h) => h.path.endsWith('same.md'));
    expect(same.map((h) => h.path)).toEqual(['a/same.md', 'z/same.md']);
    expect(same[0].score).toBe(same[1].score);
    const m = a.filter((h) => h.path === 'm.md');
    expect(m.map((h) => h.startLine)).toEqual([1, 5]);
  });
});

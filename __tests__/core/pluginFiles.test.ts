/**
 * Issue 26, finding 6: the plugin's own files, damaged (cut short, wrong JSON, wrong version, huge),
 * never stop it from loading. data.json keeps every setting written in full before the damage;
 * the search index, the embeddings and the artifact summaries are caches: started over.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { PLUGIN_FILE_LIMITS, readPluginJson, readSettingsFile, readSettingsText, salvageJsonObject } from '../../src/core/pluginFiles';
import { SummaryCache } from '../../src/core/planning/summaryCache';
import { ChunkVectors } from '../../src/core/search/semantic';
import { VaultIndex } from '../../src/core/search/vaultIndex';
import { formatSavedIndex, readSavedIndex, type SavedIndexFile } from '../../src/core/search/savedIndex';
import { loadSettings } from '../../src/core/settings/settings';
import { fileSummaryStore } from '../../src/node/fileSummaryStore';
import { FsVault } from '../../src/node/fsVault';
import { VAULT } from '../helpers/paths';

/** A data.json as the plugin writes it (Obsidian's saveData: JSON with two-space indents). */
function savedSettings(): { raw: Record<string, unknown>; text: string } {
  const raw = {
    providers: [
      { id: 'local', kind: 'openai', name: 'Local', baseUrl: 'http://127.0.0.1:9/v1', models: ['gpt-4o', 'gpt-4o-mini'], secretId: 'local-key' },
      { id: 'claude', kind: 'anthropic', name: 'Claude', models: ['claude-sonnet-4-5'], secretId: 'anthropic' },
    ],
    defaultProviderId: 'claude',
    defaultModel: 'claude-sonnet-4-5',
    chatFolder: 'Chats',
    systemPrompt: 'Answer briefly, "quoted" and {braced}, with a \\ backslash.',
    memory: 'I keep bees.\nAnd tomatoes.',
    generateTitles: false,
    maxContextTokens: 50_000,
    searchExcludedFolders: ['Archive', 'Private'],
    contextWindows: { 'gpt-4o': 128_000 },
  };
  const { settings, warnings } = loadSettings(raw);
  expect(warnings).toEqual([]);
  return { raw, text: JSON.stringify(settings, null, 2) };
}

describe('data.json', () => {
  test('cut short anywhere: never throws, and every setting written in full before the cut is kept', () => {
    const { text } = savedSettings();
    const full = JSON.parse(text) as Record<string, unknown>;
    const keys = Object.keys(full);
    fc.assert(
      fc.property(fc.integer({ min: 0, max: text.length - 1 }), (cut) => {
        const read = readSettingsText(text.slice(0, cut));
        expect(read.problem).not.toBeNull();
        const { settings } = loadSettings(read.value);
        // A top-level member is complete when the text up to its comma (or the closing brace) is there.
        for (const key of keys) {
          const member = `\n  ${JSON.stringify(key)}: ${JSON.stringify(full[key], null, 2).replace(/\n/g, '\n  ')}`;
          const end = text.indexOf(member) + member.length;
          if (end < cut) expect({ key, value: (settings as unknown as Record<string, unknown>)[key] }).toEqual({ key, value: full[key] });
        }
      }),
      { numRuns: 400, seed: 2601 },
    );
  });

  test('wrong JSON, wrong shapes, another version, empty: never throws, read as far as it goes', () => {
    const { text } = savedSettings();
    const cases: Array<[string, boolean]> = [
      ['', false],
      ['not json at all', false],
      ['[1, 2, 3]', false],
      ['42', false],
      ['null', false],
      ['"a string"', false],
      [text.replace('"chatFolder"', '"chatFolder" "oops"'), true],
      [`${text}\n}\n{"trailing": true}`, true],
      [text.replace(/\n/g, '\r\n'), true],
      // A future version: unknown keys and changed shapes; what this version knows is read.
      [JSON.stringify({ version: 99, chatFolder: 'Later', providers: 'moved elsewhere', newThing: { a: 1 } }), true],
    ];
    for (const [input, someKept] of cases) {
      const read = readSettingsText(input);
      const { settings } = loadSettings(read.value);
      expect(typeof settings.chatFolder).toBe('string');
      if (someKept) expect(read.value).not.toBeNull();
    }
    expect(loadSettings(readSettingsText(cases[9][0]).value).settings.chatFolder).toBe('Later');
  });

  test('random damage (bytes replaced, removed, repeated) never throws', () => {
    const { text } = savedSettings();
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.nat(text.length), fc.nat(40), fc.constantFrom('', '"', '{', '}', ',', '\\', '\u0000', 'x'.repeat(1000))), { minLength: 1, maxLength: 5 }), (edits) => {
        let damaged = text;
        for (const [at, length, insert] of edits) damaged = damaged.slice(0, at) + insert + damaged.slice(at + length);
        const read = readSettingsText(damaged);
        expect(() => loadSettings(read.value)).not.toThrow();
      }),
      { numRuns: 500, seed: 2602 },
    );
  });

  test('huge: not read (its size is over the limit), the defaults are used with a notice; not found: no notice', async () => {
    let read = 0;
    const huge = await readSettingsFile({ size: () => Promise.resolve(PLUGIN_FILE_LIMITS['data.json'] + 1), read: () => Promise.resolve((read++, '{}')) });
    expect(read).toBe(0);
    expect(huge.value).toBeNull();
    expect(huge.problem).toMatch(/over the/);
    expect(loadSettings(huge.value).warnings).toEqual([]);
    const missing = await readSettingsFile({ size: () => Promise.resolve(null), read: () => Promise.reject(new Error('ENOENT')) });
    expect(missing).toEqual({ value: null, problem: null, text: null });
    const unreadable = await readSettingsFile({ size: () => Promise.resolve(10), read: () => Promise.reject(new Error('EACCES')) });
    expect(unreadable.problem).toMatch(/EACCES/);
  });

  test('salvage is linear: a 5 MB damaged file is read in one pass', () => {
    const text = `{"a": 1, "b": "${'x'.repeat(5_000_000)}", "c": [${'1,'.repeat(100_000)}`;
    expect(salvageJsonObject(text)).toEqual({ a: 1, b: 'x'.repeat(5_000_000) });
  });
});

describe('the search index file', () => {
  async function built(): Promise<{ index: VaultIndex; saved: string }> {
    const index = new VaultIndex(new FsVault(VAULT));
    await index.build();
    return { index, saved: await index.serialize() };
  }

  test('cut short, mutated, another version or other settings: never throws; a fresh index then builds and finds notes', async () => {
    const { saved } = await built();
    // The file's parts (savedIndex.ts: a JSON header line, then sections), each damaged in turn.
    const stored = readSavedIndex(saved) as SavedIndexFile;
    const write = (parts: Record<string, unknown>): string => formatSavedIndex({ ...stored, ...parts });
    const damaged: string[] = [
      '',
      'garbage',
      '[]',
      'null',
      saved.slice(0, saved.length / 2),
      write({ version: 999 }),
      write({ fingerprint: 'other' }),
      write({ notes: ['"none"'] }),
      write({ notes: ['[[1, 2]]'] }),
      write({ notes: [JSON.stringify([['a.md', { hash: 'h', chunks: [['x', null, 1, 2, 3]] }]])] }),
      write({ notes: ['[["a.md", null]]'] }),
      write({ notes: [] }),
      write({ terms: { ...stored.terms, fields: null } }),
      write({ terms: { ...stored.terms, documents: 'many' } }),
      write({ terms: { ...stored.terms, terms: 7 } }),
      write({ links: ['null'] }),
      write({ links: ['[["a.md", [[5]]]]'] }),
      // An entry changed inside a part of the notes (each part is the JSON of up to 1,000 notes), the sections' lengths kept right.
      write({ notes: stored.notes.map((part, i) => (i === 0 ? part.replace('"ids":[', '"ids":["x",') : part)) }),
      write({ notes: stored.notes.map((part, i) => (i === 0 ? part.replace('"ids":[', '"ids":[1e300,') : part)) }),
      // The same change without the header's lengths following: the sections no longer add up.
      saved.replace('"ids":[', '"ids":["x",'),
      write({ nextId: 'next' }),
    ];
    const cuts = fc.sample(fc.integer({ min: 0, max: saved.length - 1 }), { numRuns: 40, seed: 2603 });
    for (const cut of cuts) damaged.push(saved.slice(0, cut));
    for (const text of damaged) {
      expect(text).not.toBe(saved); // Each damage really changes the file.
      const index = new VaultIndex(new FsVault(VAULT));
      const report = index.restoreReport(text);
      expect(report).not.toBe('restored');
      await index.build();
      expect((await index.search('greenhouse ventilation', { k: 3 })).length).toBeGreaterThan(0);
    }
  });
});

describe('search-vectors.json and artifact-summaries.json', () => {
  const embedder = { model: 'test-embed', embed: () => Promise.reject(new Error('not called')) } as unknown as Parameters<typeof ChunkVectors.restore>[1];

  test('embeddings: damaged data gives empty vectors, never an error', () => {
    const inputs: unknown[] = [null, 'x', 42, [], { store: null }, { store: { version: 1, model: 'test-embed', ids: 'x' } }, { store: { version: 1, model: 'test-embed', dims: 2, ids: ['a'], hashes: ['h'], vectors: '!!!' } }];
    for (const input of inputs) expect(ChunkVectors.restore(input, embedder).size).toBe(0);
  });

  test('summaries: a damaged, cut short, wrong-shaped or huge file is an empty cache, with its problem told', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-summaries-'));
    try {
      const file = path.join(dir, 'artifact-summaries.json');
      const good = JSON.stringify({ k1: { text: 'A summary.', model: 'local/gpt-4o' }, k2: { text: 'Another.', model: 'local/gpt-4o' } });
      for (const [text, problem] of [
        [good.slice(0, 30), true],
        ['not json', true],
        ['[1,2]', false],
        ['{"k1": 5, "k2": {"text": 1}, "k3": {"text": "kept", "model": "m"}}', false],
      ] as const) {
        writeFileSync(file, text);
        const told: string[] = [];
        const cache = new SummaryCache(fileSummaryStore(file, (m) => told.push(m)));
        const key = 'k3';
        const found = await cache.get(key);
        expect(found?.text ?? null).toBe(text.includes('"kept"') ? 'kept' : null);
        expect(told.length > 0).toBe(problem);
      }
      const huge = await readPluginJson('artifact-summaries.json', { size: () => Promise.resolve(PLUGIN_FILE_LIMITS['artifact-summaries.json'] + 1), read: () => Promise.resolve('{}') });
      expect(huge.problem).toMatch(/over the/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

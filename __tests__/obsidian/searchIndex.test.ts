import { TFile, type EventRef, type FileManager, type Vault } from 'obsidian';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ObsidianVaultSearch, type SearchHost, type SemanticChoice } from '../../src/obsidian/searchIndex';
import { readSavedIndex } from '../../src/core/search/savedIndex';
import type { ProviderServer } from '../../testing/providerServer';
import { createEmbedder } from '../../src/providers/embeddings';
import { recordingSleep } from '../providers/helpers';
import { pluginId } from '../../workbench/vaultCopy';
import { startWorkbenchApp, type WorkbenchApp } from '../helpers/workbenchApp';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

/**
 * The vault search as the plugin runs it, over the workbench's Vault (a copy of examples/vault on
 * disk): built at start, kept current by the vault's own events, saved in the plugin folder and
 * restored by the next start without re-indexing unchanged notes.
 */
let wb: WorkbenchApp;
let vault: Vault;
let cleanups: Array<() => void>;
let statusTexts: string[];

function host(): SearchHost {
  const app = wb.app as unknown as SearchHost['app'];
  return {
    app,
    manifest: { id: pluginId(), dir: `${app.vault.configDir}/plugins/${pluginId()}` } as SearchHost['manifest'],
    registerEvent: (ref: EventRef) => cleanups.push(() => app.vault.offref(ref)),
    register: (cb: () => unknown) => cleanups.push(() => void cb()),
    addStatusBarItem: () => ({ setText: (t: string) => statusTexts.push(t), remove: () => statusTexts.push('removed') }) as unknown as HTMLElement,
  };
}

beforeEach(async () => {
  wb = await startWorkbenchApp();
  vault = wb.app.vault as unknown as Vault;
  cleanups = [];
  statusTexts = [];
});
afterEach(async () => {
  for (const cleanup of cleanups) cleanup();
  await wb.close();
});

const paths = async (search: ObsidianVaultSearch, query: string): Promise<string[]> => (await search.search(query, { k: 5, perNote: 1 })).map((h) => h.path);

test('built at start (chat folder left out), kept current on create, modify, rename and delete', async () => {
  const search = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }));
  search.start();
  expect((await paths(search, 'polycarbonate greenhouse'))[0]).toBe('Projects/Greenhouse/Plan.md');
  expect(search.lastBuild?.indexed).toBeGreaterThan(5);

  await vault.createFolder('Strata/Chats').catch(() => undefined);
  await vault.create('Strata/Chats/Old chat.md', 'We spoke about marmalade oranges.');
  const note = await vault.create('Notes/Jam.md', '# Jam\n\nSeville oranges make the best marmalade.');
  await search.settled();
  expect(await paths(search, 'marmalade')).toEqual(['Notes/Jam.md']);

  await vault.modify(note, '# Jam\n\nApricot jam needs less sugar.');
  await search.settled();
  expect(await paths(search, 'marmalade')).toEqual([]);
  expect(await paths(search, 'apricot')).toEqual(['Notes/Jam.md']);

  await (wb.app.fileManager as unknown as FileManager).renameFile(note, 'Notes/Preserves.md');
  await search.settled();
  expect(await paths(search, 'apricot')).toEqual(['Notes/Preserves.md']);

  await (wb.app.fileManager as unknown as FileManager).trashFile(vault.getAbstractFileByPath('Notes/Preserves.md')!);
  await search.settled();
  expect(await paths(search, 'apricot')).toEqual([]);
});

test('saved in the plugin folder; the next start re-reads only what changed while it was off', async () => {
  const first = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }));
  first.start();
  await first.settled();
  const file = join(wb.vaultDir, vault.configDir, 'plugins', pluginId(), 'search-index.json');
  expect(existsSync(file)).toBe(true);
  expect(readSavedIndex(readFileSync(file, 'utf8'))).toHaveProperty('fingerprint');
  const notes = first.lastBuild!.notes;
  for (const cleanup of cleanups.splice(0)) cleanup();

  const second = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }));
  second.start();
  await second.settled();
  expect(second.lastBuild).toMatchObject({ indexed: 0, unchanged: notes, readToCompare: 0 });
  for (const cleanup of cleanups.splice(0)) cleanup();

  // Other settings: the saved index is not reused.
  const third = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats', 'Daily'] }));
  third.start();
  await third.settled();
  expect(third.lastBuild!.indexed).toBe(notes - 2);
  expect(await paths(third, 'polycarbonate greenhouse')).toContain('Projects/Greenhouse/Plan.md');
});

test("a big vault shows the build's progress in the status bar, then removes it", async () => {
  await vault.createFolder('Bulk');
  for (let i = 0; i < 120; i++) await vault.create(`Bulk/Note ${String(i).padStart(3, '0')}.md`, `Bulk note ${i} about item ${i}.`);
  const search = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }), { progressFrom: 100 });
  search.start();
  await search.settled();
  const total = search.lastBuild!.notes;
  expect(total).toBeGreaterThan(120);
  expect(statusTexts).toEqual([`Indexing notes for search: 50 of ${total}`, `Indexing notes for search: 100 of ${total}`, ...(total > 150 ? [`Indexing notes for search: 150 of ${total}`] : []), 'removed']);
  // A small vault shows nothing.
  statusTexts = [];
  for (const cleanup of cleanups.splice(0)) cleanup();
  const small = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats', 'Bulk'] }), { progressFrom: 100 });
  small.start();
  await small.settled();
  expect(statusTexts).toEqual([]);
});

describe('semantic search in the plugin', () => {
  let server: ProviderServer;
  useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

  const choice = (model = 'text-embedding-3-small', batchSize = 16): SemanticChoice => ({
    embedder: createEmbedder({ id: 'openai', kind: 'openai', model, baseUrl: `${server.url}/v1`, secretId: 'key' }, { getSecret: () => 'sk-test', fetch, sleep: recordingSleep().sleep }),
    key: `openai|${model}`,
    batchSize,
  });
  const embedCalls = (): number => server.requests.filter((r) => r.api === 'openai-embeddings').length;
  const vectorsFile = (): string => join(wb.vaultDir, vault.configDir, 'plugins', pluginId(), 'search-vectors.json');

  test('on: every section is embedded in the background and saved; a paraphrase finds its note; the next start embeds nothing', async () => {
    await vault.create('Notes/Mechanic.md', '# Mechanic\n\nRepair the automobile brakes before the winter.');
    let wanted: SemanticChoice = null;
    const search = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }), { semantic: () => wanted });
    search.start();
    await search.settled();
    expect(search.semanticState()).toEqual({ state: 'off' });
    expect(await paths(search, 'fix car')).not.toContain('Notes/Mechanic.md');

    wanted = choice();
    search.settingsChanged();
    search.settingsChanged.flush();
    await search.embedded();
    await search.embedded();
    const state = search.semanticState();
    expect(state).toMatchObject({ state: 'on', model: 'text-embedding-3-small', embedding: false, error: null });
    if (state.state !== 'on') throw new Error('not on');
    expect(state.embedded).toBe(state.chunks);
    expect(state.spend.tokens).toBeGreaterThan(100);
    expect(existsSync(vectorsFile())).toBe(true);
    expect(await paths(search, 'fix car')).toContain('Notes/Mechanic.md');

    // An edit re-embeds that note's section only.
    server.reset();
    const mechanic = vault.getAbstractFileByPath('Notes/Mechanic.md');
    if (!(mechanic instanceof TFile)) throw new Error('Notes/Mechanic.md is not a file');
    await vault.modify(mechanic, '# Mechanic\n\nRepair the automobile brakes and the tyres before the winter.');
    await search.embedded();
    expect(server.requests.filter((r) => r.api === 'openai-embeddings').map((r) => (r.body as { input: string[] }).input)).toEqual([[expect.stringContaining('and the tyres')]]);
    for (const cleanup of cleanups.splice(0)) cleanup();

    server.reset();
    const again = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }), { semantic: () => choice() });
    again.start();
    await again.embedded();
    expect(embedCalls()).toBe(0);
    expect(again.semanticState()).toMatchObject({ state: 'on', embedded: state.chunks });
  });

  test('a provider that fails is announced once (no key in it) and search answers by words; a setting problem stops embedding and is shown', async () => {
    const notices: string[] = [];
    let wanted: SemanticChoice = choice('text-embedding-3-small', 4);
    const search = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }), { semantic: () => wanted, notify: (m) => notices.push(m) });
    server.injectFault({ kind: 'status', status: 503, times: 1000 });
    search.start();
    await search.embedded();
    await search.embedded();
    expect(notices).toHaveLength(1);
    expect(notices[0]).toMatch(/^Strata semantic search: .*503/s);
    expect(notices[0]).not.toContain('sk-test');
    expect(search.semanticState()).toMatchObject({ state: 'on', embedded: 0, error: expect.stringMatching(/503/) });
    expect((await paths(search, 'polycarbonate greenhouse'))[0]).toBe('Projects/Greenhouse/Plan.md');

    server.reset();
    wanted = { problem: 'No embedding model is set.' };
    search.settingsChanged();
    search.settingsChanged.flush();
    await search.embedded();
    expect(search.semanticState()).toEqual({ state: 'problem', problem: 'No embedding model is set.' });
    await paths(search, 'fix car');
    expect(embedCalls()).toBe(0);
  });
});

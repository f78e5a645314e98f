import type { EventRef, Vault } from 'obsidian';
import { ObsidianVaultSearch, type SearchHost } from '../../src/obsidian/searchIndex';
import { pluginId } from '../../workbench/vaultCopy';
import { startWorkbenchApp, type WorkbenchApp } from '../helpers/workbenchApp';

/**
 * Vault QA over canvases (issue 31): the plugin's vault search, over the workbench's Vault (a copy
 * of examples/vault), indexes a canvas as its text (its cards, never its JSON), keeps it current on
 * modify, and leaves out a canvas that is not valid JSON Canvas.
 */
let wb: WorkbenchApp;
let cleanups: Array<() => void>;

function host(): SearchHost {
  const app = wb.app as unknown as SearchHost['app'];
  return {
    app,
    manifest: { id: pluginId(), dir: `${app.vault.configDir}/plugins/${pluginId()}` } as SearchHost['manifest'],
    registerEvent: (ref: EventRef) => cleanups.push(() => app.vault.offref(ref)),
    register: (cb: () => unknown) => cleanups.push(() => void cb()),
    addStatusBarItem: () => ({ setText: () => undefined, remove: () => undefined }) as unknown as HTMLElement,
  };
}

beforeEach(async () => {
  wb = await startWorkbenchApp();
  cleanups = [];
});
afterEach(async () => {
  for (const cleanup of cleanups) cleanup();
  await wb.close();
});

test('a canvas is searched as its text and kept current; a malformed one is left out', async () => {
  const vault = wb.app.vault as unknown as Vault;
  const search = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }));
  search.start();
  const hits = await search.search('late frost risk', { k: 3, perNote: 1 });
  expect(hits[0].path).toBe('Projects/Greenhouse/Board.canvas');
  expect(hits[0].text).toContain('Risk: late frost in March');
  expect(hits[0].text).not.toContain('"nodes"');

  const board = vault.getFileByPath('Projects/Greenhouse/Board.canvas')!;
  await vault.modify(board, JSON.stringify({ nodes: [{ id: 'a', type: 'text', text: 'Marmalade oranges from Seville', x: 0, y: 0, width: 10, height: 10 }] }));
  await search.settled();
  expect((await search.search('marmalade', { k: 3, perNote: 1 })).map((h) => h.path)).toEqual(['Projects/Greenhouse/Board.canvas']);

  await vault.modify(board, '{"nodes": [');
  await search.settled();
  expect(await search.search('marmalade', { k: 3, perNote: 1 })).toEqual([]);
});

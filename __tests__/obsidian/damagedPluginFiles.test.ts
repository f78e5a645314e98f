import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { EventRef } from 'obsidian';
import { ObsidianVaultSearch, type SearchHost } from '../../src/obsidian/searchIndex';
import { pluginSummaryStore } from '../../src/obsidian/summaryStore';
import { SummaryCache } from '../../src/core/planning/summaryCache';
import { pluginId } from '../../workbench/vaultCopy';
import { startWorkbenchApp, type WorkbenchApp } from '../helpers/workbenchApp';

/**
 * Issue 26, finding 6, in the plugin's own code over the workbench's Vault: a damaged search index
 * file (cut short, not JSON, another version, mutated) is rebuilt from the notes with one notice,
 * and a damaged artifact-summaries.json is an empty cache with a notice. Neither throws.
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
    addStatusBarItem: () => ({ setText: () => {}, remove: () => {} }) as unknown as HTMLElement,
  };
}

const pluginDir = () => join(wb.vaultDir, (wb.app.vault as unknown as { configDir: string }).configDir, 'plugins', pluginId());

beforeEach(async () => {
  wb = await startWorkbenchApp();
  cleanups = [];
  mkdirSync(pluginDir(), { recursive: true });
});
afterEach(async () => {
  for (const cleanup of cleanups) cleanup();
  await wb.close();
});

test.each([
  ['cut short', (saved: string) => saved.slice(0, saved.length / 3), 'damaged'],
  ['not JSON', () => '\u0000\u0001 not an index', 'damaged'],
  ['another version', (saved: string) => saved.replace(/"version":\d+/, '"version":999'), 'written by another version'],
  // The notes are saved as sections, each the JSON of up to 1,000 notes (savedIndex.ts).
  ['mutated entries', (saved: string) => saved.replace('"ids":[', '"ids":["x",'), 'damaged'],
])('a search index file %s: rebuilt from the notes, with a notice', async (_name, damage, words) => {
  const first = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }));
  first.start();
  await first.settled();
  for (const cleanup of cleanups.splice(0)) cleanup();
  const file = join(pluginDir(), 'search-index.json');
  writeFileSync(file, damage(readFileSync(file, 'utf8')));
  const notified: string[] = [];
  const search = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }), { notify: (m) => notified.push(m) });
  search.start();
  await search.settled();
  expect(search.lastBuild!.indexed).toBeGreaterThan(5);
  expect((await search.search('polycarbonate greenhouse', { k: 3 })).map((h) => h.path)).toContain('Projects/Greenhouse/Plan.md');
  expect(notified).toHaveLength(1);
  expect(notified[0]).toContain(words);
  // Saved again whole: the next start restores it without a notice.
  for (const cleanup of cleanups.splice(0)) cleanup();
  const again: string[] = [];
  const next = new ObsidianVaultSearch(host(), () => ({ excludedFolders: ['Strata/Chats'] }), { notify: (m) => again.push(m) });
  next.start();
  await next.settled();
  expect(next.lastBuild!.indexed).toBe(0);
  expect(again).toEqual([]);
});

test('a damaged artifact-summaries.json: an empty cache and a notice', async () => {
  writeFileSync(join(pluginDir(), 'artifact-summaries.json'), '{"k": {"text": "cut sh');
  const notified: string[] = [];
  const cache = new SummaryCache(pluginSummaryStore(host(), (m) => notified.push(m)));
  expect(await cache.get('k')).toBeUndefined();
  expect(notified.join('\n')).toMatch(/artifact-summaries\.json is not valid JSON/);
});

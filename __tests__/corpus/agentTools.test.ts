/**
 * The agent's read-only tools (issue 14) over a real vault of the shared corpus (tasks-docs): the
 * filesystem host, a real VaultIndex, each tool on notes people actually wrote.
 */
import path from 'node:path';
import { FsVault } from '../../src/node/fsVault';
import { fsToolHost } from '../../src/node/toolHost';
import { VaultIndex } from '../../src/core/search/vaultIndex';
import { SourceCatalog } from '../../src/core/agent/sourceCatalog';
import { AGENT_TOOLS, runToolCall } from '../../src/core/agent/toolbox';
import type { ToolContext } from '../../src/core/agent/tool';
import { CORPUS } from '../helpers/paths';

const VAULT = path.join(CORPUS, 'tasks-docs');

let ctx: ToolContext;
beforeAll(async () => {
  const vault = new FsVault(VAULT);
  const index = new VaultIndex(vault);
  await index.build({ pause: () => Promise.resolve() });
  ctx = { host: fsToolHost({ vault, search: index, hidden: ['Strata'] }), signal: new AbortController().signal, sources: new SourceCatalog() };
}, 120_000);

async function ok(name: string, args: Record<string, unknown>): Promise<string> {
  const result = await runToolCall({ id: name, name, args }, AGENT_TOOLS, ctx);
  expect([result.isError, result.content.slice(0, 300)]).toEqual([false, result.content.slice(0, 300)]);
  return result.content;
}

test('listFolder of the root: the top folders with note counts, then the top notes', async () => {
  const lines = (await ok('listFolder', { depth: 1 })).split('\n');
  expect(lines[0]).toMatch(/^Contents of the vault: \d+ notes \(depth 1\)\.$/);
  expect(lines).toEqual(expect.arrayContaining(['Introduction.md', 'Quick Reference.md']));
  const folders = lines.slice(1).filter((l) => l.includes('/'));
  expect(folders.map((l) => l.replace(/\/ \(\d+ notes?\)$/, ''))).toEqual(expect.arrayContaining(['Advanced', 'Editing', 'Getting Started', 'Queries', 'Reference']));
  // Folders first, then notes.
  const firstNote = lines.findIndex((l, i) => i > 0 && !l.includes('/'));
  expect(lines.slice(firstNote).every((l) => !l.endsWith(')'))).toBe(true);
  const deeper = (await ok('listFolder', {})).split('\n');
  expect(deeper).toContain('  Dates.md');
});

test('readNote by basename, and one heading section with its sub-headings', async () => {
  const whole = await ok('readNote', { path: 'Dates' });
  expect(whole.split('\n')[0]).toMatch(/^Getting Started\/Dates\.md \(lines 1-\d+ of \d+\)$/);
  expect(whole).toContain('# Dates');
  const section = await ok('readNote', { path: 'Dates', heading: 'Track task histories' });
  const lines = section.split('\n');
  expect(lines[0]).toMatch(/^Getting Started\/Dates\.md \(lines 107-\d+ of \d+\)$/);
  expect(lines[1]).toBe('## Track task histories');
  expect(lines).toContain('### Created date');
  expect(lines).toContain('#### Adding Created date to tasks');
  expect(lines).toContain('### Cancelled date');
  expect(lines).not.toContain('## Finding mistakes in dates on task lines');
});

test('findByTag of a tag the vault uses', async () => {
  expect(await ok('findByTag', { tag: '#feature/statuses' })).toBe(
    [
      '3 notes are tagged #feature/statuses (nested tags included):',
      '- Getting Started/Statuses/About Statuses.md',
      '- How To/Style custom statuses.md',
      '- Reference/Status Collections/About Status Collections.md',
    ].join('\n'),
  );
  const feature = (await ok('findByTag', { tag: 'feature' })).split('\n');
  expect(feature).toContain('- How To/How to style backlinks.md (#feature/backlinks)');
});

test('getBacklinks of a much-linked note', async () => {
  const lines = (await ok('getBacklinks', { path: 'Filters' })).split('\n');
  const count = /^(\d+) notes link to Queries\/Filters\.md:$/.exec(lines[0]);
  expect(count).not.toBeNull();
  expect(Number(count?.[1])).toBeGreaterThanOrEqual(10);
  expect(lines).toHaveLength(Number(count?.[1]) + 1);
  // Each with the line that links to it.
  const quoted = lines.slice(1).filter((l) => /^- .+\.md \(line \d+\): .*(\[\[[^\]]*Filters|Filters\.md)/.test(l));
  expect(quoted.length).toBeGreaterThanOrEqual(10);
});

test('localSearch returns numbered sources, and a second search continues the numbering', async () => {
  const first = await ok('localSearch', { query: 'how do I set a due date on a task', k: 5 });
  const sources = [...first.matchAll(/^\[(\d+)\] (.+)$/gm)].map((m) => Number(m[1]));
  expect(sources.length).toBeGreaterThan(0);
  expect(sources).toEqual(sources.map((_, i) => i + 1));
  expect(first).toMatch(/^\[\d+\] Getting Started\/Dates\.md/m);
  const second = await ok('localSearch', { query: 'recurring tasks every week', k: 5 });
  const next = [...second.matchAll(/^\[(\d+)\] (.+)$/gm)].map((m) => Number(m[1]));
  expect(next.length).toBeGreaterThan(0);
  const all = ctx.sources.all();
  expect(all.length).toBeGreaterThan(sources.length);
  expect(Math.max(...next)).toBe(all.length);
});

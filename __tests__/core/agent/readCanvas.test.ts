/**
 * The agent's readNote reads a canvas by its path as its text rendering (issue 31), with line
 * ranges like a note; a malformed canvas is an error result that says what is wrong. Real files, the
 * real tool host and tool runner.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost } from '../../../src/node/toolHost';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { SourceCatalog } from '../../../src/core/agent/sourceCatalog';
import { AGENT_TOOLS, runToolCall } from '../../../src/core/agent/toolbox';
import { VAULT } from '../../helpers/paths';

let dir: string;
let run: (args: Record<string, unknown>) => Promise<{ isError: boolean; content: string }>;

beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-canvas-read-'));
  cpSync(path.join(VAULT, 'Projects'), path.join(dir, 'Projects'), { recursive: true });
  writeFileSync(path.join(dir, 'Broken.canvas'), '{"nodes": [');
  const vault = new FsVault(dir);
  const index = new VaultIndex(vault, { excludedFolders: [] });
  await index.build({ pause: () => Promise.resolve() });
  const host = fsToolHost({ vault, search: index, hidden: ['Strata'], allowLocalAddresses: false });
  run = async (args) => runToolCall({ id: 'c1', name: 'readNote', args }, AGENT_TOOLS, { host, signal: new AbortController().signal, sources: new SourceCatalog() });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('a canvas path reads the canvas as text, with line ranges', async () => {
  const whole = await run({ path: 'Projects/Greenhouse/Board.canvas' });
  expect(whole.isError).toBe(false);
  expect(whole.content.split('\n')[0]).toMatch(/^Projects\/Greenhouse\/Board\.canvas \(lines 1-\d+ of \d+\)$/);
  expect(whole.content).toContain('File [plan] (in Group "Build" [group-build]): [[Projects/Greenhouse/Plan.md]]');
  expect(whole.content).toContain('- Plan [plan] → Ventilation [vents] (needs)');
  expect(whole.content).not.toContain('"nodes"');
  const first = await run({ path: 'Projects/Greenhouse/Board.canvas', startLine: 1, endLine: 1 });
  expect(first.content).toBe('Projects/Greenhouse/Board.canvas (lines 1-1 of 25)\nCanvas Projects/Greenhouse/Board.canvas: 7 nodes, 4 edges. Nodes in reading order (top to bottom, left to right).');
});

test('a malformed canvas is an error that says what is wrong', async () => {
  const bad = await run({ path: 'Broken.canvas' });
  expect(bad.isError).toBe(true);
  expect(bad.content).toMatch(/^Error: Broken\.canvas is not a valid JSON Canvas file: the JSON does not parse/);
});

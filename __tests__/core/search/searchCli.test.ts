import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { ProviderServer } from '../../../testing/providerServer';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';
import { readSavedIndex } from '../../../src/core/search/savedIndex';

const ROOT = path.join(__dirname, '..', '..', '..');
const VAULT = path.join(__dirname, 'fixtures', 'vault');

function run(args: string[]): { status: number | null; stdout: string; stderr: string } {
  const out = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'search.ts'), ...args], { encoding: 'utf8', timeout: 60000 });
  return { status: out.status, stdout: out.stdout, stderr: out.stderr };
}

describe('npm run search', () => {
  test('--format json prints an array of { path, heading, score, snippet }, best first', () => {
    const out = run(['watering tomatoes', '--vault', VAULT, '--k', '3', '--format', 'json']);
    expect(out.status).toBe(0);
    const rows = JSON.parse(out.stdout) as Array<Record<string, unknown>>;
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.length).toBeLessThanOrEqual(3);
    for (const row of rows) {
      expect(Object.keys(row)).toEqual(['path', 'heading', 'score', 'snippet']);
      expect(typeof row.path).toBe('string');
      expect(typeof row.heading).toBe('string');
      expect(typeof row.score).toBe('number');
      expect(typeof row.snippet).toBe('string');
    }
    expect(rows[0]).toMatchObject({ path: 'Garden/Tomatoes.md', heading: 'Watering' });
    const scores = rows.map((r) => r.score as number);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    // The same run gives the same output.
    expect(run(['watering tomatoes', '--vault', VAULT, '--k', '3', '--format', 'json']).stdout).toBe(out.stdout);
  });

  test('the table names the note and heading path; --exclude leaves a folder out', () => {
    const out = run(['tomatoes compost', '--vault', VAULT, '--exclude', 'Garden']);
    expect(out.status).toBe(0);
    expect(out.stdout).not.toContain('Garden/');
    expect(out.stdout).toContain('Strata/Chats.md › A saved chat');
  });

  test('--index keeps the index in a file that the next run reuses', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-search-'));
    try {
      const file = path.join(dir, 'index.json');
      const first = run(['sourdough', '--vault', VAULT, '--index', file, '--stats']);
      expect(first.status).toBe(0);
      expect(JSON.parse(first.stderr)).toMatchObject({ restored: false, indexed: 10 });
      expect(readSavedIndex(readFileSync(file, 'utf8'))).toHaveProperty('version');
      const second = run(['sourdough', '--vault', VAULT, '--index', file, '--stats']);
      expect(JSON.parse(second.stderr)).toMatchObject({ restored: true, indexed: 0, unchanged: 10, readToCompare: 0 });
      expect(second.stdout).toBe(first.stdout);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('clear errors for a missing folder, no query, or a bad option', () => {
    const missing = run(['tomatoes', '--vault', path.join(VAULT, 'no-such-folder')]);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toContain('vault folder not found');
    const noQuery = run(['--vault', VAULT]);
    expect(noQuery.status).toBe(2);
    expect(noQuery.stderr).toContain('no query given');
    const noVault = run(['tomatoes']);
    expect(noVault.stderr).toContain('--vault DIR is required');
    expect(run(['tomatoes', '--vault', VAULT, '--k', '0']).stderr).toContain('--k must be a whole number');
    expect(run(['tomatoes', '--vault', VAULT, '--format', 'xml']).stderr).toContain('--format must be json or table');
  });
});

describe('npm run search with semantic search', () => {
  let server: ProviderServer;
  useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

  // Async: the local provider server runs in this process, so the CLI must not block it.
  const runAsync = (args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
    new Promise((resolve) => {
      execFile(process.execPath, [path.join(ROOT, 'node_modules', 'tsx', 'dist', 'cli.mjs'), path.join(ROOT, 'scripts', 'search.ts'), ...args], { encoding: 'utf8', timeout: 60000 }, (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
      );
    });
  const embedInputs = (): string[][] => server.requests.filter((r) => r.api === 'openai-embeddings').map((r) => (r.body as { input: string[] }).input);

  test('--embed-url and --embed-model embed the vault and fuse the ranking; --vectors keeps the embeddings for the next run', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-vectors-'));
    try {
      const vectors = path.join(dir, 'vectors.json');
      const args = ['--vault', VAULT, '--k', '3', '--format', 'json', '--embed-url', `${server.url}/v1`, '--embed-model', 'text-embedding-3-small', '--vectors', vectors, '--stats'];
      const first = await runAsync(['watering tomatoes', ...args]);
      expect(first.code).toBe(0);
      expect((JSON.parse(first.stdout) as Array<{ path: string }>)[0].path).toBe('Garden/Tomatoes.md');
      expect(first.stderr).toMatch(/"embedded":(\d+),"chunks":\1,"spend":"[\d,]+ embedding tokens, <\$0\.0001"/);
      expect(embedInputs().length).toBeGreaterThan(1);
      expect(JSON.parse(readFileSync(vectors, 'utf8'))).toMatchObject({ version: 1, store: { model: 'text-embedding-3-small' } });

      server.reset();
      const second = await runAsync(['watering tomatoes', ...args]);
      expect(second.code).toBe(0);
      expect(second.stdout).toBe(first.stdout);
      // Only the question is embedded: the vault's sections come from the file.
      expect(embedInputs()).toEqual([['watering tomatoes']]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a half-given endpoint is a usage error; an endpoint that keeps failing is an error naming its status', async () => {
    const half = await runAsync(['tomatoes', '--vault', VAULT, '--embed-url', `${server.url}/v1`]);
    expect(half.code).toBe(2);
    expect(half.stderr).toContain('needs both --embed-url URL and --embed-model MODEL');
    server.injectFault({ kind: 'status', status: 503, times: 100 });
    const down = await runAsync(['watering tomatoes', '--vault', VAULT, '--k', '1', '--format', 'json', '--embed-url', `${server.url}/v1`, '--embed-model', 'm']);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/503/);
  });
});

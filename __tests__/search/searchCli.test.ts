import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
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
      expect(JSON.parse(readFileSync(file, 'utf8'))).toHaveProperty('version');
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

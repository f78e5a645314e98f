import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseScenario, ScenarioError } from '../../src/core/scenario/scenario';
import { SHARED } from '../helpers/engineHarness';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '..', '..');
const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');
const SCENARIOS = readdirSync(path.join(SHARED, 'scenarios')).filter((f) => f.endsWith('.json'));

async function inspect(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(TSX, [path.join(ROOT, 'scripts', 'inspect.ts'), ...args], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 });
}

describe('the prompt inspector CLI', () => {
  it('finds the shared scenarios', () => {
    expect(SCENARIOS).toEqual(expect.arrayContaining(['research-session.json', 'edited-note.json', 'long-chat.json']));
  });

  it.each(SCENARIOS)('replays %s as JSON lines with the stable fields', async (file) => {
    const scenario = parseScenario(JSON.parse(readFileSync(path.join(SHARED, 'scenarios', file), 'utf8')), file);
    const { stdout } = await inspect([path.join(SHARED, 'scenarios', file)]);
    const lines = stdout.trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(scenario.turns.length);
    lines.forEach((line, i) => {
      expect(line.turn).toBe(i + 1);
      const messages = line.messages as Array<{ role: string; content: string }>;
      expect(messages[0].role).toBe('system');
      expect(messages[messages.length - 1].role).toBe('user');
      expect(messages[messages.length - 1].content.endsWith(scenario.turns[i].user)).toBe(true);
      for (const m of messages) expect(typeof m.content).toBe('string');
      const layers = line.layers as Record<string, { tokens: number; hash: string }>;
      expect(Object.keys(layers)).toEqual(['L1', 'L2', 'L3', 'L4', 'L5']);
      for (const l of Object.values(layers)) {
        expect(Number.isInteger(l.tokens)).toBe(true);
        expect(l.hash).toMatch(/^[0-9a-f]{64}$/);
      }
      expect(line.promptTokens).toBeGreaterThan(0);
      expect(line).toHaveProperty('prefixChange');
      // The default rendering never breaks the prefix on these scenarios.
      expect(line.prefixChange).toBeNull();
    });
  });

  it('prints a table with tokens per layer and the edited note reported', async () => {
    const { stdout } = await inspect([path.join(SHARED, 'scenarios', 'edited-note.json'), '--format', 'table']);
    expect(stdout).toMatch(/turn\s+L1\s+L2\s+L3\s+L4\s+L5\s+prompt/);
    expect(stdout).toContain('turn 2: full: Getting Started/Priority.md@2; freshness: Getting Started/Priority.md updated (v1 → v2)');
    expect(stdout).toContain('turn 3: by reference: Getting Started/Priority.md');
  });

  it('is deterministic: two runs print the same bytes', async () => {
    const file = path.join(SHARED, 'scenarios', 'research-session.json');
    const [a, b] = await Promise.all([inspect([file]), inspect([file])]);
    expect(a.stdout).toBe(b.stdout);
  });

  it('the seed rendering names its prefix breaks', async () => {
    const { stdout } = await inspect([path.join(SHARED, 'scenarios', 'research-session.json'), '--rendering', 'seed']);
    const reasons = stdout.trim().split('\n').map((l) => (JSON.parse(l) as { prefixChange: string | null }).prefixChange);
    expect(reasons[0]).toBeNull();
    expect(reasons).toContain('library-grew');
    for (const r of reasons) expect([null, 'library-grew', 'history-context-dropped']).toContain(r);
  });

  it('fails clearly on bad input', async () => {
    await expect(inspect([])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: inspect') });
    await expect(inspect(['nope.json'])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('cannot read scenario nope.json') });
    await expect(inspect([path.join(SHARED, 'scenarios', 'edited-note.json'), '--format', 'xml'])).rejects.toMatchObject({ code: 2 });
  });

  it('the demo runs offline through the local provider server and reports cache hits', async () => {
    const env = { ...process.env };
    delete env.STRATA_BASE_URL;
    const { stdout } = await run(TSX, [path.join(ROOT, 'scripts', 'demo.ts')], { cwd: ROOT, env });
    expect(stdout).toContain('Strata demo');
    expect(stdout).toMatch(/6 turns, \d+ prompt tokens/);
    expect(stdout).toContain('What the provider reported, per turn:');
    const share = /served from cache (\d+) \((\d+) %\)/.exec(stdout);
    expect(Number(share?.[1])).toBeGreaterThan(0);
    expect(Number(share?.[2])).toBeGreaterThanOrEqual(50);
  });
});

describe('scenario validation', () => {
  it('names the turn and field that is wrong', () => {
    expect(() => parseScenario({ name: 'x', turns: [] })).toThrow(ScenarioError);
    expect(() => parseScenario({ name: 'x', turns: [{ user: 'hi', context: [{ nope: 1 }] }] })).toThrow(/turns\[0\]\.context\[0\]: expected one of note/);
    expect(() => parseScenario({ name: 'x', turns: [{ user: 'hi', edits: [{ note: 'a.md' }] }] })).toThrow(/turns\[0\]\.edits\[0\]: needs append or replace/);
    expect(() => parseScenario({ name: 'x', turns: [{ user: 3 }] })).toThrow(/turns\[0\]\.user: required string/);
  });

  it('defaults the model and keeps optional fields', () => {
    const s = parseScenario({ name: 'x', turns: [{ user: 'hi', context: [{ selection: { note: 'a.md', fromLine: 1, toLine: 2 } }], remove: ['b.md'] }] });
    expect(s.model).toBe('gpt-4o');
    expect(s.turns[0]).toMatchObject({ context: [{ kind: 'selection', path: 'a.md', fromLine: 1, toLine: 2 }], remove: ['b.md'] });
  });
});

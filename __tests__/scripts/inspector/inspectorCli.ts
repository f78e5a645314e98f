import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { InspectCompaction } from '../../../src/core/scenario/inspectFormat';
import { parseScenario } from '../../../src/core/scenario/scenario';
import { ROOT } from '../../helpers/paths';

export const run = promisify(execFile);
export const TSX = path.join(ROOT, 'node_modules', '.bin', 'tsx');

/** The prompt inspector CLI, as `npm run inspect` runs it. */
export async function inspect(args: string[]): Promise<{ stdout: string; stderr: string }> {
  return run(TSX, [path.join(ROOT, 'scripts', 'inspect.ts'), ...args], { cwd: ROOT, maxBuffer: 256 * 1024 * 1024 });
}

/** The fields every JSON line has had since the first inspector, in their order: a user-facing contract. */
export const RECORD_FIELDS = ['turn', 'model', 'messages', 'layers', 'promptTokens', 'prefixHash', 'prefixChange', 'prefixChangeDetail', 'full', 'referenced', 'freshness', 'unresolved', 'removed', 'reply'];

/** One JSON line as the budget adds to it. */
export interface BudgetedLine {
  turn: number;
  messages: Array<{ role: string; content: string }>;
  promptTokens: number;
  prefixChange: string | null;
  budget: { tokens: number; threshold: number } | null;
  compactions: InspectCompaction[];
}

export function parseLines(stdout: string): BudgetedLine[] {
  return stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as BudgetedLine);
}

/**
 * Replays a scenario file through the CLI (under the default budget) and checks the stable fields
 * of every JSON line: the record's fields first, in order, then the budget and the compactions.
 */
export async function expectStableJsonLines(file: string): Promise<void> {
  const scenario = parseScenario(JSON.parse(readFileSync(file, 'utf8')), path.basename(file));
  const { stdout } = await inspect([file]);
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
    // A planned turn (a large tool output near the budget) adds its `plan` last; the record's own fields keep their order.
    const keys = Object.keys(line);
    expect(keys).toEqual([...RECORD_FIELDS, 'budget', 'compactions', ...(keys.includes('plan') ? ['plan'] : [])]);
    const budget = line.budget as { tokens: number; threshold: number };
    expect(line.promptTokens).toBeLessThanOrEqual(budget.tokens);
    // The default rendering never breaks the prefix on these scenarios, but to condense (named).
    expect(line.prefixChange).toBe((line.compactions as unknown[]).length > 0 ? 'condensed' : null);
  });
}

/** The seed rendering (system = L1 + L2) breaks the prefix when the library grows, and says so. */
export async function expectSeedBreaksNamed(file: string): Promise<void> {
  const { stdout } = await inspect([file, '--rendering', 'seed']);
  const reasons = stdout.trim().split('\n').map((l) => (JSON.parse(l) as { prefixChange: string | null }).prefixChange);
  expect(reasons[0]).toBeNull();
  expect(reasons).toContain('library-grew');
  for (const r of reasons) expect([null, 'library-grew', 'history-context-dropped']).toContain(r);
}

/** Two runs print the same bytes. */
export async function expectDeterministic(file: string): Promise<void> {
  const [a, b] = await Promise.all([inspect([file]), inspect([file])]);
  expect(a.stdout).toBe(b.stdout);
}

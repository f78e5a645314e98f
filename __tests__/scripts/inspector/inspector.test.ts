import { readdirSync } from 'node:fs';
import path from 'node:path';
import { parseScenario, ScenarioError } from '../../../src/core/scenario/scenario';
import { ROOT, SCENARIOS } from '../../helpers/paths';
import { expectDeterministic, expectSeedBreaksNamed, expectStableJsonLines, inspect, run, TSX } from './inspectorCli';

// The inspector over the project's own scenarios; __tests__/corpus/inspector.test.ts runs it over
// the shared ones.
const FILES = readdirSync(SCENARIOS).filter((f) => f.endsWith('.json'));
const DEMO = path.join(SCENARIOS, 'demo.json');
const RESEARCH = path.join(SCENARIOS, 'research.json');

describe('the prompt inspector CLI', () => {
  it("finds the project's scenarios", () => {
    expect(FILES).toEqual(expect.arrayContaining(['demo.json', 'research.json', 'long-chat.json']));
  });

  it.each(FILES)('replays %s as JSON lines with the stable fields', (file) => expectStableJsonLines(path.join(SCENARIOS, file)));

  it('prints a table with tokens per layer and the edited note reported', async () => {
    const { stdout } = await inspect([DEMO, '--format', 'table']);
    expect(stdout).toMatch(/turn\s+L1\s+L2\s+L3\s+L4\s+L5\s+prompt/);
    expect(stdout).toContain('turn 4: full: Projects/Greenhouse/Plan.md@2; freshness: Projects/Greenhouse/Plan.md updated (v1 → v2)');
    expect(stdout).toContain('turn 5: full: Reading/The Market Gardener.md#L9-L13@1, folder:Projects/Greenhouse@1; by reference: Projects/Greenhouse/Climate log.md');
  });

  it('is deterministic: two runs print the same bytes', () => expectDeterministic(RESEARCH));

  it.each(['anthropic'])('--agent %s (the other APIs: __tests__/core/agent/agentChat.test.ts): each turn\'s loop steps with the cached share of each', async (api) => {
    const { stdout } = await inspect([path.join(SCENARIOS, 'agent.json'), '--agent', api]);
    const turns = stdout.trim().split('\n').map((line) => JSON.parse(line) as { turn: number; api: string; steps: Array<{ calls: string[]; promptTokens: number; inputTokens: number; cachedTokens: number; cachedShare: number }>; reply: string });
    expect(turns.map((t) => [t.turn, t.api, t.steps.map((s) => s.calls.join(',') || 'answer')])).toEqual([
      [1, api, ['localSearch', 'readNote', 'listFolder', 'getBacklinks', 'answer']],
      [2, api, ['readNote', 'answer']],
    ]);
    const first = turns[0].steps;
    expect(first[0].cachedTokens).toBe(0);
    // From the third step on, all but the newest result comes from the cache.
    for (const step of first.slice(2)) expect(step.cachedShare).toBeGreaterThan(0.9);
    for (const step of first) expect(step.promptTokens).toBeGreaterThan(0);
    expect(turns[0].reply).toContain('Tools used: localSearch, readNote, listFolder, getBacklinks.');
    await expect(inspect([path.join(SCENARIOS, 'agent.json'), '--agent', 'claude'])).rejects.toMatchObject({ code: 2 });
  });

  it('the seed rendering names its prefix breaks', () => expectSeedBreaksNamed(RESEARCH));

  it('fails clearly on bad input', async () => {
    await expect(inspect([])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('usage: inspect') });
    await expect(inspect(['nope.json'])).rejects.toMatchObject({ code: 1, stderr: expect.stringContaining('cannot read scenario nope.json') });
    await expect(inspect([DEMO, '--format', 'xml'])).rejects.toMatchObject({ code: 2 });
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

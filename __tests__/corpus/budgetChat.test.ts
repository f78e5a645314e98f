import path from 'node:path';
import { SHARED_SCENARIOS } from '../helpers/paths';
import { inspect, parseLines, type BudgetedLine } from '../scripts/inspector/inspectorCli';

// Issue 11's done-when: `npm run inspect -- ../shared/scenarios/budget-chat.json` replays all 140
// turns (gpt-3.5-turbo: a 16,385-token window, 4,096 reserved for the reply) with every request
// inside the budget.
const BUDGET_CHAT = path.join(SHARED_SCENARIOS, 'budget-chat.json');
const BUDGET = { tokens: 12_289, threshold: 9_831 };
// The turn whose note the scenario edits (turn 50 appends to Editing/Postponing.md).
const EDIT_TURN = 50;

/** Every request inside the budget; a named break (condensed) exactly where a compaction happened, and nowhere else. */
function expectInsideBudget(lines: readonly BudgetedLine[], from = 0): void {
  for (const line of lines.slice(from)) {
    expect(line.budget).toEqual(BUDGET);
    expect(line.promptTokens).toBeLessThanOrEqual(BUDGET.tokens);
    expect(line.prefixChange).toBe(line.compactions.length > 0 ? 'condensed' : null);
  }
}

describe('budget-chat.json through the prompt inspector', () => {
  let normal: { stdout: string };
  let lines: BudgetedLine[];
  beforeAll(async () => {
    normal = await inspect([BUDGET_CHAT]);
    lines = parseLines(normal.stdout);
  });

  it('replays all 140 turns with every request inside the 12,289-token budget', () => {
    expect(lines).toHaveLength(140);
    expect(lines.map((l) => l.turn)).toEqual(Array.from({ length: 140 }, (_, i) => i + 1));
    expectInsideBudget(lines);
    const compactions = lines.flatMap((l) => l.compactions);
    expect(compactions.length).toBeGreaterThanOrEqual(5);
    for (const c of compactions) expect(c.kind).toBe('summary');
  });

  it('between compactions each request extends the previous one, message for message', () => {
    for (let i = 1; i < lines.length; i++) {
      if (lines[i].compactions.length > 0) continue;
      const before = lines[i - 1].messages;
      expect(lines[i].messages.slice(0, before.length)).toEqual(before);
    }
  });

  it('without a budget the same chat reaches about 55k tokens; without summaries it still fits', async () => {
    const [unbounded, omitted] = await Promise.all([inspect([BUDGET_CHAT, '--no-budget']), inspect([BUDGET_CHAT, '--no-summary'])]);
    expect(Math.max(...parseLines(unbounded.stdout).map((l) => l.promptTokens))).toBeGreaterThan(50_000);
    const o = parseLines(omitted.stdout);
    expectInsideBudget(o);
    expect(o.flatMap((l) => l.compactions).every((c) => c.kind === 'omitted')).toBe(true);
  });

  it('is deterministic: a second run prints the same bytes', async () => {
    expect((await inspect([BUDGET_CHAT])).stdout).toBe(normal.stdout);
  });

  it('the table ends with the budget: none over it', async () => {
    const { stdout } = await inspect([BUDGET_CHAT, '--format', 'table']);
    expect(stdout).toMatch(/Budget 12,289 tokens \(window 16,385 − 4,096 reserved\), condensing over 9,831: largest request [\d,]+ tokens \(turn \d+\), none over the budget, \d+ compactions\./);
    expect(stdout).toMatch(/^turn \d+: condensed \(auto, (threshold|over-budget)\): turns 1-\d+ summarized/m);
  });

  // Needs compactions saved in the chat note (codec + rehydrate): until that lands, the reloaded
  // chat forgets its compaction and condenses again on the next turn.
  it('--reload-every-turn prints what the unbroken session does, across compactions', async () => {
    const reloaded = parseLines((await inspect([BUDGET_CHAT, '--reload-every-turn'])).stdout);
    expect(reloaded).toHaveLength(lines.length);
    // Up to the note edited between save and load: identical, compactions included.
    for (let i = 0; i < EDIT_TURN - 1; i++) expect(reloaded[i]).toEqual(lines[i]);
    // The edited note: the reopened chat finds it changed since the save and says so (as without a budget).
    expect(reloaded[EDIT_TURN - 1].prefixChange).toBe('note-edited');
    expectInsideBudget(reloaded, EDIT_TURN);
  }, 300_000);
});

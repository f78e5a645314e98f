import path from 'node:path';
import { ROOT } from '../../helpers/paths';
import { inspect, parseLines, RECORD_FIELDS, type BudgetedLine } from './inspectorCli';

// The inspector's budget over the project's own long chat (bench/scenarios/budget-greenhouse.json:
// 64 turns on gpt-3.5-turbo, a 203-line tool output, a manual condense before turn 44).
const GREENHOUSE = path.join(ROOT, 'bench', 'scenarios', 'budget-greenhouse.json');
const MANUAL_TURN = 44;
// gpt-3.5-turbo's window (16,385) less the settings' default reply reserve (4,096); 80 % of it.
const BUDGET = { tokens: 12_289, threshold: 9_831 };

const fmt = (n: number) => n.toLocaleString('en-US');

describe('the prompt inspector keeps a long chat inside its budget', () => {
  let budgeted: BudgetedLine[];
  let budgetedText: string;
  let unbounded: BudgetedLine[];
  let unboundedText: string;
  let omitted: BudgetedLine[];
  let table: string;
  beforeAll(async () => {
    const [a, b, c, d] = await Promise.all([
      inspect([GREENHOUSE]),
      inspect([GREENHOUSE, '--no-budget']),
      inspect([GREENHOUSE, '--no-summary']),
      inspect([GREENHOUSE, '--format', 'table']),
    ]);
    budgetedText = a.stdout;
    budgeted = parseLines(a.stdout);
    unboundedText = b.stdout;
    unbounded = parseLines(b.stdout);
    omitted = parseLines(c.stdout);
    table = d.stdout;
  });

  it('honours the model window and the default reply reserve: every request fits 12,289 tokens', () => {
    expect(budgeted).toHaveLength(64);
    for (const line of budgeted) {
      expect(line.budget).toEqual(BUDGET);
      expect(line.promptTokens).toBeLessThanOrEqual(BUDGET.tokens);
    }
    // Unbounded, the same chat needs more than twice the budget.
    expect(Math.max(...unbounded.map((l) => l.promptTokens))).toBeGreaterThan(2 * BUDGET.tokens);
  });

  it('reports each compaction on the turn it precedes, as the one named prefix break', () => {
    const events = budgeted.flatMap((l) => l.compactions.map((c) => ({ turn: l.turn, ...c })));
    expect(events.length).toBeGreaterThanOrEqual(3);
    for (const line of budgeted) expect(line.prefixChange).toBe(line.compactions.length > 0 ? 'condensed' : null);
    let through = 0;
    for (const e of events) {
      expect(Object.keys(e)).toEqual(['turn', 'trigger', 'reason', 'through', 'previous', 'kind', 'turnsDropped', 'outputsMasked', 'tokensBefore', 'tokensAfter', 'summary']);
      // Each compaction folds in the previous one and drops the turns after it.
      expect(e.previous).toBe(through);
      expect(e.through).toBeGreaterThan(e.previous);
      expect(e.through).toBeLessThan(e.turn);
      expect(e.turnsDropped).toBe(e.through - e.previous);
      through = e.through;
      expect(e.kind).toBe('summary');
      expect(e.summary).toEqual({ provider: 'offline', model: 'gpt-3.5-turbo', usage: { inputTokens: 0, outputTokens: 0, cachedReadTokens: 0, cacheWriteTokens: 0 }, calls: 0 });
      expect(e.tokensAfter).toBeLessThan(e.tokensBefore);
      expect(e.tokensAfter).toBeLessThanOrEqual(BUDGET.tokens);
      if (e.trigger === 'manual') expect(e.reason).toBe('manual');
      else expect(e.reason).toBe(e.tokensBefore > BUDGET.tokens ? 'over-budget' : 'threshold');
      // An automatic compaction is measured on the request then sent; a manual one before the message is known.
      if (e.trigger === 'auto') expect(budgeted[e.turn - 1].promptTokens).toBe(e.tokensAfter);
      else expect(budgeted[e.turn - 1].promptTokens).toBeGreaterThan(e.tokensAfter);
    }
    expect(events.filter((e) => e.trigger === 'manual').map((e) => e.turn)).toEqual([MANUAL_TURN]);
    expect(events.some((e) => e.reason === 'threshold')).toBe(true);
    // The 203-line tool output of turn 42 is kept by the manual condense, masked to head and tail.
    expect(events.find((e) => e.trigger === 'manual')?.outputsMasked).toBe(1);
    const manual = budgeted[MANUAL_TURN - 1].messages.map((m) => m.content).join('\n');
    expect(manual).toMatch(/\[\.\.\. \d+ lines truncated \.\.\.\]/);
  });

  it('keeps the record\'s fields first and byte for byte; --no-budget is the replay as it was', () => {
    for (const [lines, text] of [
      [budgeted, budgetedText],
      [unbounded, unboundedText],
    ] as const) {
      text
        .trim()
        .split('\n')
        .forEach((raw, i) => {
          const line = lines[i] as unknown as Record<string, unknown>;
          // A planned turn adds its `plan` last (issue 15); the record's own fields keep their order.
          const keys = Object.keys(line);
          expect(keys).toEqual([...RECORD_FIELDS, 'budget', 'compactions', ...(keys.includes('plan') ? ['plan'] : [])]);
          const record = Object.fromEntries(RECORD_FIELDS.map((k) => [k, line[k]]));
          expect(raw.startsWith(`${JSON.stringify(record).slice(0, -1)},"budget":`)).toBe(true);
        });
    }
    for (const line of unbounded) {
      expect(line.budget).toBeNull();
      expect(line.compactions).toEqual([]);
      expect(line.prefixChange).toBeNull();
    }
    // Until the first compaction the budget changes nothing that is sent.
    const first = budgeted.findIndex((l) => l.compactions.length > 0);
    expect(first).toBeGreaterThan(0);
    for (let i = 0; i < first; i++) expect(budgeted[i].messages).toEqual(unbounded[i].messages);
  });

  it('--no-summary omits condensed turns with a marker, inside the same budget', () => {
    const events = omitted.flatMap((l) => l.compactions);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(e.kind).toBe('omitted');
      expect(e.fallback).toBe('summaries are off');
      expect(e.summary).toBeNull();
    }
    for (const line of omitted) expect(line.promptTokens).toBeLessThanOrEqual(BUDGET.tokens);
    const after = omitted.find((l) => l.compactions.length > 0) as BudgetedLine;
    expect(after.messages.map((m) => m.content).join('\n')).toMatch(/\[\d+ earlier messages omitted\]/);
  });

  it('the table names each compaction and ends with the budget', () => {
    expect(table).toMatch(/turn\s+L1\s+L2\s+L3\s+L4\s+L5\s+prompt/);
    for (const line of budgeted) {
      for (const c of line.compactions) {
        const why = c.trigger === 'manual' ? 'manual' : `auto, ${c.reason}`;
        expect(table).toContain(
          `turn ${line.turn}: condensed (${why}): turns 1-${c.through} summarized, ${c.through - c.previous} newly dropped` +
            `${c.outputsMasked ? `, ${String(c.outputsMasked)} output${c.outputsMasked === 1 ? '' : 's'} masked` : ''}; ${fmt(c.tokensBefore)} → ${fmt(c.tokensAfter)} tokens`,
        );
      }
    }
    const largest = budgeted.reduce((a, b) => (b.promptTokens > a.promptTokens ? b : a));
    const count = budgeted.reduce((n, l) => n + l.compactions.length, 0);
    expect(table).toContain(
      `Budget 12,289 tokens (window 16,385 − 4,096 reserved), condensing over 9,831: largest request ${fmt(largest.promptTokens)} tokens (turn ${largest.turn}), none over the budget, ${count} compactions.`,
    );
  });
});

describe('the inspector\'s budget options', () => {
  const budgetOf = async (args: string[]) => {
    const lines = parseLines((await inspect([GREENHOUSE, ...args])).stdout);
    for (const line of lines) expect(line.promptTokens).toBeLessThanOrEqual((line.budget as { tokens: number }).tokens);
    return { budget: lines[0].budget, compactions: lines.reduce((n, l) => n + l.compactions.length, 0) };
  };

  it('--window overrides the model window, --reserve the reply reserve, --max-context caps both', async () => {
    const [wide, reserve, capped] = await Promise.all([budgetOf(['--window', '20000']), budgetOf(['--reserve', '2000']), budgetOf(['--max-context', '10000'])]);
    expect(wide.budget).toEqual({ tokens: 20_000 - 4_096, threshold: Math.floor((20_000 - 4_096) * 0.8) });
    expect(reserve.budget).toEqual({ tokens: 16_385 - 2_000, threshold: Math.floor((16_385 - 2_000) * 0.8) });
    expect(capped.budget).toEqual({ tokens: 10_000, threshold: 8_000 });
    // A larger budget condenses less often; a smaller one more.
    expect(wide.compactions).toBeLessThan(capped.compactions);
  });

  it('rejects bad values and budget options without a budget', async () => {
    await expect(inspect([GREENHOUSE, '--window', 'big'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('--window takes a positive whole number of tokens') });
    await expect(inspect([GREENHOUSE, '--reserve', '0'])).rejects.toMatchObject({ code: 2 });
    await expect(inspect([GREENHOUSE, '--no-budget', '--max-context', '9000'])).rejects.toMatchObject({ code: 2, stderr: expect.stringContaining('drop --max-context') });
  });
});

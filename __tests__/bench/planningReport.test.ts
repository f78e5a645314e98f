import { PromptContextEngine } from '../../src/core/engine/engine';
import type { ReplayedTurn } from '../../src/core/scenario/replay';
import type { PlanRecord } from '../../src/core/conversation/records/plan';
import { planningRow } from '../../bench/planning/section';
import { shortAndReopenCpuRatios, shortAndReopenRatios, wholeTurnTargets } from '../../bench/report/wholeTurn';
import type { WholeTurnRow } from '../../bench/wholeTurn/section';

const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens, cachedReadTokens: 0, cacheWriteTokens: 0 });

function turn(plan: PlanRecord | undefined): ReplayedTurn {
  const engine = new PromptContextEngine();
  const assembly = engine.assemble({ userText: 'Where is it?', items: [], fragments: [{ id: 'system', lifecycle: 'static', text: 'Be brief.' }], model: 'gpt-4o' });
  return { turn: 3, assembly, reply: 'There.', ...(plan ? { plan } : {}), expected: [{ note: 'A.md', heading: 'Start', reached: true }, { note: 'B.md', heading: 'End', reached: false }] };
}

describe('planning bench rows', () => {
  test('new decisions by strategy, kept ones and this turn\'s sections apart; planner and summary calls apart', () => {
    const row = planningRow(
      turn({
        reason: 'near-budget',
        detail: '',
        planner: 'llm',
        roomTokens: 4000,
        decisions: [
          { id: 'A.md', type: 'note', title: 'A', strategy: 'summarize', priority: 1, rationale: '', by: 'llm', kept: false, fullTokens: 9000, tokens: 600 },
          { id: 'B.md', type: 'note', title: 'B', strategy: 'exclude', priority: 2, rationale: '', by: 'llm', kept: false, fullTokens: 3000, tokens: 0 },
          { id: 'C.md', type: 'note', title: 'C', strategy: 'rag_extract', priority: 1, rationale: '', by: 'llm', kept: true, fullTokens: 5000, tokens: 800 },
          { id: 'C.md#planExtract', type: 'tool', title: 'C: sections', strategy: 'rag_extract', priority: 0, rationale: '', by: 'heuristic', kept: false, fullTokens: 5000, tokens: 350 },
        ],
        calls: [
          { kind: 'planner', provider: 'local', model: 'gpt-4o-mini', usage: usage(1500, 200), cost: 0.0004 },
          { kind: 'summary', provider: 'local', model: 'gpt-3.5-turbo', usage: usage(7000, 500), cost: null },
        ],
        cache: { hits: 0, misses: 1 },
      }),
    );
    expect(row).toMatchObject({ turn: 3, reached: 1, expected: 2, reason: 'near-budget', planner: 'llm', supplements: 1, supplementTokens: 350, plannerTokens: 1700, summaryCalls: 1, summaryTokens: 7500, planningCost: 0.0004, cacheMisses: 1 });
    expect(row.decided).toEqual({ include_full: 0, summarize: 1, rag_extract: 0, exclude: 1 });
  });

  test('a turn without a plan: nothing decided, no cost', () => {
    expect(planningRow(turn(undefined))).toMatchObject({ reason: null, planner: null, supplements: 0, plannerTokens: 0, planningCost: null });
  });
});

describe('whole-turn targets', () => {
  const row = (vault: 'cached' | 'uncached', turns: number, nextMs: number, saveMs: number, encodeMs = NaN): WholeTurnRow =>
    ({ vault, turns, nextMs, saveMs, encodeMs, againMs: 1, openMs: 100, firstSendMs: 50, noteBytes: 1, frontmatterBytes: 200, heapMiB: 1 }) as WholeTurnRow;

  test('next and save at the largest chat over the 50-turn one, per vault kind; reopen is open + first send', () => {
    const targets = wholeTurnTargets([row('cached', 10, 1, 1, 1), row('cached', 50, 2, 4, 0.5), row('cached', 1000, 5, 6, 1), row('uncached', 50, 3, 3), row('uncached', 200, 9, 3)]);
    expect(targets).toEqual([
      { vault: 'cached', at: 1000, nextRatio: 2.5, saveRatio: 1.5, encodeRatio: 2, frontmatterBytes: 200, reopenMs: 150 },
      // Rows from before the encode was timed (bench/wholeTurn/before.json): no encode ratio.
      { vault: 'uncached', at: 200, nextRatio: 3, saveRatio: 1, encodeRatio: null, frontmatterBytes: 200, reopenMs: 150 },
    ]);
  });

  test('no 50-turn row: no ratios', () => {
    expect(wholeTurnTargets([row('cached', 10, 1, 1)])[0]).toMatchObject({ nextRatio: null, saveRatio: null });
  });

  test("issue 30's ratios: the next request at 10 over the one at 50, reopen + first send over the next request at N", () => {
    expect(shortAndReopenRatios([row('cached', 10, 1, 1), row('cached', 50, 2, 4), row('cached', 1000, 5, 6), row('uncached', 200, 10, 3)])).toEqual([
      { vault: 'cached', tenRatio: 0.5, reopenRatio: 30 },
      { vault: 'uncached', tenRatio: null, reopenRatio: 15 },
    ]);
  });

  test("issue 30's ratios in CPU time; none for rows measured before CPU time was", () => {
    const cpuRow = (turns: number, nextCpuMs: number, openCpuMs: number, firstSendCpuMs: number): WholeTurnRow => ({ ...row('cached', turns, 1, 1), nextCpuMs, openCpuMs, firstSendCpuMs });
    expect(shortAndReopenCpuRatios([cpuRow(10, 1, 5, 1), cpuRow(50, 2, 5, 1), cpuRow(1000, 4, 30, 2)])).toEqual([{ vault: 'cached', tenCpuRatio: 0.5, reopenCpuRatio: 8 }]);
    expect(shortAndReopenCpuRatios([row('cached', 10, 1, 1), row('cached', 50, 2, 4)])).toEqual([{ vault: 'cached', tenCpuRatio: null, reopenCpuRatio: null }]);
  });
});

import { summarizeGrowth } from '../../bench/growth/section';
import type { CheckpointResult, GrowthRun } from '../../bench/growth/worker';

function checkpoint(turn: number, ms: number): CheckpointResult {
  return {
    turn,
    libraryNotes: turn / 5,
    libraryChars: turn * 900,
    historyChars: turn * 700,
    promptTokens: turn * 400,
    messages: 2 * turn,
    requestChars: turn * 1600,
    tokenizedChars: { next: 1000, warm: 0, cold: turn * 2800 },
    nextWindowTokenizedChars: [1000, 16000, 1000],
    nextWindowNewChars: [100, 5100, 100],
    nextMs: [ms, ms, 50 * ms],
    warmMs: [ms / 2, ms / 2, ms],
    coldMs: [ms * 100],
    heapUsedMiB: 80,
    rssMiB: 200,
  };
}

describe('growth summary', () => {
  const run: GrowthRun = {
    options: { turns: 1000, notes: 200, checkpoints: [10, 100, 1000], warmRuns: 3, coldRuns: [1, 1, 1], nextWindow: 3, model: 'gpt-4o' },
    tokenizerLoadMs: 900,
    corpusChars: 900_000,
    // Times linear in N.
    checkpoints: [checkpoint(10, 1), checkpoint(100, 10), checkpoint(1000, 100)],
    perTurnMs: [],
    peakHeapUsedMiB: 100,
    peakRssMiB: 250,
    gcExposed: true,
    profile: null,
  };

  test('medians, p95 and exponents between consecutive sizes and end to end', () => {
    const g = summarizeGrowth(run);
    expect(g.points.map((p) => p.modes.next.median)).toEqual([1, 10, 100]);
    expect(g.points[0].modes.next.p95).toBe(50);
    expect(g.points[2].modes.warm.median).toBe(50);
    expect(g.exponents.map((e) => `${e.from}->${e.to}`)).toEqual(['10->100', '100->1000', '10->1000']);
    for (const e of g.exponents) {
      expect(e.modes.next).toBeCloseTo(1);
      expect(e.modes.cold).toBeCloseTo(1);
    }
    expect(g.coldOverWarmAtMax).toBe(200);
    expect(g.largestOverSmallest.next).toBe(100);
  });

  test('the heaviest first assembly in the window is paired with its own new content', () => {
    const g = summarizeGrowth(run);
    expect(g.points[0].tokenizedChars.nextMax).toBe(16000);
    expect(g.points[0].nextMaxNewChars).toBe(5100);
  });
});

import { growthPlan, growthReply, growthUserText } from '../../bench/growth/plan';

describe('the synthetic growth conversation', () => {
  const plan = growthPlan(1000, 200);

  test('every note enters exactly once, evenly spread, the first at turn 1', () => {
    const entered = plan.flatMap((t) => t.attach.slice(0, t.newNotes));
    expect(entered).toEqual(Array.from({ length: 200 }, (_, k) => k));
    expect(plan[0].attach[0]).toBe(0);
    const turnsWithNew = plan.filter((t) => t.newNotes > 0).map((t) => t.turn);
    expect(turnsWithNew.slice(0, 3)).toEqual([1, 6, 11]);
    expect(plan.filter((t) => t.turn <= 200).reduce((n, t) => n + t.newNotes, 0)).toBe(40);
  });

  test('re-attached notes are earlier ones, never duplicated within a turn', () => {
    for (const turn of plan) {
      expect(new Set(turn.attach).size).toBe(turn.attach.length);
      const known = plan.slice(0, turn.turn - 1).reduce((n, t) => n + t.newNotes, 0);
      for (const k of turn.attach.slice(turn.newNotes)) expect(k).toBeLessThan(known);
    }
    expect(plan[1].attach).toEqual([0]);
    // Two distinct earlier notes as soon as two are known (turn 7: notes 0 and 1 entered at turns 1 and 6).
    expect(plan.slice(6).every((t) => t.attach.length - t.newNotes === 2)).toBe(true);
  });

  test('deterministic, including texts', () => {
    expect(growthPlan(1000, 200)).toEqual(plan);
    expect(growthUserText(7, 'Filters')).toBe(growthUserText(7, 'Filters'));
    const source = 'abcdefghij'.repeat(200);
    expect(growthReply(3, source)).toHaveLength(600);
    expect(growthReply(3, source)).toBe(growthReply(3, source));
    expect(growthReply(3, 'short')).toBe('short');
  });

  test('bad sizes are errors', () => {
    expect(() => growthPlan(0, 10)).toThrow(/turns/);
    expect(() => growthPlan(10, -1)).toThrow(/notes/);
  });
});

import { EXPENSIVE_INPUT_PRICE, FIT_BUFFER, LARGE_ARTIFACT_CHARS, SMALL_TOTAL_CHARS, shouldPlan, type ShouldPlanInput } from '../../../src/core/planning/shouldPlan';
import { textArtifact } from './plannerFixtures';
import type { Artifact } from '../../../src/core/planning/types';

/** An artifact of exactly `chars` characters of words (a run of one letter is the tokenizer's slowest case). */
function sized(id: string, chars: number, extra: Partial<Artifact> = {}): Artifact {
  return textArtifact(id, 'plan the week '.repeat(Math.ceil(chars / 14)).slice(0, chars), extra);
}

const BUDGET = 10_000;

function verdict(over: Partial<ShouldPlanInput> & { tokens?: number }) {
  const { tokens = 1_000, ...rest } = over;
  let asked = 0;
  const result = shouldPlan({
    undecided: [],
    decided: [],
    historicalTools: () => 0,
    requestTokens: () => {
      asked += 1;
      return tokens;
    },
    budgetTokens: BUDGET,
    expensiveModel: false,
    ...rest,
  });
  return { ...result, asked };
}

/** The largest request that still "fits": with the 30 % buffer, inside the budget. */
const FITS = Math.floor(BUDGET / (1 + FIT_BUFFER));

describe('should we plan? (seed 004, each row at its boundary)', () => {
  test('no artifacts: no; every artifact already decided: no', () => {
    expect(verdict({})).toMatchObject({ plan: false, reason: 'no-artifacts' });
    expect(verdict({ decided: [sized('a.md', 50_000)] })).toMatchObject({ plan: false, reason: 'all-decided' });
  });

  test('under 5,000 characters in all: no, without measuring the request; at 5,000: the next rows decide', () => {
    const small = verdict({ undecided: [sized('a.md', SMALL_TOTAL_CHARS - 1)], tokens: 50_000 });
    expect(small).toMatchObject({ plan: false, reason: 'small', asked: 0 });
    expect(verdict({ undecided: [sized('a.md', 2_500), sized('b.md', 2_500)], tokens: 50_000 })).toMatchObject({ plan: true, reason: 'near-budget', asked: 1 });
  });

  test('fits with a 30 % buffer on a cheap model: no; one token more: near the budget, yes', () => {
    const undecided = [sized('a.md', 6_000)];
    expect(verdict({ undecided, tokens: FITS })).toMatchObject({ plan: false, reason: 'fits' });
    const near = verdict({ undecided, tokens: FITS + 1 });
    expect(near).toMatchObject({ plan: true, reason: 'near-budget' });
    expect(near.detail).toMatch(/near the 10,000-token budget/);
    expect(verdict({ undecided, tokens: BUDGET + 1 }).detail).toMatch(/over the 10,000-token budget/);
  });

  test('fits, but the model is expensive: the rows below decide (a large artifact first)', () => {
    expect(verdict({ undecided: [sized('a.md', LARGE_ARTIFACT_CHARS)], tokens: FITS, expensiveModel: true })).toMatchObject({ plan: true, reason: 'expensive-model' });
    expect(verdict({ undecided: [sized('a.md', LARGE_ARTIFACT_CHARS + 1)], tokens: FITS, expensiveModel: true })).toMatchObject({ plan: true, reason: 'large-artifact' });
  });

  test('historical tool results in the conversation: yes (when it fits on an expensive model and nothing is large)', () => {
    const undecided = [sized('a.md', 6_000)];
    expect(verdict({ undecided, historicalTools: () => 2, tokens: FITS, expensiveModel: true })).toMatchObject({ plan: true, reason: 'historical-tools' });
    expect(verdict({ undecided, historicalTools: () => 0, tokens: FITS, expensiveModel: true })).toMatchObject({ plan: true, reason: 'expensive-model' });
  });

  test('expensive means from $10 per million input tokens', () => {
    expect(EXPENSIVE_INPUT_PRICE * 1_000_000).toBe(10);
  });
});

/**
 * The planner's raw answer to a plan: an object from a tool call or JSON in text (fenced, with
 * prose around), unknown ids dropped, a repeated id keeping its first decision, left-out artifacts
 * reported, missing focus and query filled with the question, and a PlanError saying what is wrong
 * with an answer that is no JSON or off-schema.
 */
import { PlanError } from '../../../src/core/planning/planError';
import { validatePlan } from '../../../src/core/planning/validatePlan';

const ARTIFACTS = [{ id: 'a.md' }, { id: 'b.md' }, { id: 'tool:2:1' }];
const QUESTION = 'How do the vents open?';

const entry = (id: string, strategy: string, priority: number, extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  artifact_id: id,
  strategy,
  priority,
  rationale: `about ${id}`,
  focus: null,
  query: null,
  ...extra,
});

const GOOD = {
  artifacts: [
    entry('a.md', 'include_full', 1),
    entry('b.md', 'summarize', 2, { focus: 'the vent openers' }),
    entry('tool:2:1', 'rag_extract', 3, { query: 'wax cylinder' }),
  ],
  reasoning: 'a is central; b is long; the search output has the facts.',
};

describe('validatePlan: accepted answers', () => {
  test.each([
    ['an object (a tool call)', GOOD],
    ['JSON text', JSON.stringify(GOOD)],
    ['JSON in a ```json fence', `\`\`\`json\n${JSON.stringify(GOOD, null, 2)}\n\`\`\``],
    ['a fence with prose around', `Here is the plan:\n\`\`\`\n${JSON.stringify(GOOD)}\n\`\`\`\nHope it helps.`],
    ['prose around bare JSON', `Sure. ${JSON.stringify(GOOD)} That is all.`],
  ])('%s', (_name, raw) => {
    const result = validatePlan(raw, ARTIFACTS, QUESTION);
    expect(result.plan).toEqual({
      decisions: [
        { id: 'a.md', strategy: 'include_full', priority: 1, rationale: 'about a.md' },
        { id: 'b.md', strategy: 'summarize', priority: 2, rationale: 'about b.md', focus: 'the vent openers' },
        { id: 'tool:2:1', strategy: 'rag_extract', priority: 3, rationale: 'about tool:2:1', query: 'wax cylinder' },
      ],
      reasoning: GOOD.reasoning,
    });
    expect(result).toMatchObject({ unknown: [], duplicates: [], missing: [] });
  });

  test('an unknown id is dropped and reported', () => {
    const raw = { ...GOOD, artifacts: [...GOOD.artifacts, entry('c.md', 'include_full', 4)] };
    const result = validatePlan(raw, ARTIFACTS, QUESTION);
    expect(result.plan.decisions.map((d) => d.id)).toEqual(['a.md', 'b.md', 'tool:2:1']);
    expect(result.unknown).toEqual(['c.md']);
  });

  test('a repeated id keeps its first decision', () => {
    const raw = { ...GOOD, artifacts: [...GOOD.artifacts, entry('a.md', 'exclude', 9)] };
    const result = validatePlan(raw, ARTIFACTS, QUESTION);
    expect(result.plan.decisions.find((d) => d.id === 'a.md')?.strategy).toBe('include_full');
    expect(result.plan.decisions).toHaveLength(3);
    expect(result.duplicates).toEqual(['a.md']);
  });

  test("artifacts the answer left out get no decision: they are returned as missing, in the artifacts' order", () => {
    const raw = { ...GOOD, artifacts: [GOOD.artifacts[1]] };
    const result = validatePlan(raw, ARTIFACTS, QUESTION);
    expect(result.plan.decisions.map((d) => d.id)).toEqual(['b.md']);
    expect(result.missing).toEqual(['a.md', 'tool:2:1']);
  });

  test('summarize without a focus and rag_extract without a query get the question (null, empty or absent)', () => {
    const { focus: _f, query: _q, ...bare } = entry('tool:2:1', 'rag_extract', 3);
    const raw = { artifacts: [entry('a.md', 'summarize', 1), entry('b.md', 'summarize', 2, { focus: '  ' }), bare], reasoning: 'r' };
    const decisions = validatePlan(raw, ARTIFACTS, `  ${QUESTION}\n`).plan.decisions;
    expect(decisions.map((d) => d.focus ?? d.query)).toEqual([QUESTION, QUESTION, QUESTION]);
  });

  test('focus and query are kept only where their strategy uses them; a rationale is one line', () => {
    const raw = { artifacts: [entry('a.md', 'include_full', 1, { focus: 'x', query: 'y', rationale: 'central\nto the\tquestion ' })], reasoning: 'r' };
    expect(validatePlan(raw, ARTIFACTS, QUESTION).plan.decisions).toEqual([{ id: 'a.md', strategy: 'include_full', priority: 1, rationale: 'central to the question' }]);
  });

  test('an answer without reasoning is accepted (reasoning empty)', () => {
    expect(validatePlan({ artifacts: [entry('a.md', 'exclude', 1)] }, ARTIFACTS, QUESTION).plan.reasoning).toBe('');
  });

  test('the same answer gives the same plan (the answer order is kept)', () => {
    const raw = { ...GOOD, artifacts: [...GOOD.artifacts].reverse() };
    const first = validatePlan(raw, ARTIFACTS, QUESTION);
    expect(validatePlan(raw, ARTIFACTS, QUESTION)).toEqual(first);
    expect(first.plan.decisions.map((d) => d.id)).toEqual(['tool:2:1', 'b.md', 'a.md']);
  });
});

describe('validatePlan: refused answers (PlanError)', () => {
  test.each([
    ['a bad strategy', { ...GOOD, artifacts: [entry('a.md', 'include_some', 1)] }, 'schema', /artifacts\[0\]\.strategy/],
    ['a priority below 1', { ...GOOD, artifacts: [entry('a.md', 'exclude', 0)] }, 'schema', /artifacts\[0\]\.priority/],
    ['a fractional priority', { ...GOOD, artifacts: [entry('a.md', 'exclude', 1.5)] }, 'schema', /artifacts\[0\]\.priority/],
    ['no artifacts list', { reasoning: 'r' }, 'schema', /artifacts/],
    ['an entry without an id', { artifacts: [{ strategy: 'exclude', priority: 1, rationale: 'r' }] }, 'schema', /artifacts\[0\]\.artifact_id/],
    ['a JSON array', JSON.stringify([1, 2]), 'schema', /does not match the schema/],
    ['text that is not JSON', 'I would include a.md in full.', 'invalid-json', /not valid JSON: "I would include a\.md in full\."/],
    ['JSON cut short', '{"artifacts": [{"artifact_id": ', 'invalid-json', /not valid JSON/],
    ['an empty answer', '   ', 'invalid-json', /empty/],
    ['nothing', undefined, 'invalid-json', /empty/],
  ])('%s', (_name, raw, reason, message) => {
    let caught: unknown;
    try {
      validatePlan(raw, ARTIFACTS, QUESTION);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(PlanError);
    expect(caught).toMatchObject({ reason: reason, name: 'PlanError' });
    expect((caught as PlanError).message).toMatch(message);
  });

  test('a long unparseable answer is quoted in short', () => {
    expect(() => validatePlan(`not json ${'x'.repeat(500)}`, ARTIFACTS, QUESTION)).toThrow(/"not json x+…"$/);
  });
});

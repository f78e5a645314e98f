import fc from 'fast-check';
import { TurnFold } from '../../../src/core/chat/turnFold';
import type { ChatTurn } from '../../../src/core/conversation/model';
import type { PlanRecord } from '../../../src/core/conversation/records/plan';
import { addUsage, ZERO_USAGE } from '../../../src/core/usage';

/** The chat state's lists and totals as the fold must give them: walked afresh over every turn. */
function afresh(turns: readonly ChatTurn[]) {
  const last = turns[turns.length - 1];
  const pending = last && last.status !== 'complete' ? last : null;
  const answered: ChatTurn[] = [];
  const unanswered: { afterTurn: number; turn: ChatTurn }[] = [];
  let usage = ZERO_USAGE;
  let cost: number | null = null;
  let planUsage = ZERO_USAGE;
  let planCost: number | null = null;
  let planCalls = 0;
  let lastPlan: PlanRecord | null = null;
  for (const t of turns) {
    if (t.status === 'complete') {
      answered.push(t);
      if (t.usage) usage = addUsage(usage, t.usage);
      if (typeof t.cost === 'number') cost = (cost ?? 0) + t.cost;
      if (t.plan) {
        lastPlan = t.plan;
        for (const c of t.plan.calls) {
          planUsage = addUsage(planUsage, c.usage);
          if (typeof c.cost === 'number') planCost = (planCost ?? 0) + c.cost;
          planCalls++;
        }
      }
    } else if (t !== pending) unanswered.push({ afterTurn: answered.length, turn: t });
  }
  return { answered, unanswered, usage, cost, lastPlan, planUsage, planCost, planCalls };
}

const usage = (n: number) => ({ inputTokens: n, outputTokens: n % 7, cachedReadTokens: n % 3, cacheWriteTokens: 0 });
let made = 0;
function turn(complete: boolean, withPlan: boolean): ChatTurn {
  made++;
  const plan = withPlan
    ? ({ calls: [{ kind: 'planner', provider: 'p', model: 'm', usage: usage(made), cost: made % 2 ? 0.001 * made : null }] } as unknown as PlanRecord)
    : undefined;
  return {
    status: complete ? 'complete' : 'failed',
    text: `q${made}`,
    at: made,
    ...(complete ? { reply: `r${made}`, usage: usage(made * 10), cost: made % 3 ? 0.01 * made : null } : {}),
    ...(plan ? { plan } : {}),
    dynamic: [],
    tools: [],
    referenced: [],
    problems: [],
  } as unknown as ChatTurn;
}

type Op = { type: 'add'; complete: boolean; plan: boolean } | { type: 'answerLast' } | { type: 'edit'; at: number } | { type: 'drop'; count: number };
const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ type: fc.constant('add' as const), complete: fc.boolean(), plan: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ type: fc.constant('answerLast' as const) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('edit' as const), at: fc.nat(20) }) },
  { weight: 1, arbitrary: fc.record({ type: fc.constant('drop' as const), count: fc.integer({ min: 1, max: 3 }) }) },
);

describe('TurnFold: the chat state folded turn by turn equals it walked afresh', () => {
  it('holds while turns are added, answered, edited and dropped', () => {
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const fold = new TurnFold();
        let turns: ChatTurn[] = [];
        for (const o of ops) {
          if (o.type === 'add') turns = [...turns, turn(o.complete, o.plan)];
          else if (o.type === 'answerLast' && turns.length > 0) turns = [...turns.slice(0, -1), turn(true, false)];
          else if (o.type === 'edit' && turns.length > 0) {
            const i = o.at % turns.length;
            turns = turns.map((t, k) => (k === i ? { ...t, text: `${t.text} edited`, usage: usage(999) } : t));
          } else if (o.type === 'drop') turns = turns.slice(0, Math.max(0, turns.length - o.count));
          expect(fold.of(turns)).toEqual(afresh(turns));
        }
      }),
      { numRuns: 300 },
    );
  });
});

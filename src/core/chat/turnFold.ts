import type { ChatTurn } from '../conversation/model';
import type { PlanRecord } from '../conversation/records/plan';
import { addUsage, ZERO_USAGE, type Usage } from '../usage';

/** An unanswered turn (failed or stopped, then the user wrote on) and where it sits. */
export interface UnansweredTurn {
  /** Number of answered turns before it. */
  readonly afterTurn: number;
  readonly turn: ChatTurn;
}

/** What the chat state derives from a list of turns. */
export interface Folded {
  readonly answered: readonly ChatTurn[];
  readonly unanswered: readonly UnansweredTurn[];
  /** The answered turns' usage and cost (a Vault QA turn's query rewrite included). */
  readonly usage: Usage;
  readonly cost: number | null;
  /** The newest answered turn's plan record that has one, and what planning cost over the answered turns. */
  readonly lastPlan: PlanRecord | null;
  readonly planUsage: Usage;
  readonly planCost: number | null;
  readonly planCalls: number;
}

/** The fold so far: over `turns` (every turn but a chat's last), its lists append-only. */
interface Fold {
  turns: ChatTurn[];
  answered: ChatTurn[];
  unanswered: UnansweredTurn[];
  usage: Usage;
  cost: number | null;
  lastPlan: PlanRecord | null;
  planUsage: Usage;
  planCost: number | null;
  planCalls: number;
}

const empty = (): Fold => ({ turns: [], answered: [], unanswered: [], usage: ZERO_USAGE, cost: null, lastPlan: null, planUsage: ZERO_USAGE, planCost: null, planCalls: 0 });

const addCost = (total: number | null, cost: number | null | undefined): number | null => (typeof cost === 'number' ? (total ?? 0) + cost : total);

/** One answered turn into the totals (in turn order, so sums are the same floats as summing afresh). */
function addAnswered(into: Omit<Fold, 'turns' | 'answered' | 'unanswered'>, t: ChatTurn): void {
  if (t.usage) into.usage = addUsage(into.usage, t.usage);
  into.cost = addCost(into.cost, t.cost);
  const rewrite = t.search?.rewrite;
  if (rewrite?.usage) into.usage = addUsage(into.usage, rewrite.usage);
  into.cost = addCost(into.cost, rewrite?.cost);
  if (t.plan) {
    into.lastPlan = t.plan;
    for (const call of t.plan.calls) {
      into.planUsage = addUsage(into.planUsage, call.usage);
      into.planCost = addCost(into.planCost, call.cost);
      into.planCalls++;
    }
  }
}

/**
 * The chat state's lists and totals, folded turn by turn. The state is derived again on every change
 * of the conversation (a turn sent, answered, saved): at 1,000 turns walking them all each time cost
 * milliseconds per change. The fold is kept while the chat only grows (the same turn objects, which
 * are immutable, at the same places); any other change (an edit, a drop) folds again from the start.
 */
export class TurnFold {
  private fold: Fold = empty();

  of(turns: readonly ChatTurn[]): Folded {
    const body = Math.max(0, turns.length - 1);
    if (!this.continues(turns, body)) this.fold = empty();
    const fold = this.fold;
    for (let i = fold.turns.length; i < body; i++) {
      const t = turns[i];
      if (t.status === 'complete') {
        fold.answered.push(t);
        addAnswered(fold, t);
      } else {
        fold.unanswered.push({ afterTurn: fold.answered.length, turn: t });
      }
      fold.turns.push(t);
    }
    // The last turn: answered, or the one being answered (then neither answered nor unanswered).
    const last = turns[turns.length - 1];
    const totals = { usage: fold.usage, cost: fold.cost, lastPlan: fold.lastPlan, planUsage: fold.planUsage, planCost: fold.planCost, planCalls: fold.planCalls };
    const answered = fold.answered.slice();
    if (last?.status === 'complete') {
      answered.push(last);
      addAnswered(totals, last);
    }
    return { answered, unanswered: fold.unanswered.slice(), ...totals };
  }

  private continues(turns: readonly ChatTurn[], body: number): boolean {
    const kept = this.fold.turns;
    if (kept.length > body) return false;
    for (let i = 0; i < kept.length; i++) if (kept[i] !== turns[i]) return false;
    return true;
  }
}

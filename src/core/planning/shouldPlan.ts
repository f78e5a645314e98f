import type { Artifact, ShouldPlan } from './types';
import { formatCount } from './format';

/** Seed 004's thresholds: below this much text in all, planning costs more than it saves. */
export const SMALL_TOTAL_CHARS = 5_000;
/** One artifact this large is worth a plan even when all of it fits. */
export const LARGE_ARTIFACT_CHARS = 10_000;
/** "Fits": the request with everything in full, plus this share, is inside the budget. */
export const FIT_BUFFER = 0.3;
/** A model is expensive from this price per input token (USD): o1, Opus tier (seed 004's question 1). */
export const EXPENSIVE_INPUT_PRICE = 0.00001;

export interface ShouldPlanInput {
  /** Artifacts to decide this turn (new, changed, or re-planned). */
  readonly undecided: readonly Artifact[];
  /** Artifacts already decided (kept). */
  readonly decided: readonly Artifact[];
  /** Tool results of earlier turns that history still sends (counted only when a row needs it: a long chat has many). */
  readonly historicalTools: () => number;
  /** The request's tokens with every undecided artifact in full (asked only when a row needs it). */
  readonly requestTokens: () => number;
  readonly budgetTokens: number;
  /** The chat's model costs at least EXPENSIVE_INPUT_PRICE per input token (false when unknown). */
  readonly expensiveModel: boolean;
}

/**
 * Seed 004's decision table, in this order (each row is checked only when the rows above did not
 * decide): no artifacts → no; all under 5k characters → no; fits with a 30 % buffer on a cheap
 * model → no; near or over the budget → yes; one artifact over 10k characters → yes; tool results
 * from earlier turns → yes; expensive model → yes; otherwise no.
 *
 * Why not the seed's order (historical tool results second, before the size rows): the seed decided
 * once per request of a stateless chat; here the table runs every turn, and every turn of an agent
 * chat after its first has earlier tool results. A "yes" for them that early would call the planner
 * on every turn, and a plan that touched those outputs would rewrite history every turn: a prefix
 * break per turn, the costliest thing a long chat can do (5.6× the lower bound for a per-turn
 * sliding window). Earlier turns' outputs are decided where the prefix breaks anyway: at a
 * compaction, which sends them as digests or summaries, or leaves them out, in the turns it keeps
 * (toolArtifacts.ts) and drops them with the turns it summarizes. So the row stays after the size rows: it only names the reason when new artifacts
 * already fit on an expensive model, where a cheap planner pays for itself either way.
 */
export function shouldPlan(input: ShouldPlanInput): ShouldPlan {
  const { undecided, decided, budgetTokens, expensiveModel } = input;
  if (undecided.length === 0) {
    return decided.length === 0
      ? { plan: false, reason: 'no-artifacts', detail: 'nothing attached and no tool output' }
      : { plan: false, reason: 'all-decided', detail: `every item keeps its decision (${decided.length} kept)` };
  }
  const chars = undecided.reduce((n, a) => n + a.chars, 0);
  if (chars < SMALL_TOTAL_CHARS) {
    return { plan: false, reason: 'small', detail: `the new items are ${formatCount(chars)} characters, under ${formatCount(SMALL_TOTAL_CHARS)}` };
  }
  const requestTokens = input.requestTokens();
  const fits = requestTokens * (1 + FIT_BUFFER) <= budgetTokens;
  if (fits && !expensiveModel) {
    return { plan: false, reason: 'fits', detail: `the request (${formatCount(requestTokens)} tokens) fits the ${formatCount(budgetTokens)}-token budget with a 30 % buffer` };
  }
  if (!fits) {
    return {
      plan: true,
      reason: 'near-budget',
      detail: `with everything in full the request would be ${formatCount(requestTokens)} tokens, ${requestTokens > budgetTokens ? 'over' : 'near'} the ${formatCount(budgetTokens)}-token budget`,
    };
  }
  const large = undecided.find((a) => a.chars > LARGE_ARTIFACT_CHARS);
  if (large) return { plan: true, reason: 'large-artifact', detail: `${large.title} is ${formatCount(large.chars)} characters, over ${formatCount(LARGE_ARTIFACT_CHARS)}` };
  const tools = input.historicalTools();
  if (tools > 0) return { plan: true, reason: 'historical-tools', detail: `${tools} tool result(s) from earlier turns are in the conversation` };
  return { plan: true, reason: 'expensive-model', detail: 'the chat\'s model is expensive: planning on a cheap model pays for itself' };
}

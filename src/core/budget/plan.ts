import type { Compaction } from '../engine/compaction';
import type { PromptContextEngine, TurnInput } from '../engine/engine';
import { maskTurn, type MaskingLimits } from '../engine/masking';
import type { InputBudget } from './budget';

/** What a compaction will do, measured before anything is summarized. */
export interface CompactionPlan {
  /** Turns 1..through are replaced by the summary. */
  readonly through: number;
  /** The previous compaction's boundary (0: none): turns previous+1..through are newly dropped. */
  readonly previous: number;
  /** Kept turns (through+1..maskedThrough) get their large outputs masked. */
  readonly maskedThrough: number;
  readonly keptTurns: number;
  /** Tool outputs and code blocks masked in the kept turns. */
  readonly outputsMasked: number;
  /** The request without a compaction. */
  readonly tokensBefore: number;
  /** The request with it, the summary counted at its reserve. */
  readonly estimatedAfter: number;
  /** Tokens the condensed turns take in the request now: a summary longer than that would make it grow. */
  readonly replaced: number;
}

/** A manual condense that would replace fewer tokens than this is not worth a summary call. */
export const MIN_CONDENSE_TOKENS = 200;

export type PlanOutcome =
  | { readonly ok: true; readonly plan: CompactionPlan }
  /** Nothing left to condense (every earlier turn is already condensed, or there is none). */
  | { readonly ok: false; readonly reason: 'nothing-to-drop'; readonly tokensBefore: number }
  /** Even with all history condensed, the library, the summary and this message exceed the budget. */
  | { readonly ok: false; readonly reason: 'too-large'; readonly tokensBefore: number; readonly minimum: number };

export interface PlanOptions {
  readonly budget: InputBudget;
  readonly masking: MaskingLimits;
  /** Newest messages kept verbatim when they fit under the threshold. */
  readonly keepMessages: number;
  /** Tokens counted for the summary not yet written. */
  readonly summaryReserve: number;
  /** A manual condense keeps only the newest messages, whatever the size; auto aims for the target. */
  readonly trigger: 'auto' | 'manual';
}

/** Tokens kept for a summary not yet written: 8 % of the budget, between 400 and 2,000. */
export function summaryReserve(budget: InputBudget): number {
  return Math.max(400, Math.min(2_000, Math.floor(budget.tokens * 0.08)));
}

/**
 * Choose the boundary: the newest turns are kept verbatim, contiguous from the end, as many as fit
 * the target (half the budget) with the summary and this turn; the first turn from the end that does
 * not fit ends the kept run (an older one is never kept past it). Sizes are measured by assembling
 * the request under each candidate, so library items moving to the carried block and masking count.
 * Size only falls as the boundary moves later, so the search is a bisection.
 */
export function planCompaction(engine: PromptContextEngine, input: TurnInput, options: PlanOptions): PlanOutcome {
  const n = engine.turnCount;
  const current = engine.currentCompaction();
  const previous = current?.through ?? 0;
  const tokensBefore = engine.assemble(input).promptTokens;
  if (n === 0 || previous >= n) return { ok: false, reason: 'nothing-to-drop', tokensBefore };
  const { budget, masking, summaryReserve: reserve } = options;
  const sizes = new Map<number, number>();
  const sizeAt = (through: number): number => {
    let size = sizes.get(through);
    if (size === undefined) {
      const candidate: Compaction = { through, kind: 'summary', text: '', maskedThrough: n, masking };
      size = engine.assemble(input, { compaction: candidate }).promptTokens + reserve;
      sizes.set(through, size);
    }
    return size;
  };
  const first = previous + 1;
  const minimum = sizeAt(n);
  if (minimum > budget.tokens) return { ok: false, reason: 'too-large', tokensBefore, minimum };

  const keepTurns = Math.ceil(Math.max(0, options.keepMessages) / 2);
  let through: number;
  if (options.trigger === 'manual') {
    // The newest messages always stay (a manual condense is never forced by the budget).
    if (n - keepTurns < first) return { ok: false, reason: 'nothing-to-drop', tokensBefore };
    through = n - keepTurns;
    while (through < n && sizeAt(through) > budget.threshold) through++;
  } else {
    // Smallest boundary whose request fits the target.
    let lo = first;
    let hi = n;
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2);
      if (sizeAt(mid) <= budget.target) hi = mid;
      else lo = mid + 1;
    }
    through = lo;
    // The newest messages stay verbatim when that still leaves the request under the threshold.
    for (let t = Math.max(first, n - keepTurns); t < through; t++) {
      if (sizeAt(t) <= budget.threshold) {
        through = t;
        break;
      }
    }
  }
  const replaced = tokensBefore - (sizeAt(through) - reserve);
  if (options.trigger === 'manual' && replaced < MIN_CONDENSE_TOKENS) return { ok: false, reason: 'nothing-to-drop', tokensBefore };
  let outputsMasked = 0;
  for (const turn of engine.completedTurns().slice(through)) outputsMasked += maskTurn(turn, masking).masked;
  return {
    ok: true,
    plan: { through, previous, maskedThrough: n, keptTurns: n - through, outputsMasked, tokensBefore, estimatedAfter: sizeAt(through), replaced },
  };
}

import type { KeptDecision, PlanBook, PlanCall, PlanOverride, PlanRecord } from '../conversation/records/plan';
import { addUsage, ZERO_USAGE, type Usage } from '../usage';

export const EMPTY_PLAN_BOOK: PlanBook = { decisions: [], overrides: [] };

export function keptDecision(book: PlanBook | undefined, id: string): KeptDecision | undefined {
  return book?.decisions.find((d) => d.id === id);
}

export function overrideOf(book: PlanBook | undefined, id: string): PlanOverride | undefined {
  return book?.overrides.find((o) => o.id === id)?.override;
}

/** The book with these decisions kept (replacing earlier ones of the same ids, in place). */
export function withDecisions(book: PlanBook | undefined, decisions: readonly KeptDecision[]): PlanBook {
  const base = book ?? EMPTY_PLAN_BOOK;
  if (decisions.length === 0) return base;
  const byId = new Map(decisions.map((d) => [d.id, d]));
  const kept = base.decisions.map((d) => byId.get(d.id) ?? d);
  const known = new Set(base.decisions.map((d) => d.id));
  return { ...base, decisions: [...kept, ...decisions.filter((d) => !known.has(d.id))] };
}

/** The book with the user's override of `id` set (null: removed); the item is decided again next turn. */
export function withOverride(book: PlanBook | undefined, id: string, override: PlanOverride | null): PlanBook {
  const base = book ?? EMPTY_PLAN_BOOK;
  const overrides = base.overrides.filter((o) => o.id !== id);
  return {
    decisions: base.decisions.filter((d) => d.id !== id),
    overrides: override ? [...overrides, { id, override }] : overrides,
  };
}

/** The book without an item (removed from the library): forgotten, so attaching it again decides it again. */
export function withoutItem(book: PlanBook | undefined, id: string): PlanBook {
  const base = book ?? EMPTY_PLAN_BOOK;
  return { decisions: base.decisions.filter((d) => d.id !== id), overrides: base.overrides.filter((o) => o.id !== id) };
}

/** Calls summed: usage, USD (null when no call had a price) and how many. */
export function sumCalls(calls: readonly PlanCall[]): { usage: Usage; cost: number | null; calls: number } {
  let usage = ZERO_USAGE;
  let cost: number | null = null;
  for (const call of calls) {
    usage = addUsage(usage, call.usage);
    if (typeof call.cost === 'number') cost = (cost ?? 0) + call.cost;
  }
  return { usage, cost, calls: calls.length };
}

/** What planning cost over these turns' records (the planner's and the summaries' calls). */
export function planCost(records: readonly (PlanRecord | undefined)[]): { usage: Usage; cost: number | null; calls: number } {
  return sumCalls(records.flatMap((r) => r?.calls ?? []));
}

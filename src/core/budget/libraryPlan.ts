import type { Compaction } from '../engine/compaction';
import { appendEntries, condensedBlockParts, condensedEntryOf, listedOnly } from '../engine/condensedLibrary';
import type { CondensedEntry, LibraryCondensing } from '../engine/types';
import type { PromptContextEngine, TurnInput } from '../engine/engine';
import type { LibraryItem } from '../engine/types';
import { tokenCounterFor } from '../tokens/tokenCounter';
import type { InputBudget } from './budget';

/**
 * The library's own budget (issue 27). At a compaction, the items the library block carries in full
 * may take at most LIBRARY_SHARE of the budget; past it (or when the request cannot reach the
 * compaction target, or cannot fit at all) one library condensing brings them down to LIBRARY_KEEP,
 * so many compactions append to the block before the next library condensing. Measured on the
 * library-chat bench scenario (a new 2.4 KB note every turn on a 16k model): 0.3/0.15 keeps the
 * compaction target reachable with the newest messages and this turn's note in full, and library
 * condensings come with every third or fourth compaction, in the same break.
 */
export const LIBRARY_SHARE = 0.4;
export const LIBRARY_KEEP = 0.2;
/** The condensed block's share: past it, the block is rewritten with every entry listed by path. */
export const CONDENSED_SHARE = 0.12;
/** A cached summary longer than this is not a compact form: the outline goes instead. */
export const SUMMARY_FORM_TOKENS = 200;

/** The compact form of an item from the summary cache or the summary model (null: its outline goes). */
export type LibrarySummaries = (item: LibraryItem, signal: AbortSignal) => Promise<string | null>;

export interface LibraryPlan {
  readonly next: LibraryCondensing;
  readonly added: readonly CondensedEntry[];
  readonly rewritten: boolean;
  /** The request under the compaction and this condensing, the summary counted at its reserve. */
  readonly estimatedAfter: number;
}

export interface LibraryPlanOptions {
  readonly budget: InputBudget;
  /** The compaction it goes with (its summary not yet written: counted at `reserve`). */
  readonly compaction: Compaction;
  readonly reserve: number;
  /** Condense down to the keep share even when the target is met with fewer (the share was passed). */
  readonly toKeepShare: boolean;
}

/** Tokens the library block carries in full under a compaction through `through` (what LIBRARY_SHARE bounds). */
export function carriedTokens(engine: PromptContextEngine, through: number): number {
  const condensed = engine.condensedIds();
  return engine
    .libraryItems()
    .filter((i) => i.enteredTurn <= through && !condensed.has(i.id))
    .reduce((n, i) => n + i.tokens, 0);
}

/**
 * Items the library block carries under the compaction, least recently used first (the turn that
 * attached or referred to it last; library order between equals): the ones a condensing takes first.
 */
export function condensingOrder(engine: PromptContextEngine, through: number): LibraryItem[] {
  const condensed = engine.condensedIds();
  const lastUse = new Map<string, number>();
  for (const t of engine.completedTurns()) for (const id of t.referenced) lastUse.set(id, t.turn);
  const carried = engine.libraryItems().filter((i) => i.enteredTurn <= through && !condensed.has(i.id));
  const use = (i: LibraryItem) => Math.max(i.enteredTurn, lastUse.get(i.id) ?? 0);
  return carried.map((item, index) => ({ item, index })).sort((a, b) => use(a.item) - use(b.item) || a.index - b.index).map((x) => x.item);
}

/**
 * The smallest library condensing (outlines, oldest first) that brings the request under the
 * compaction target (and the carried items under the keep share when asked); null when the library
 * block carries nothing to condense. When even every item condensed leaves the request over the
 * budget, the condensed block is listed by path (a rewrite). Measured by assembling, as compactions are.
 */
export function planLibraryCondensing(engine: PromptContextEngine, input: TurnInput, options: LibraryPlanOptions): LibraryPlan | null {
  const { budget, compaction, reserve } = options;
  const order = condensingOrder(engine, compaction.through);
  if (order.length === 0) return null;
  const current = engine.currentLibraryCondensing();
  const entries = order.map((item) => condensedEntryOf(item, 'outline'));
  const sizes = new Map<number, number>();
  const candidate = (k: number) => appendEntries(current, entries.slice(0, k));
  const sizeAt = (k: number, c: LibraryCondensing = candidate(k)): number => {
    let size = sizes.get(k);
    if (size === undefined || c !== candidate(k)) {
      size = engine.assemble(input, { compaction, libraryCondensing: c }).promptTokens + reserve;
      if (c === candidate(k)) sizes.set(k, size);
    }
    return size;
  };
  // Carried tokens after condensing the first k: the keep share is met from k on.
  let keepFrom = 0;
  if (options.toKeepShare) {
    let left = order.reduce((n, i) => n + i.tokens, 0);
    while (keepFrom < order.length && left > budget.tokens * LIBRARY_KEEP) left -= order[keepFrom++].tokens;
  }
  // Size only falls as k grows: the smallest k from keepFrom that meets the target.
  let lo = Math.max(1, keepFrom);
  let hi = order.length;
  if (sizeAt(hi) > budget.target) lo = hi;
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (sizeAt(mid) <= budget.target) hi = mid;
    else lo = mid + 1;
  }
  const k = lo;
  let next = candidate(k);
  let rewritten = false;
  let after = sizeAt(k);
  // The condensed block past its share (or the request still over the budget): every entry listed by path.
  const counter = tokenCounterFor(input.model);
  const blockTokens = condensedBlockParts(next).reduce((n, p) => n + counter.count(p), 0);
  if (blockTokens > budget.tokens * CONDENSED_SHARE || after > budget.tokens) {
    const listed = listedOnly(next);
    const listedSize = engine.assemble(input, { compaction, libraryCondensing: listed }).promptTokens + reserve;
    if (listedSize < after) {
      next = listed;
      after = listedSize;
      rewritten = true;
    }
  }
  return { next, added: next.entries.slice(current?.entries.length ?? 0), rewritten, estimatedAfter: after };
}

/**
 * The plan's entries in their final forms: a summary (the cache's, or the summary model's) where one
 * exists and is short, else the outline. The forms are asked after planning, for the items it
 * condenses only; a summary that makes the request pass the budget goes back to the outline.
 */
export async function withSummaries(plan: LibraryPlan, engine: PromptContextEngine, summaries: LibrarySummaries | null, model: string, signal: AbortSignal): Promise<LibraryPlan> {
  if (!summaries || plan.rewritten) return plan;
  const counter = tokenCounterFor(model);
  const byId = new Map(engine.libraryItems().map((i) => [i.id, i]));
  const kept = plan.next.entries.slice(0, plan.next.entries.length - plan.added.length);
  const added: CondensedEntry[] = [];
  for (const e of plan.added) {
    const item = byId.get(e.id);
    let text: string | null = null;
    try {
      text = item ? await summaries(item, signal) : null;
    } catch (error) {
      if (signal.aborted) throw error;
      text = null;
    }
    added.push(item && text && counter.count(text) <= SUMMARY_FORM_TOKENS ? condensedEntryOf(item, 'summary', text) : e);
  }
  return { ...plan, added, next: { ...plan.next, entries: [...kept, ...added] } };
}

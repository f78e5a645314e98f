/**
 * Reciprocal rank fusion: how the vault index merges its lexical ranking with the semantic one
 * (vaultIndex.ts). RRF uses ranks only, so the two scores (BM25-like and cosine) never need
 * calibrating against each other; an item found by both rises above one found by either alone.
 */

/** The usual RRF constant (Cormack et al. 2009): damps the weight of the very first ranks. */
export const DEFAULT_RRF_K = 60;

export interface RankedList<T> {
  readonly items: readonly T[];
  /** Multiplies this list's contributions (default 1). */
  readonly weight?: number;
}

export interface Fused<T> {
  readonly key: string;
  /** The item from the first list that has it. */
  readonly item: T;
  readonly score: number;
}

/**
 * Reciprocal rank fusion: score(d) = Σ weight / (k + rank), rank from 1. Ties: the earlier first
 * appearance (list order, then rank) wins, so the order is deterministic for deterministic inputs.
 */
export function reciprocalRankFusion<T>(lists: readonly RankedList<T>[], keyOf: (item: T) => string, k = DEFAULT_RRF_K): Fused<T>[] {
  const fused = new Map<string, { item: T; score: number; first: number }>();
  let order = 0;
  for (const list of lists) {
    const weight = list.weight ?? 1;
    list.items.forEach((item, index) => {
      const key = keyOf(item);
      const entry = fused.get(key);
      const contribution = weight / (k + index + 1);
      if (entry) entry.score += contribution;
      else fused.set(key, { item, score: contribution, first: order++ });
    });
  }
  return [...fused.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.first - b.first)
    .map(([key, { item, score }]) => ({ key, item, score }));
}

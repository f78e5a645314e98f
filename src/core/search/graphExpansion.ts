/**
 * Query expansion from the note graph: the notes linked with (to or from) the strongest hits get a
 * share of that hit's score, when they match the query themselves. Documentation and well-linked
 * vaults answer one question across a note and the notes it points to; a lone mention elsewhere
 * has no such support. Each note takes its best seed's share only (not a sum), so a hub linked
 * from every hit (a table of contents, a changelog) is not carried to the top.
 */

export interface Neighbours {
  /** Notes `path` links to or is linked from, without itself. */
  neighbours(path: string): readonly string[];
}

/**
 * Bonus per note: `weight` × the score of its best-scoring neighbour among the first `seeds`
 * notes of `best` (note → its best chunk score). Only notes already in `best` get a bonus.
 */
export function linkBonuses(best: ReadonlyMap<string, number>, graph: Neighbours, seeds: number, weight: number): Map<string, number> {
  const bonuses = new Map<string, number>();
  if (weight <= 0 || seeds <= 0) return bonuses;
  const top = [...best].sort(([pa, a], [pb, b]) => b - a || (pa < pb ? -1 : pa > pb ? 1 : 0)).slice(0, seeds);
  for (const [seed, score] of top) {
    for (const other of graph.neighbours(seed)) {
      if (!best.has(other)) continue;
      bonuses.set(other, Math.max(bonuses.get(other) ?? 0, weight * score));
    }
  }
  return bonuses;
}

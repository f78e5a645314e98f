import { rankChunks, type ChunkPlace, type RankedChunk } from './chunkRanking';
import type { TermResult } from './termIndex';

/**
 * rankChunks over only the chunks that can reach the top of the list. A query with a common word
 * matches most of a 25,000-note vault; ranking every match (an object and a sort place each) cost
 * most of a query's time, for a list read ten deep. Each chunk's final score (its own plus a share
 * of its note's best other chunk) is computed in place first; the `keep` best, and the best two of
 * each of their notes (which their scores depend on), go to rankChunks. Every chunk left out scores
 * at most `floor`, so the ranked entries above it are exactly the full ranking's first entries.
 */
export interface PrunedRanking<M extends ChunkPlace> {
  readonly ranked: RankedChunk<M>[];
  /** How many leading entries of `ranked` are certain (the whole list when nothing was left out). */
  readonly exact: number;
}

export function rankPruned<M extends ChunkPlace>(results: TermResult[], chunks: ReadonlyMap<number, M>, noteShare: number, keep: number): PrunedRanking<M> {
  if (results.length <= keep) {
    const ranked = rankChunks(results, chunks, noteShare);
    return { ranked, exact: ranked.length };
  }
  // Each note's two best raw scores, and which results they are.
  const noteOf = new Map<string, number>();
  const note = new Int32Array(results.length);
  const first: number[] = [];
  const second: number[] = [];
  const firstAt: number[] = [];
  const secondAt: number[] = [];
  for (let i = 0; i < results.length; i++) {
    const meta = chunks.get(results[i].id);
    if (!meta) {
      note[i] = -1;
      continue;
    }
    let n = noteOf.get(meta.path);
    if (n === undefined) {
      n = first.length;
      noteOf.set(meta.path, n);
      first.push(0);
      second.push(0);
      firstAt.push(-1);
      secondAt.push(-1);
    }
    note[i] = n;
    const score = results[i].score;
    if (score > first[n]) {
      second[n] = first[n];
      secondAt[n] = firstAt[n];
      first[n] = score;
      firstAt[n] = i;
    } else if (score > second[n] || secondAt[n] < 0) {
      second[n] = Math.max(second[n], score);
      secondAt[n] = i;
    }
  }
  // Final scores as rankChunks computes them (before its rounding).
  const final = new Float64Array(results.length);
  for (let i = 0; i < results.length; i++) {
    const n = note[i];
    if (n < 0) continue;
    const other = results[i].score >= first[n] ? second[n] : first[n];
    final[i] = results[i].score + noteShare * other;
  }
  const sorted = final.slice().sort();
  const threshold = sorted[sorted.length - keep];
  const kept = new Uint8Array(results.length);
  for (let i = 0; i < results.length; i++) {
    if (note[i] < 0 || final[i] < threshold) continue;
    kept[i] = 1;
    if (firstAt[note[i]] >= 0) kept[firstAt[note[i]]] = 1;
    if (secondAt[note[i]] >= 0) kept[secondAt[note[i]]] = 1;
  }
  let floor = 0;
  const subset: TermResult[] = [];
  for (let i = 0; i < results.length; i++) {
    if (kept[i]) subset.push(results[i]);
    else if (note[i] >= 0) floor = Math.max(floor, final[i]);
  }
  const ranked = rankChunks(subset, chunks, noteShare);
  // Above the floor (with room for rankChunks' rounding to 1e-6), nothing left out can come between.
  let exact = 0;
  while (exact < ranked.length && ranked[exact].score > floor + 2e-6) exact++;
  return { ranked, exact };
}

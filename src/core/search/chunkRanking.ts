import type { SearchResult } from 'minisearch';
import { reciprocalRankFusion, DEFAULT_RRF_K } from './fusion';
import { linkBonuses, type Neighbours } from './graphExpansion';
import { noteBonus, noteEvidence, type NoteLengths } from './noteEvidence';

/**
 * How the index ranks its chunks for a query: BM25 over the fields with the knobs below, a share
 * of the note's best other chunk, and, with a semantic ranking, reciprocal rank fusion of the two.
 */

/** The fields each chunk is indexed under (the note-wide ones repeat on each of its chunks). */
export const FIELDS = ['title', 'aliases', 'headings', 'tags', 'properties', 'path', 'body'] as const;

export interface Ranking {
  readonly boost: Readonly<Record<(typeof FIELDS)[number], number>>;
  /** Query terms (stems) at least this long also match longer words; 0 turns prefix matching off. */
  readonly prefixMin: number;
  /** Query terms at least this long also match words one edit away; 0 turns fuzzy matching off. */
  readonly fuzzyMin: number;
  /** Weight of prefix and fuzzy matches relative to exact ones. */
  readonly looseWeight: number;
  /** Share of a note's other matching chunks added to each of its chunks' scores. */
  readonly noteShare: number;
  /** Each further chunk of the note counts this fraction of the one before (noteEvidence.ts). */
  readonly noteDecay: number;
  /** Weight of the note's coverage of the query's terms, in units of the best chunk's score. */
  readonly coverage: number;
  /**
   * How much of a long note's coverage is discounted for its length (noteEvidence.ts: coverage ÷
   * max(1, ln(1 + its chunks) ÷ the notes' mean of it)); 0 turns the discount off. Coverage stays
   * within [0, 1], so the coverage bonus stays at most coverage × the best chunk's score.
   */
  readonly coverageLength: number;
  /** Share of a strong hit's score given to the matching notes it links with (graphExpansion.ts); 0 turns it off. */
  readonly linkShare: number;
  /** How many of the best notes act as seeds for linkShare. */
  readonly linkSeeds: number;
  /**
   * Weight of the semantic ranking against the lexical one (1) in the fusion. Left at 1: with the
   * local server's stand-in embeddings, 0.2-0.5 moved main and held-out recall in opposite
   * directions, and a stand-in is no ground for tuning a real model's weight.
   */
  readonly semanticWeight: number;
  /** BM25+ parameters (MiniSearch's defaults: k 1.2, b 0.7, d 0.5). */
  readonly bm25: { readonly k: number; readonly b: number; readonly d: number };
}

export const DEFAULT_RANKING: Ranking = {
  // No field is boosted. Short fields (name, aliases, headings) already score high in BM25, and
  // the note-wide ones repeat on every chunk: on the evaluation set (84 questions in user words),
  // title 3 / aliases 3 / headings 2 / tags 1.5 gave recall@5 0.726, all fields at 1 gave 0.786.
  boost: { title: 1, aliases: 1, headings: 1, tags: 1, properties: 1, path: 1, body: 1 },
  prefixMin: 5,
  fuzzyMin: 6,
  looseWeight: 0.3,
  noteShare: 0.1,
  noteDecay: 0,
  coverage: 1.75,
  // Issue 33: found at 5 71 → 74 of 84 (held out: 39 → 39 of 48, at 1 30 → 31, MRR 0.705 → 0.722); 0.5 to 1 gave the same within a question.
  coverageLength: 1,
  semanticWeight: 1,
  linkShare: 0.2,
  linkSeeds: 2,
  bm25: { k: 1.2, b: 0.7, d: 0.5 },
};

/** What ranking needs of a chunk: where it is (ties go by path, then line). */
export interface ChunkPlace {
  readonly path: string;
  readonly startLine: number;
}

/** A chunk found for a query: its score and the query terms it matched. */
export interface RankedChunk<M extends ChunkPlace> {
  readonly id: number;
  readonly meta: M;
  readonly score: number;
  readonly terms: string[];
}

/**
 * Chunk hits in rank order: score (rounded, so float noise from insertion order cannot reorder
 * ties), then path, then line, then id. This is the formula as written; the query path runs it over
 * typed arrays (topChunks.ts), and a property test holds the two equal. A chunk's score gets a share of the best other matching chunk of
 * its note, so a note that answers in two places edges out a lone mention elsewhere. Only the best
 * other chunk counts: a sum would let a long note's many weak matches swamp the list again.
 */
export function rankChunks<M extends ChunkPlace>(
  results: SearchResult[],
  chunks: ReadonlyMap<number, M>,
  ranking: Pick<Ranking, 'noteShare' | 'noteDecay' | 'coverage' | 'coverageLength' | 'linkShare' | 'linkSeeds'>,
  notesInIndex = 0,
  graph: Neighbours | null = null,
  lengths: NoteLengths | null = null,
): RankedChunk<M>[] {
  const rows: Array<{ id: number; meta: M; raw: number; terms: string[]; queryTerms: string[] }> = [];
  let top = 0;
  for (const result of results) {
    const meta = chunks.get(result.id as number);
    if (!meta) continue;
    rows.push({ id: result.id as number, meta, raw: result.score, terms: result.terms, queryTerms: result.queryTerms });
    top = Math.max(top, result.score);
  }
  const notes = noteEvidence(rows.map((r) => ({ path: r.meta.path, score: r.raw, queryTerms: r.queryTerms })), notesInIndex, lengths, ranking.coverageLength);
  const knobs = { share: ranking.noteShare, decay: ranking.noteDecay, coverage: ranking.coverage };
  const scored = rows.map((row) => {
    const evidence = notes.get(row.meta.path);
    const bonus = evidence ? noteBonus(evidence, row.raw, top, knobs) : 0;
    return { id: row.id, meta: row.meta, terms: row.terms, score: row.raw + bonus };
  });
  if (graph && ranking.linkShare > 0) {
    const best = new Map<string, number>();
    for (const row of scored) best.set(row.meta.path, Math.max(best.get(row.meta.path) ?? 0, row.score));
    const bonuses = linkBonuses(best, graph, ranking.linkSeeds, ranking.linkShare);
    for (const row of scored) row.score += bonuses.get(row.meta.path) ?? 0;
  }
  return scored
    .map((row) => ({ ...row, score: round(row.score) }))
    .sort((a, b) => b.score - a.score || (a.meta.path < b.meta.path ? -1 : a.meta.path > b.meta.path ? 1 : 0) || a.meta.startLine - b.meta.startLine || a.id - b.id);
}

/**
 * The lexical ranking fused with the semantic one (chunk ids, best first) by reciprocal rank fusion
 * (ranks only, so BM25 and cosine scores never need calibrating): a chunk found by both rises above
 * one found by either alone, and a chunk only the meaning finds (no word in common) still gets in.
 */
export function fuseRankings<M extends ChunkPlace>(lexical: readonly RankedChunk<M>[], ids: readonly number[], chunks: ReadonlyMap<number, M>, candidates: number, semanticWeight = 1): RankedChunk<M>[] {
  const semantic = ids.map((id) => ({ id, meta: chunks.get(id) as M, score: 0, terms: [] as string[] }));
  const fused = reciprocalRankFusion([{ items: lexical.slice(0, candidates) }, { items: semantic, weight: semanticWeight }], (c) => String(c.id), DEFAULT_RRF_K);
  return fused
    .map(({ item, score }) => ({ ...item, score: round(score) }))
    .sort((a, b) => b.score - a.score || (a.meta.path < b.meta.path ? -1 : a.meta.path > b.meta.path ? 1 : 0) || a.meta.startLine - b.meta.startLine);
}

function round(score: number): number {
  return Math.round(score * 1e6) / 1e6;
}

/**
 * What a note as a whole says about a query, gathered from its matching chunks (no stored data:
 * every chunk matching any query term is among the results). A question's words are often spread
 * over a note's sections ("snooze" in one, "next day" in another): a chunk alone misses that, a
 * plain BM25 over whole notes sees it. Two note-level signals make up for it:
 * - decayed sum: the note's other chunk scores, the best at `share`, the next at share × decay, …,
 *   so a note that answers in several places edges out a lone mention, without a long note's many
 *   weak matches swamping the list;
 * - coverage: the share of the query's weight (idf over notes) whose terms occur anywhere in the note.
 */

export interface ChunkMatch {
  readonly path: string;
  readonly score: number;
  /** The query terms this chunk matched (exact, prefix or fuzzy). */
  readonly queryTerms: readonly string[];
}

export interface NoteEvidenceKnobs {
  /** Weight of the note's best other chunk. */
  readonly share: number;
  /** Each further chunk counts this fraction of the one before (0: the best other only). */
  readonly decay: number;
  /** Weight of coverage, in units of the query's best chunk score. */
  readonly coverage: number;
}

export interface NoteEvidence {
  /** Sorted chunk scores of the note, best first. */
  readonly scores: readonly number[];
  /** Share (0–1) of the query's idf weight whose terms the note matches. */
  readonly coverage: number;
}

/** Per note: its chunk scores, best first, and its coverage of the query terms. */
export function noteEvidence(matches: readonly ChunkMatch[], notesInIndex: number): Map<string, NoteEvidence> {
  const scores = new Map<string, number[]>();
  const termsOf = new Map<string, Set<string>>();
  for (const m of matches) {
    const list = scores.get(m.path);
    if (list) list.push(m.score);
    else scores.set(m.path, [m.score]);
    let terms = termsOf.get(m.path);
    if (!terms) termsOf.set(m.path, (terms = new Set()));
    for (const t of m.queryTerms) terms.add(t);
  }
  // Document frequency over notes (not chunks, which a long note multiplies).
  const df = new Map<string, number>();
  for (const terms of termsOf.values()) for (const t of terms) df.set(t, (df.get(t) ?? 0) + 1);
  const n = Math.max(notesInIndex, scores.size);
  const idf = new Map<string, number>();
  let total = 0;
  // Sums in the terms' code-point order, not the order the matches came in: the query path
  // (topChunks.ts) sums the same way and gets the same scores to the last bit.
  const terms = [...df.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  for (const t of terms) {
    const count = df.get(t) as number;
    const w = Math.log(1 + (n - count + 0.5) / (count + 0.5));
    idf.set(t, w);
    total += w;
  }
  const out = new Map<string, NoteEvidence>();
  for (const [path, list] of scores) {
    let covered = 0;
    const matched = termsOf.get(path) as Set<string>;
    for (const t of terms) if (matched.has(t)) covered += idf.get(t) as number;
    out.set(path, { scores: list.sort((a, b) => b - a), coverage: total > 0 ? covered / total : 0 });
  }
  return out;
}

/** The note-level bonus a chunk of this note gets: the other chunks' decayed sum plus coverage. */
export function noteBonus(evidence: NoteEvidence, own: number, top: number, knobs: NoteEvidenceKnobs): number {
  let bonus = 0;
  let weight = knobs.share;
  let skipped = false;
  for (const s of evidence.scores) {
    if (!skipped && s === own) {
      skipped = true; // The chunk's own score is not its note's evidence.
      continue;
    }
    bonus += weight * s;
    weight *= knobs.decay;
    if (weight < 1e-3) break;
  }
  return bonus + knobs.coverage * top * evidence.coverage;
}

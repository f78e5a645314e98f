/**
 * What a note as a whole says about a query, gathered from its matching chunks (no stored data:
 * every chunk matching any query term is among the results). A question's words are often spread
 * over a note's sections ("snooze" in one, "next day" in another): a chunk alone misses that, a
 * plain BM25 over whole notes sees it. Two note-level signals make up for it:
 * - decayed sum: the note's other chunk scores, the best at `share`, the next at share × decay, …,
 *   so a note that answers in several places edges out a lone mention, without a long note's many
 *   weak matches swamping the list;
 * - coverage: the share of the query's weight (idf over notes) whose terms occur anywhere in the note,
 *   discounted for notes longer than usual (a long note holds more of any question's words by
 *   chance, as a long document does in BM25).
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

/** How long the index's notes are, in chunks (for coverage's length discount). */
export interface NoteLengths {
  chunksOf(path: string): number;
  /** Mean over the index's notes of ln(1 + chunks): meanLogChunks(). */
  readonly meanLogChunks: number;
}

/**
 * Mean of ln(1 + chunks) over notes, summed in whole millionths so the mean is the same whatever
 * order the notes were added in (a float sum is not, and rankings must be deterministic).
 */
export function meanLogChunks<T = number>(notes: Iterable<T>, chunksOf: (note: T) => number = (n) => n as number): number {
  let sum = 0;
  let count = 0;
  for (const note of notes) {
    sum += Math.round(Math.log(1 + chunksOf(note)) * 1e6);
    count++;
  }
  return count === 0 ? 0 : sum / 1e6 / count;
}

/**
 * What a note's coverage is divided by: how many times longer than the mean note it is, in
 * ln(1 + chunks), `weight` of it (0: no discount, 1: all of it), never below 1, so a short note
 * is not raised above what it covers and coverage stays within [0, 1].
 */
export function lengthDivisor(chunks: number, lengths: Pick<NoteLengths, 'meanLogChunks'>, weight: number): number {
  if (weight <= 0 || lengths.meanLogChunks <= 0) return 1;
  return Math.max(1, 1 - weight + (weight * Math.log(1 + chunks)) / lengths.meanLogChunks);
}

/**
 * Per note: its chunk scores, best first, and its coverage of the query terms, divided by
 * lengthDivisor when the notes' lengths are given (lengthWeight: its weight).
 */
export function noteEvidence(matches: readonly ChunkMatch[], notesInIndex: number, lengths: NoteLengths | null = null, lengthWeight = 1): Map<string, NoteEvidence> {
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
    const divisor = lengths ? lengthDivisor(lengths.chunksOf(path), lengths, lengthWeight) : 1;
    out.set(path, { scores: list.sort((a, b) => b - a), coverage: total > 0 ? covered / total / divisor : 0 });
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

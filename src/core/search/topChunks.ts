import type { ChunkPlace, RankedChunk, Ranking } from './chunkRanking';
import type { Neighbours } from './graphExpansion';
import { lengthDivisor, type NoteLengths } from './noteEvidence';
import type { NoteNumbers } from './noteNumbers';
import type { QueryMatches } from './termQuery';

/**
 * The query path's ranking: rankChunks (chunkRanking.ts, the formula as written) over typed
 * arrays, giving exactly its first k entries. Every match is scored in full (the note-level parts
 * need all of them: the best raw score, each term's spread over notes, each note's best chunks),
 * but in one pass over typed arrays with no object per match; only the entries that can reach the
 * first k (those scoring at least the k-th best note's best chunk) are made into objects and sorted.
 *
 * The score is the chunk's own BM25 score plus one addend per component, in rankChunks's order
 * (floating-point sums in the same order, so the scores are the same to the last bit). A change to
 * the formula in chunkRanking.ts or noteEvidence.ts goes in the matching component here; the
 * property test (vaultIndexScale.test.ts) fails until it does.
 */

/** The matches grouped by note, what every component reads. */
export interface MatchTable {
  readonly count: number;
  /** By match: the chunk's own score (the term index's BM25). */
  readonly raw: Float64Array;
  /** By match: its note's place among the matched notes (0 … notes - 1). */
  readonly note: Int32Array;
  /** Matched notes. */
  readonly notes: number;
  /** By matched note: its path (the first `notes` entries; the array may be longer). */
  readonly paths: readonly string[];
  /** By matched note: which distinct query terms it matches anywhere (`words` 32-bit words each). */
  readonly noteMasks: Uint32Array;
  readonly words: number;
  readonly queryTerms: readonly string[];
  /** The best raw score of all matches. */
  readonly top: number;
  /** Notes in the index. */
  readonly notesInIndex: number;
  /** The matched note at `path`, or -1. */
  placeOf(path: string): number;
  /** A reused array of `size` entries, each `fill`, for a component's own use during this query (one per key). */
  floats(key: string, size: number, fill?: number): Float64Array;
}

/**
 * One addend of the score: given the table and the scores so far (by match), writes the amount
 * each match gets into `out` (zeroed). Components run in order, each seeing the sums before it.
 */
export type ScoreComponent = (table: MatchTable, scores: Float64Array, out: Float64Array) => void;

/**
 * Typed arrays kept between queries (fresh ones per query fed the garbage collector, whose pauses
 * landed in later queries); a query's arrays are views, valid until the next query.
 */
export class RankScratch {
  private readonly floatArrays = new Map<string, Float64Array>();
  private readonly intArrays = new Map<string, Int32Array>();
  private readonly uintArrays = new Map<string, Uint32Array>();
  /** By matched note: its path (entries past the query's notes are left from earlier queries). */
  readonly paths: string[] = [];

  floats(key: string, size: number, fill = 0): Float64Array {
    let array = this.floatArrays.get(key);
    if (!array || array.length < size) this.floatArrays.set(key, (array = new Float64Array(capacity(size))));
    return array.subarray(0, size).fill(fill);
  }

  ints(key: string, size: number, fill = 0): Int32Array {
    let array = this.intArrays.get(key);
    if (!array || array.length < size) this.intArrays.set(key, (array = new Int32Array(capacity(size))));
    return array.subarray(0, size).fill(fill);
  }

  uints(key: string, size: number): Uint32Array {
    let array = this.uintArrays.get(key);
    if (!array || array.length < size) this.uintArrays.set(key, (array = new Uint32Array(capacity(size))));
    return array.subarray(0, size).fill(0);
  }
}

function capacity(size: number): number {
  let n = 1024;
  while (n < size) n *= 2;
  return n;
}

/**
 * noteEvidence.ts's bonus: the note's other chunks (the best at `share`, each next at `decay` of
 * the one before, stopping once a weight falls under 1e-3) plus `coverage` × top × the note's
 * coverage (the share of the query's idf over notes that it matches anywhere).
 */
export function noteEvidenceComponent(knobs: { readonly share: number; readonly decay: number; readonly coverage: number; readonly lengthWeight: number }, lengths: NoteLengths | null = null): ScoreComponent {
  // How many other chunks the decayed sum reads (noteBonus's loop, same weights to the bit).
  const weights: number[] = [];
  for (let weight = knobs.share; ; ) {
    weights.push(weight);
    weight *= knobs.decay;
    if (weight < 1e-3 || weights.length > MAX_KEPT) break;
  }
  const unbounded = weights.length > MAX_KEPT;
  return (table, _scores, out) => {
    const { count, raw, note, notes } = table;
    const coverage = noteCoverage(table, lengths, knobs.lengthWeight);
    if (unbounded) {
      // A decay that never falls under 1e-3: every chunk of the note counts (rare; lists per note).
      const lists: number[][] = Array.from({ length: notes }, () => []);
      for (let i = 0; i < count; i++) lists[note[i]].push(raw[i]);
      for (const list of lists) list.sort((a, b) => b - a);
      for (let i = 0; i < count; i++) {
        const list = lists[note[i]];
        out[i] = decayedOthers(list, 0, list.length, raw[i], knobs.share, knobs.decay, Infinity) + knobs.coverage * table.top * coverage[note[i]];
      }
      return;
    }
    // Each note's best `keep` scores, best first: enough for the sum whichever chunk is left out.
    const kept = weights.length;
    const keep = kept + 1;
    const best = table.floats('evidence.best', notes * keep, -Infinity);
    for (let i = 0; i < count; i++) {
      const base = note[i] * keep;
      const s = raw[i];
      if (s <= best[base + keep - 1]) continue;
      let at = base + keep - 1;
      while (at > base && best[at - 1] < s) {
        best[at] = best[at - 1];
        at--;
      }
      best[at] = s;
    }
    // Per note: the sum for a chunk whose score is not among the first `kept` (nothing left
    // out), and the coverage part ((coverage × top) × the note's, rankChunks's order).
    const plain = table.floats('evidence.plain', notes);
    const noteLevel = table.floats('evidence.noteLevel', notes);
    const scale = knobs.coverage * table.top;
    for (let p = 0; p < notes; p++) {
      plain[p] = decayedOthers(best, p * keep, keep, NaN, knobs.share, knobs.decay, kept);
      noteLevel[p] = scale * coverage[p];
    }
    for (let i = 0; i < count; i++) {
      const p = note[i];
      const base = p * keep;
      let among = false;
      for (let j = 0; j < kept && !among; j++) among = best[base + j] === raw[i];
      out[i] = (among ? decayedOthers(best, base, keep, raw[i], knobs.share, knobs.decay, kept) : plain[p]) + noteLevel[p];
    }
  };
}

/** Other chunks the decayed sum may read before falling back to whole lists. */
const MAX_KEPT = 16;

/**
 * noteBonus's decayed sum over scores[from … from + length) (best first, -Infinity past the
 * last), the first equal to `own` left out, at most `limit` added.
 */
function decayedOthers(scores: ArrayLike<number>, from: number, length: number, own: number, share: number, decay: number, limit: number): number {
  let bonus = 0;
  let weight = share;
  let skipped = false;
  let added = 0;
  for (let j = from; j < from + length && added < limit; j++) {
    const s = scores[j];
    if (s === -Infinity) break;
    if (!skipped && s === own) {
      skipped = true;
      continue;
    }
    bonus += weight * s;
    added++;
    weight *= decay;
    if (weight < 1e-3) break;
  }
  return bonus;
}

/**
 * By matched note: its coverage (noteEvidence's), the idf over notes of the query terms it
 * matches over that of all matched terms, summed in the terms' code-point order.
 */
function noteCoverage(table: MatchTable, lengths: NoteLengths | null, lengthWeight: number): Float64Array {
  const { notes, noteMasks, words, queryTerms } = table;
  const order = queryTerms.map((_, q) => q).sort((a, b) => (queryTerms[a] < queryTerms[b] ? -1 : queryTerms[a] > queryTerms[b] ? 1 : 0));
  const df = table.floats('coverage.df', queryTerms.length);
  for (let p = 0; p < notes; p++) for (let q = 0; q < queryTerms.length; q++) if ((noteMasks[p * words + (q >>> 5)] >>> (q & 31)) & 1) df[q]++;
  const n = Math.max(table.notesInIndex, notes);
  const idf = table.floats('coverage.idf', queryTerms.length);
  let total = 0;
  for (const q of order) {
    if (df[q] === 0) continue;
    idf[q] = Math.log(1 + (n - df[q] + 0.5) / (df[q] + 0.5));
    total += idf[q];
  }
  const out = table.floats('coverage', notes);
  if (total <= 0) return out;
  // Notes matching the same query terms cover the same: with one mask word, worked out once per mask.
  const byMask = words === 1 ? new Map<number, number>() : null;
  for (let p = 0; p < notes; p++) {
    // Divided by the note's length divisor (noteEvidence.ts), as there: covered / total / divisor.
    const divisor = lengths ? lengthDivisor(lengths.chunksOf(table.paths[p]), lengths, lengthWeight) : 1;
    const known = byMask?.get(noteMasks[p]);
    if (known !== undefined) {
      out[p] = known / divisor;
      continue;
    }
    let covered = 0;
    for (const q of order) if ((noteMasks[p * words + (q >>> 5)] >>> (q & 31)) & 1) covered += idf[q];
    byMask?.set(noteMasks[p], covered / total);
    out[p] = covered / total / divisor;
  }
  return out;
}

/**
 * graphExpansion.ts's link bonus: the `seeds` notes with the best chunk scores so far (ties by
 * path) give `share` of that score to the matched notes they link with, each note its best seed's.
 */
export function linkComponent(graph: Neighbours, seeds: number, share: number): ScoreComponent {
  return (table, scores, out) => {
    if (share <= 0 || seeds <= 0) return;
    const best = table.floats('link.best', table.notes);
    for (let i = 0; i < table.count; i++) if (scores[i] > best[table.note[i]]) best[table.note[i]] = scores[i];
    const top: number[] = [];
    for (let p = 0; p < table.notes; p++) {
      let at = top.length;
      while (at > 0 && before(best, table.paths, p, top[at - 1])) at--;
      if (at < seeds) {
        top.splice(at, 0, p);
        if (top.length > seeds) top.pop();
      }
    }
    const bonus = table.floats('link.bonus', table.notes);
    for (const seed of top) {
      for (const other of graph.neighbours(table.paths[seed])) {
        const p = table.placeOf(other);
        if (p >= 0) bonus[p] = Math.max(bonus[p], share * best[seed]);
      }
    }
    for (let i = 0; i < table.count; i++) out[i] = bonus[table.note[i]];
  };
}

function before(best: Float64Array, paths: readonly string[], a: number, b: number): boolean {
  return best[a] > best[b] || (best[a] === best[b] && paths[a] < paths[b]);
}

/** The components of a ranking, in rankChunks's order. */
export function componentsOf(ranking: Pick<Ranking, 'noteShare' | 'noteDecay' | 'coverage' | 'coverageLength' | 'linkShare' | 'linkSeeds'>, graph: Neighbours | null, lengths: NoteLengths | null = null): ScoreComponent[] {
  const components = [noteEvidenceComponent({ share: ranking.noteShare, decay: ranking.noteDecay, coverage: ranking.coverage, lengthWeight: ranking.coverageLength }, lengths)];
  if (graph && ranking.linkShare > 0) components.push(linkComponent(graph, ranking.linkSeeds, ranking.linkShare));
  return components;
}

/** A query's matches scored in full, from which the first entries of the ranking are taken. */
export class ScoredChunks<M extends ChunkPlace> {
  constructor(
    private readonly matches: QueryMatches,
    private readonly table: MatchTable,
    /** By match: its chunk id. */
    private readonly ids: Int32Array,
    /** By match: its final (rounded) score. */
    private readonly scores: Float64Array,
    private readonly metaOf: (id: number) => M | undefined,
    private readonly scratch: RankScratch,
  ) {}

  /** Matches ranked. */
  get count(): number {
    return this.table.count;
  }

  /**
   * The first k entries of the full ranking (score, then path, then line, then id) with at most
   * `perNote` from one note, as pickHits takes them from the whole sorted list.
   */
  top(k: number, perNote?: number): RankedChunk<M>[] {
    const { count, note, notes } = this.table;
    if (k <= 0 || count === 0) return [];
    // Every entry taken scores at least the k-th best note's best (each note's best is always
    // taken before its others), or the k-th best entry with no per-note limit.
    let floor = -Infinity;
    if (perNote === undefined) {
      if (count > k) floor = kthLargest(this.scores, k);
    } else if (notes > k) {
      const best = this.scratch.floats('top.best', notes, -Infinity);
      for (let i = 0; i < count; i++) if (this.scores[i] > best[note[i]]) best[note[i]] = this.scores[i];
      floor = kthLargest(best, k);
    }
    const rows: Array<{ at: number; path: string; line: number; id: number; score: number }> = [];
    for (let i = 0; i < count; i++) {
      if (this.scores[i] < floor) continue;
      const id = this.ids[i];
      rows.push({ at: i, path: this.table.paths[note[i]], line: this.metaOf(id)?.startLine ?? 0, id, score: this.scores[i] });
    }
    rows.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.line - b.line || a.id - b.id);
    const out: RankedChunk<M>[] = [];
    const taken = new Map<number, number>();
    for (const row of rows) {
      if (out.length >= k) break;
      const n = taken.get(note[row.at]) ?? 0;
      if (perNote !== undefined && n >= perNote) continue;
      taken.set(note[row.at], n + 1);
      out.push({ id: row.id, meta: this.metaOf(row.id) as M, score: row.score, terms: this.matches.termsOf(row.id) });
    }
    return out;
  }
}

/** The k-th largest value (k ≥ 1, at most the length): a bounded insertion over one pass. */
function kthLargest(values: Float64Array, k: number): number {
  const top = new Float64Array(k).fill(-Infinity); // Small: k entries.
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (v <= top[k - 1]) continue;
    let at = k - 1;
    while (at > 0 && top[at - 1] < v) {
      top[at] = top[at - 1];
      at--;
    }
    top[at] = v;
  }
  return top[k - 1];
}

/**
 * Score a query's matches: group them by note (noteNumbers.ts), add each component, round as
 * rankChunks does. Matches whose chunk has no note (not in the index's chunks) are left out, as
 * there. The result is a view into `scratch`: take its entries before the next query.
 */
export function scoreChunks<M extends ChunkPlace>(
  matches: QueryMatches,
  numbers: NoteNumbers,
  metaOf: (id: number) => M | undefined,
  notesInIndex: number,
  components: readonly ScoreComponent[],
  scratch: RankScratch,
): ScoredChunks<M> {
  const { words } = matches;
  const placeOfNote = scratch.ints('placeOfNote', numbers.limit, -1);
  const paths = scratch.paths; // Longer than the matched notes: read the first `notes` only.
  let notes = 0;
  const ids = scratch.ints('ids', matches.count);
  const raw = scratch.floats('raw', matches.count);
  const note = scratch.ints('note', matches.count);
  const masks = scratch.uints('noteMasks', matches.count * words); // At most a note per match.
  let count = 0;
  let top = 0;
  for (let m = 0; m < matches.count; m++) {
    const doc = matches.docs[m];
    const number = numbers.noteOfChunk(doc);
    if (number < 0) continue;
    let p = placeOfNote[number];
    if (p < 0) {
      p = placeOfNote[number] = notes++;
      paths[p] = numbers.pathOf(number);
    }
    for (let w = 0; w < words; w++) masks[p * words + w] |= matches.masks[m * words + w];
    ids[count] = doc;
    raw[count] = matches.scores[m];
    note[count] = p;
    top = Math.max(top, matches.scores[m]);
    count++;
  }
  const table: MatchTable = {
    count,
    raw,
    note,
    notes,
    paths,
    noteMasks: masks,
    words,
    queryTerms: matches.queryTerms,
    top,
    notesInIndex,
    placeOf: (path) => {
      const number = numbers.numberOf(path);
      return number === undefined ? -1 : placeOfNote[number];
    },
    floats: (key, size, fill) => scratch.floats(`component.${key}`, size, fill),
  };
  const scores = scratch.floats('scores', count);
  scores.set(raw.subarray(0, count));
  for (const component of components) {
    const add = scratch.floats('add', count);
    component(table, scores, add);
    for (let i = 0; i < count; i++) scores[i] += add[i];
  }
  for (let i = 0; i < count; i++) scores[i] = Math.round(scores[i] * 1e6) / 1e6;
  return new ScoredChunks(matches, table, ids, scores, metaOf, scratch);
}

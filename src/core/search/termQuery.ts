/**
 * One search over the term index (termIndex.ts): each query term scored on its own (exact, then
 * prefix, then fuzzy expansions, as MiniSearch's executeQuerySpec), summed into the totals (its OR
 * combination) and multiplied by the distinct query terms matched (its "quality" factor). Two
 * outputs from the same arithmetic: MiniSearch-shaped results (search(), what the property test
 * against MiniSearch reads), and typed matches (match(): scores and query-term masks in typed
 * arrays, no object per match), which the vault search ranks (topChunks.ts).
 */

export interface Bm25Params {
  readonly k: number;
  readonly b: number;
  readonly d: number;
}

export interface TermQuery {
  /** Weight per field name (missing: 1). */
  readonly boost?: Readonly<Record<string, number>>;
  readonly bm25: Bm25Params;
  /** Whether a query term also matches longer words it begins. */
  readonly prefix?: (term: string) => boolean;
  /** A query term's edit distance for fuzzy matching (false: none; below 1: a share of its length, as MiniSearch). */
  readonly fuzzy?: (term: string) => number | false;
  readonly weights?: { readonly prefix?: number; readonly fuzzy?: number };
}

/** One matching document, shaped like MiniSearch's SearchResult (what chunkRanking.ts reads). */
export type TermResult = {
  id: number;
  score: number;
  /** Index terms matched (prefix and fuzzy expansions included). */
  terms: string[];
  /** Query terms that matched. */
  queryTerms: string[];
  /** Index term → fields it matched in. */
  match: Record<string, string[]>;
};

/** What a query reads of the index (TermIndex implements it). */
export interface PostingSource {
  readonly fields: readonly string[];
  readonly documentCount: number;
  /** One past the highest document id the arrays hold. */
  readonly documentLimit: number;
  termId(term: string): number | undefined;
  termAt(id: number): string;
  /** Per term: pairs of (document id, field << 16 | frequency), documents ascending. */
  postingsOf(term: number): Uint32Array;
  postingCount(term: number): number;
  /** By document id: 1 while indexed. */
  aliveFlags(): Uint8Array;
  /** By document id × field: the field's length. */
  fieldLengths(): Uint32Array;
  averageLength(field: number): number;
  similar(term: string, prefix: boolean, distance: number): Array<[number, number]>;
}

/** MiniSearch's defaults for what a query does not say. */
const DEFAULT_WEIGHTS = { prefix: 0.375, fuzzy: 0.45 };
const MAX_FUZZY = 6;

/**
 * The arrays a query fills, kept between queries: fresh ones cost a megabyte or more per query at
 * 25,000 notes, and the garbage collector's pauses landed in later queries. Only the matched
 * documents' entries are touched, and reset after. A query's typed matches are views into them:
 * valid until the next query.
 */
export class QueryScratch {
  total = new Float64Array(0);
  spent = new Float64Array(0);
  /** By document: 1 + the last spec that matched it. */
  inSpec = new Int32Array(0);
  /** By document: 1 + its place among the matches (0: not matched yet). */
  place = new Int32Array(0);
  /** Matched documents in the order first matched; then the current spec's documents. */
  order = new Int32Array(0);
  specDocs = new Int32Array(0);
  /** By place: the final score. */
  scores = new Float64Array(0);
  /** By place × words: the query terms matched. */
  masks = new Uint32Array(0);
  /** Mask words the last query left set. */
  masksUsed = 0;

  /** Arrays for `size` documents and `words` mask words each, the masks cleared. */
  fit(size: number, words: number): void {
    if (this.total.length < size) {
      this.total = new Float64Array(size);
      this.spent = new Float64Array(size);
      this.inSpec = new Int32Array(size);
      this.place = new Int32Array(size);
      this.order = new Int32Array(size);
      this.specDocs = new Int32Array(size);
      this.scores = new Float64Array(size);
    }
    if (this.masks.length < size * words) this.masks = new Uint32Array(Math.max(size, 1024) * words);
    else this.masks.fill(0, 0, this.masksUsed);
    this.masksUsed = 0;
  }
}

/**
 * The typed matches of one query: documents in the order first matched, their scores (exactly
 * MiniSearch's), and per document a bit mask of the distinct query terms it matched.
 */
export class QueryMatches {
  constructor(
    /** Distinct query terms (processed), in the query's order: bit q of a mask is queryTerms[q]. */
    readonly queryTerms: readonly string[],
    readonly count: number,
    readonly docs: Int32Array,
    readonly scores: Float64Array,
    /** `words` 32-bit words per match. */
    readonly masks: Uint32Array,
    readonly words: number,
    private readonly source: PostingSource,
    /** The index terms the query reached (exact, prefix, fuzzy), each once. */
    private readonly reached: readonly number[],
  ) {}

  /**
   * The index terms document `doc` matched (what snippets highlight): a binary search in each
   * reached term's postings, so only the few hits shown pay for it. Read it before the index changes.
   */
  termsOf(doc: number): string[] {
    const out: string[] = [];
    for (const term of this.reached) if (holds(this.source.postingsOf(term), this.source.postingCount(term), doc)) out.push(this.source.termAt(term));
    return out;
  }
}

/** Whether the (document, packed) pairs, documents ascending, hold `doc`. */
function holds(list: Uint32Array, length: number, doc: number): boolean {
  let lo = 0;
  let hi = length / 2 - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const at = list[mid * 2];
    if (at === doc) return true;
    if (at < doc) lo = mid + 1;
    else hi = mid - 1;
  }
  return false;
}

/**
 * A run of one query. With `log`, every match is recorded (document, spec, index term, field) so
 * results() can give MiniSearch's terms and fields; without it only the totals and masks are kept.
 */
export class QueryRun {
  /** Matched documents so far (scratch.order), and the current spec's (scratch.specDocs). */
  private matched = 0;
  private specCount = 0;
  /** Every match, in order: document, spec, index term, field (log mode only). */
  private readonly log: number[] = [];
  private readonly specTerms: string[] = [];
  /** By spec: its distinct query term's number. */
  private readonly distinctOfSpec: number[] = [];
  private readonly distinct: string[] = [];
  private readonly derived: string[] = [];
  private readonly derivedIds = new Map<string, number>();
  private readonly reached: number[] = [];
  private readonly boosts: Float64Array;
  private readonly prefixWeight: number;
  private readonly fuzzyWeight: number;
  private readonly words: number;
  private readonly alive: Uint8Array;
  private readonly lengths: Uint32Array;
  private readonly averages: Float64Array;

  constructor(
    private readonly index: PostingSource,
    private readonly options: TermQuery,
    private readonly scratch: QueryScratch,
    terms: readonly string[],
    private readonly logging: boolean,
  ) {
    this.boosts = Float64Array.from(index.fields, (f) => options.boost?.[f] || 1);
    this.prefixWeight = options.weights?.prefix ?? DEFAULT_WEIGHTS.prefix;
    this.fuzzyWeight = options.weights?.fuzzy ?? DEFAULT_WEIGHTS.fuzzy;
    for (const term of terms) if (!this.distinct.includes(term)) this.distinct.push(term);
    this.words = Math.max(1, Math.ceil(this.distinct.length / 32));
    scratch.fit(index.documentLimit, this.words);
    this.alive = index.aliveFlags();
    this.lengths = index.fieldLengths();
    this.averages = Float64Array.from(index.fields, (_, field) => index.averageLength(field));
    for (const term of terms) this.spec(term);
  }

  private spec(term: string): void {
    const spec = this.specTerms.length;
    this.specTerms.push(term);
    const distinct = this.distinct.indexOf(term);
    this.distinctOfSpec.push(distinct);
    const exact = this.index.termId(term);
    if (exact !== undefined) this.score(spec, exact, 1);
    const prefix = this.options.prefix?.(term) ?? false;
    const fuzzy = this.options.fuzzy?.(term) ?? false;
    const distance = fuzzy === false ? 0 : fuzzy < 1 ? Math.min(MAX_FUZZY, Math.round(term.length * fuzzy)) : fuzzy;
    if (prefix || distance > 0) {
      // Prefix expansions first (a term both a prefix and a fuzzy match counts as a prefix match).
      for (const [id, edits] of this.index.similar(term, prefix, distance)) {
        const found = this.index.termAt(id);
        const weight = edits < 0 ? (this.prefixWeight * found.length) / (found.length + 0.3 * (found.length - term.length)) : (this.fuzzyWeight * found.length) / (found.length + edits);
        this.score(spec, id, weight);
      }
    }
    const { total, spent, place, order, specDocs, masks } = this.scratch;
    const word = distinct >>> 5;
    const bit = 1 << (distinct & 31);
    for (let s = 0; s < this.specCount; s++) {
      const doc = specDocs[s];
      let at = place[doc] - 1;
      if (at < 0) {
        at = this.matched++;
        place[doc] = at + 1;
        order[at] = doc;
      }
      masks[at * this.words + word] |= bit;
      total[doc] += spent[doc];
      spent[doc] = 0;
    }
    this.specCount = 0;
  }

  private score(spec: number, term: number, weight: number): void {
    const index = this.index;
    const list = index.postingsOf(term);
    const length = index.postingCount(term);
    const fieldCount = index.fields.length;
    const alive = this.alive;
    // Documents per field, live only (MiniSearch's "matchingFields" once its removals are vacuumed).
    const df = new Float64Array(fieldCount);
    for (let i = 0; i < length; i += 2) if (alive[list[i]] === 1) df[list[i + 1] >>> 16]++;
    if (df.every((n) => n === 0)) return;
    const { k, b, d } = this.options.bm25;
    const n = index.documentCount;
    // Per field, once per term: the same expressions MiniSearch evaluates per match.
    const idf = df.map((matching) => Math.log(1 + (n - matching + 0.5) / (matching + 0.5)));
    const derived = this.logging ? this.derivedId(index.termAt(term)) : -1;
    if (!this.logging && !this.reached.includes(term)) this.reached.push(term);
    const { spent, inSpec, specDocs } = this.scratch;
    const lengths = this.lengths;
    const averages = this.averages;
    const boosts = this.boosts;
    const stamp = spec + 1;
    for (let i = 0; i < length; i += 2) {
      const doc = list[i];
      if (alive[doc] !== 1) continue;
      const packed = list[i + 1];
      const field = packed >>> 16;
      const tf = packed & 0xffff;
      const raw = idf[field] * (d + (tf * (k + 1)) / (tf + k * (1 - b + (b * lengths[doc * fieldCount + field]) / averages[field])));
      const weighted = weight * 1 * boosts[field] * 1 * raw;
      if (inSpec[doc] !== stamp) {
        inSpec[doc] = stamp;
        specDocs[this.specCount++] = doc;
      }
      spent[doc] += weighted;
      if (this.logging) this.log.push(doc, spec, derived, field);
    }
  }

  private derivedId(term: string): number {
    let id = this.derivedIds.get(term);
    if (id === undefined) {
      id = this.derived.length;
      this.derived.push(term);
      this.derivedIds.set(term, id);
    }
    return id;
  }

  /** The typed matches (match mode), views into the scratch: valid until the next query. */
  matches(): QueryMatches {
    const count = this.matched;
    const { total, order, masks } = this.scratch;
    const docs = order.subarray(0, count);
    const scores = this.scratch.scores.subarray(0, count);
    const words = this.words;
    for (let at = 0; at < count; at++) {
      let distinct = 0;
      for (let w = 0; w < words; w++) distinct += bitCount(masks[at * words + w]);
      scores[at] = total[docs[at]] * (distinct || 1);
    }
    this.clear();
    this.scratch.masksUsed = count * words;
    return new QueryMatches(this.distinct, count, docs, scores, masks.subarray(0, count * words), words, this.index, this.reached);
  }

  /** MiniSearch-shaped results (log mode), best first; clears the scratch. */
  results(): TermResult[] {
    // Group the log by document, keeping its order (a counting sort over the documents' places).
    const { place, order, masks, total } = this.scratch;
    const counts = new Int32Array(this.matched + 1);
    const log = this.log;
    for (let i = 0; i < log.length; i += 4) counts[place[log[i]]]++;
    for (let i = 1; i < counts.length; i++) counts[i] += counts[i - 1];
    const start = counts.slice();
    const sorted = new Int32Array(log.length / 4);
    for (let i = 0; i < log.length; i += 4) sorted[start[place[log[i]] - 1]++] = i;
    const groups: MatchGroups = { log, sorted, counts, specTerms: this.specTerms, derived: this.derived, fields: this.index.fields };
    const words = this.words;
    const out: TermResult[] = [];
    for (let p = 0; p < this.matched; p++) {
      // MiniSearch multiplies by the distinct query terms matched.
      let distinct = 0;
      for (let w = 0; w < words; w++) distinct += bitCount(masks[p * words + w]);
      out.push(new LazyResult(order[p], total[order[p]] * (distinct || 1), groups, p));
    }
    this.clear();
    this.scratch.masksUsed = this.matched * words;
    return out.sort((a, b) => b.score - a.score);
  }

  /** Reset the per-document entries this query touched (the masks stay until the next query starts). */
  private clear(): void {
    const { total, spent, inSpec, place, order } = this.scratch;
    for (let p = 0; p < this.matched; p++) {
      const doc = order[p];
      total[doc] = 0;
      spent[doc] = 0;
      inSpec[doc] = 0;
      place[doc] = 0;
    }
  }
}

function bitCount(word: number): number {
  let v = word - ((word >>> 1) & 0x55555555);
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333);
  return (((v + (v >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/** The matches of one search grouped by document (QueryRun.results). */
interface MatchGroups {
  readonly log: readonly number[];
  readonly sorted: Int32Array;
  readonly counts: Int32Array;
  readonly specTerms: readonly string[];
  readonly derived: readonly string[];
  readonly fields: readonly string[];
}

/**
 * A result whose matched terms are worked out when first read: a common word matches most of a
 * big vault, and the ranking reads them only for the chunks that can reach the top.
 */
class LazyResult {
  private made: { terms: string[]; queryTerms: string[]; match: Record<string, string[]> } | null = null;

  constructor(
    readonly id: number,
    readonly score: number,
    private readonly groups: MatchGroups,
    private readonly group: number,
  ) {}

  get terms(): string[] {
    return this.make().terms;
  }

  get queryTerms(): string[] {
    return this.make().queryTerms;
  }

  get match(): Record<string, string[]> {
    return this.make().match;
  }

  private make(): { terms: string[]; queryTerms: string[]; match: Record<string, string[]> } {
    if (this.made) return this.made;
    const { log, sorted, counts, specTerms, derived, fields } = this.groups;
    const match: Record<string, string[]> = {};
    const matchSpec: Record<string, number> = {};
    const queryTerms: string[] = [];
    for (let s = counts[this.group]; s < counts[this.group + 1]; s++) {
      const at = sorted[s];
      const spec = log[at + 1];
      const term = derived[log[at + 2]];
      const field = fields[log[at + 3]];
      const source = specTerms[spec];
      if (!queryTerms.includes(source)) queryTerms.push(source);
      // A later query term's match of the same index term replaces the earlier one's fields (MiniSearch's Object.assign).
      if (Object.prototype.hasOwnProperty.call(match, term) && matchSpec[term] === spec) match[term].push(field);
      else {
        match[term] = [field];
        matchSpec[term] = spec;
      }
    }
    this.made = { terms: Object.keys(match), queryTerms, match };
    return this.made;
  }
}

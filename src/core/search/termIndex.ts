import { ownString } from './ownString';
import { PackedTerms, type PackedPostings } from './packedPostings';
import { similarTerms } from './similarTerms';
import { processTerm, terms as termsOf, tokenize } from './text';
import { QueryMatches, QueryRun, QueryScratch, type PostingSource, type TermQuery, type TermResult } from './termQuery';

/**
 * The inverted index under the vault search: terms to postings in typed arrays, scored with
 * BM25+ per field exactly as MiniSearch 7 scores (same formula, prefix and fuzzy weights, the
 * "quality" factor, the same result shape), so the ranking on top of it is unchanged. Built for
 * 25,000-note vaults: one growable Uint32Array of (document, field, frequency) per term instead
 * of a Map of Maps per term and field, a cache of each word's term (stemming once per distinct
 * word), and removal by tombstone (a removed document's postings are skipped, and dropped when
 * the index is compacted or saved), so an edit costs only its own note.
 */

export type { Bm25Params, TermQuery, TermResult } from './termQuery';

/** Frequencies above this are counted as this (a posting keeps 16 bits for it). */
const MAX_TF = 0xffff;
/** Distinct words whose terms are remembered; past this the cache starts over. */
const WORD_CACHE_LIMIT = 400_000;
/** Terms between two steps of loadSteps and trimSteps (a real vault has hundreds of thousands). */
const TERMS_PER_STEP = 20_000;
/** The added list of a packed term until a posting is added (append never writes into it). */
const EMPTY = new Uint32Array(0);
/** The index's state as the codec (termIndexCodec.ts) reads and writes it. */
export interface TermIndexState {
  readonly fields: readonly string[];
  readonly termText: string[];
  /** By document id: 1 while indexed. */
  readonly alive: Uint8Array;
  /** By document id × field: unique words in the field. */
  readonly fieldLength: Uint32Array;
}

export class TermIndex implements PostingSource {
  readonly fields: readonly string[];
  private readonly fieldCount: number;
  private readonly termIds = new Map<string, number>();
  private termText: string[] = [];
  /**
   * Per term: pairs of (document id, field << 16 | frequency), documents ascending. For a restored
   * term not read yet (`pending`), only the postings added since: they follow its saved ones.
   */
  private postings: Uint32Array[] = [];
  private postingLength: number[] = [];
  /** The saved postings of terms not yet read since a restore (packedPostings.ts; null once every one is). */
  private packed: PackedTerms | null = null;
  private alive: Uint8Array = new Uint8Array(1024);
  private fieldLength: Uint32Array;
  private readonly fieldLengthSum: Float64Array;
  private documents = 0;
  /** Postings of removed documents still in the arrays. */
  private deadPostings = 0;
  private livePostings = 0;
  /** Terms by their first and last three letters, for prefix and fuzzy lookups (similarTerms.ts). */
  private readonly heads = new Map<string, number[]>();
  private readonly tails = new Map<string, number[]>();
  /** Word (as tokenize gives it) → word number; by word number, its term id (-1: a stop word). */
  private readonly words = new Map<string, number>();
  private wordTerm = new Int32Array(1024);
  /** By word number: the last field (a running count) it was seen in, to count distinct words. */
  private wordSeen = new Int32Array(1024);
  private fieldStamp = 0;
  // Scratch for add(): per term, its frequency in the field being added.
  private tfScratch = new Int32Array(1024);
  private readonly touched: number[] = [];
  /** Per-document arrays a query fills (termQuery.ts), kept between queries. */
  private readonly scratch = new QueryScratch();

  constructor(fields: readonly string[]) {
    this.fields = [...fields];
    this.fieldCount = fields.length;
    this.fieldLengthSum = new Float64Array(fields.length);
    this.fieldLength = new Uint32Array(this.alive.length * fields.length);
  }

  get documentCount(): number {
    return this.documents;
  }

  get termCount(): number {
    return this.termText.length;
  }

  /** Share of the postings that belong to removed documents (compact() drops them). */
  get dirtShare(): number {
    const all = this.deadPostings + this.livePostings;
    return all === 0 ? 0 : this.deadPostings / all;
  }

  has(id: number): boolean {
    return id < this.alive.length && this.alive[id] === 1;
  }

  /** Index a document: `values` in the order of `fields` (null or '' for an empty field). */
  add(id: number, values: readonly (string | null)[]): void {
    if (!Number.isSafeInteger(id) || id < 0 || id >= 0x100000000) throw new Error(`TermIndex: bad document id ${id}`);
    if (this.has(id)) throw new Error(`TermIndex: duplicate document id ${id}`);
    if (this.words.size >= WORD_CACHE_LIMIT) {
      // Start over (between documents, so a field's distinct words are counted right).
      this.words.clear();
      this.wordSeen.fill(0);
    }
    this.ensureDocument(id);
    this.alive[id] = 1;
    this.documents++;
    const base = id * this.fieldCount;
    for (let field = 0; field < this.fieldCount; field++) {
      const value = values[field];
      const words = value ? tokenize(value) : [];
      // BM25's field length is MiniSearch's: distinct words (stop words included).
      const stamp = ++this.fieldStamp;
      let length = 0;
      const touched = this.touched;
      for (const word of words) {
        const number = this.wordNumber(word);
        if (this.wordSeen[number] !== stamp) {
          this.wordSeen[number] = stamp;
          length++;
        }
        const term = this.wordTerm[number];
        if (term < 0) continue;
        if (this.tfScratch[term]++ === 0) touched.push(term);
      }
      this.fieldLength[base + field] = length;
      this.fieldLengthSum[field] += length;
      for (const term of touched) {
        this.append(term, id, (field << 16) | Math.min(this.tfScratch[term], MAX_TF));
        this.tfScratch[term] = 0;
      }
      touched.length = 0;
    }
  }

  /** Forget a document. Its postings stay until compact() (or a save) and are skipped meanwhile. */
  remove(id: number): void {
    if (!this.has(id)) return;
    this.alive[id] = 0;
    this.documents--;
    const base = id * this.fieldCount;
    for (let field = 0; field < this.fieldCount; field++) this.fieldLengthSum[field] -= this.fieldLength[base + field];
    // Counted here so the dirt share is known without a scan; exact postings are dropped by compact().
    let count = 0;
    for (let field = 0; field < this.fieldCount; field++) count += this.fieldLength[base + field] > 0 ? 1 : 0;
    this.deadPostings += count;
    this.livePostings -= count;
  }

  /** Drop the postings of removed documents, `terms` terms at a time between `pause`s. */
  async compact(pause: () => Promise<void> = () => Promise.resolve(), terms = 20_000): Promise<void> {
    for (let term = 0; term < this.postings.length; term++) {
      if (term > 0 && term % terms === 0) await pause();
      if (this.isPending(term)) continue; // Decoded without the removed documents when first read.
      const list = this.postings[term];
      const length = this.postingLength[term];
      let out = 0;
      for (let i = 0; i < length; i += 2) {
        if (this.alive[list[i]] !== 1) continue;
        list[out] = list[i];
        list[out + 1] = list[i + 1];
        out += 2;
      }
      this.postingLength[term] = out;
    }
    this.deadPostings = 0;
  }

  /** Lists down to their length where a quarter or more is spare (a build doubles them: 17 of 55 MiB at 25,000 notes), in steps of a few ms. */
  *trimSteps(): Generator<void, void> {
    let copied = 0;
    for (let term = 0; term < this.postings.length; term++) {
      const list = this.postings[term];
      const length = this.postingLength[term];
      if (list.length > 8 && list.length - length >= list.length / 4) {
        this.postings[term] = list.slice(0, Math.max(4, length));
        copied += length;
      }
      if (term % TERMS_PER_STEP === TERMS_PER_STEP - 1 || copied >= 1 << 20) {
        copied = 0;
        yield;
      }
    }
  }

  /** MiniSearch's results for a query (each with its matched terms and fields). */
  search(query: string, options: TermQuery): TermResult[] {
    return new QueryRun(this, options, this.scratch, termsOf(query), true).results();
  }

  /** The same scores as search(), typed: no object per match (what the vault search ranks). */
  match(query: string, options: TermQuery): QueryMatches {
    return new QueryRun(this, options, this.scratch, termsOf(query), false).matches();
  }

  /**
   * In how many live documents a term occurs, the most over its fields (MiniSearch's per-field
   * document count): one pass over the term's postings.
   */
  documentFrequency(term: string): number {
    const id = this.termIds.get(term);
    if (id === undefined) return 0;
    const list = this.postingsOf(id);
    const length = this.postingLength[id];
    const perField = new Array<number>(this.fieldCount).fill(0);
    for (let i = 0; i < length; i += 2) if (this.alive[list[i]] === 1) perField[list[i + 1] >>> 16]++;
    return Math.max(0, ...perField);
  }

  /** The state for the codec; the arrays are the index's own (read, do not change). */
  state(): TermIndexState {
    return { fields: this.fields, termText: this.termText, alive: this.alive, fieldLength: this.fieldLength };
  }

  /** A term's postings (removed documents' may be among them) for the codec; a packed term's are decoded, not kept: valid until the next call. */
  peekPostings(term: number): { readonly list: Uint32Array; readonly length: number } {
    if (!this.isPending(term)) return { list: this.postings[term], length: this.postingLength[term] };
    return (this.packed as PackedTerms).peek(term, this.postings[term], this.postingLength[term], this.alive);
  }

  /** Load a state written by the codec into this empty index in steps; `packed`: the postings as saved (packedPostings.ts). */
  *loadSteps(state: Omit<TermIndexState, 'fields'>, packed: PackedPostings): Generator<void, void> {
    if (this.termText.length > 0 || this.documents > 0) throw new Error('TermIndex.load: the index is not empty');
    if (packed.at.length !== state.termText.length || packed.count.length !== state.termText.length) throw new Error('TermIndex.load: the postings do not match the terms');
    this.alive = state.alive;
    this.fieldLength = state.fieldLength;
    for (let id = 0; id < this.alive.length; id++) {
      if (this.alive[id] !== 1) continue;
      this.documents++;
      for (let field = 0; field < this.fieldCount; field++) this.fieldLengthSum[field] += this.fieldLength[id * this.fieldCount + field];
    }
    yield;
    this.termText = state.termText;
    const terms = this.termText.length;
    this.postings = new Array<Uint32Array>(terms).fill(EMPTY);
    this.postingLength = new Array<number>(terms).fill(0);
    this.packed = terms === 0 ? null : new PackedTerms(packed, this.fieldCount);
    for (let term = 0; term < terms; term++) {
      this.termIds.set(this.termText[term], term);
      this.bucket(this.termText[term], term);
      this.livePostings += packed.count[term];
      if (term % TERMS_PER_STEP === TERMS_PER_STEP - 1) yield;
    }
    if (this.tfScratch.length < this.termText.length) this.tfScratch = new Int32Array(grow(this.tfScratch.length, this.termText.length));
  }

  /** Terms whose saved postings are not decoded yet (a restored index's terms no query has read). */
  get packedTerms(): number {
    return this.packed?.remaining ?? 0;
  }

  // ---- what a query reads (PostingSource, termQuery.ts) ----

  termId(term: string): number | undefined {
    return this.termIds.get(term);
  }
  termAt(id: number): string {
    return this.termText[id];
  }
  postingsOf(term: number): Uint32Array {
    if (this.isPending(term)) this.unpack(term);
    return this.postings[term];
  }
  postingCount(term: number): number {
    if (this.isPending(term)) this.unpack(term);
    return this.postingLength[term];
  }
  aliveFlags(): Uint8Array {
    return this.alive;
  }
  fieldLengths(): Uint32Array {
    return this.fieldLength;
  }
  averageLength(field: number): number {
    return this.documents === 0 ? 0 : this.fieldLengthSum[field] / this.documents;
  }
  similar(term: string, prefix: boolean, distance: number): Array<[number, number]> {
    return similarTerms(term, prefix, distance, this.heads, this.tails, this.termText);
  }
  get documentLimit(): number {
    return this.alive.length;
  }

  /** The word's number, its term found (stemmed) once per distinct word. */
  private wordNumber(word: string): number {
    let number = this.words.get(word);
    if (number !== undefined) return number;
    number = this.words.size;
    this.words.set(ownString(word), number); // Kept: a copy, not a view into the note's text.
    if (number >= this.wordTerm.length) {
      const size = grow(this.wordTerm.length, number + 1);
      const terms = new Int32Array(size);
      terms.set(this.wordTerm);
      this.wordTerm = terms;
      const seen = new Int32Array(size);
      seen.set(this.wordSeen);
      this.wordSeen = seen;
    }
    const term = processTerm(word);
    this.wordTerm[number] = term ? (this.termIds.get(term) ?? this.newTerm(term)) : -1;
    return number;
  }

  private newTerm(term: string): number {
    const id = this.termText.length;
    term = ownString(term);
    this.termText.push(term);
    this.termIds.set(term, id);
    this.postings.push(new Uint32Array(4));
    this.postingLength.push(0);
    if (id >= this.tfScratch.length) {
      const next = new Int32Array(grow(this.tfScratch.length, id + 1));
      next.set(this.tfScratch);
      this.tfScratch = next;
    }
    this.bucket(term, id);
    return id;
  }

  private bucket(term: string, id: number): void {
    if (term.length < 3) return;
    push(this.heads, term.slice(0, 3), id);
    push(this.tails, term.slice(-3), id);
  }

  private isPending(term: number): boolean {
    return this.packed !== null && this.packed.has(term);
  }

  /** A saved term's postings decoded into its own list (first read since the restore). */
  private unpack(term: number): void {
    const packed = this.packed as PackedTerms;
    const { list, length } = packed.take(term, this.postings[term], this.postingLength[term], this.alive);
    this.postings[term] = list;
    this.postingLength[term] = length;
    if (packed.remaining === 0) this.packed = null; // Every term read: the saved bytes can go.
  }

  /** A posting at the end of a term's list (a pending term's saved postings stay packed: it is added after them). */
  private append(term: number, doc: number, packed: number): void {
    let list = this.postings[term];
    const length = this.postingLength[term];
    if (length + 2 > list.length) {
      const next = new Uint32Array(Math.max(4, list.length * 2));
      next.set(list);
      this.postings[term] = list = next;
    }
    list[length] = doc;
    list[length + 1] = packed;
    this.postingLength[term] = length + 2;
    this.livePostings++;
  }

  private ensureDocument(id: number): void {
    if (id < this.alive.length) return;
    const size = grow(this.alive.length, id + 1);
    const alive = new Uint8Array(size);
    alive.set(this.alive);
    this.alive = alive;
    const lengths = new Uint32Array(size * this.fieldCount);
    lengths.set(this.fieldLength);
    this.fieldLength = lengths;
  }
}

function grow(size: number, need: number): number {
  let next = Math.max(size, 16);
  while (next < need) next *= 2;
  return next;
}

function push(map: Map<string, number[]>, key: string, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

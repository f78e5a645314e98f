import { sha256Hex } from '../hash';
import type { NoteStat, VaultReader } from '../ports/vault';
import { trimSlashes } from '../trim';
import { chunkNote, chunkNoteSteps, DEFAULT_CHUNK_OPTIONS, noteTitle, type ChunkOptions } from './chunk';
import { DEFAULT_RANKING, FIELDS, fuseRankings, type RankedChunk, type Ranking } from './chunkRanking';
import { embeddingTextOf, embeddingTexts, noteAbout } from './embeddingText';
import { LinkGraph } from './linkGraph';
import { ownString } from './ownString';
import { meanLogChunks, type NoteLengths } from './noteEvidence';
import { NoteNumbers } from './noteNumbers';
import { makeHits, pickHits } from './searchHits';
import { TermIndex, type TermQuery } from './termIndex';
import { componentsOf, RankScratch, scoreChunks, type ScoreComponent, type ScoredChunks } from './topChunks';
import { runSteps, runStepsAsync } from './termIndexCodec';
import { abortError, driveSteps, hashInSlices, macrotask, SliceClock } from './slices';
import type { ChunkMeta, NoteEntry } from './indexEntries';
import { restoreSteps, saveSteps, type IndexContents, type RestoreReport } from './savedIndex';
import type { SearchHit, SearchOptions, VaultSearch } from './types';

/**
 * The vault's lexical search index: chunks (chunk.ts) in a term index (termIndex.ts: BM25 per
 * field, prefix and fuzzy matching, MiniSearch's scoring), kept current note by note, saved and
 * restored so a restart re-reads only the notes that changed. The index keeps no note text: hits
 * read their note when they are returned. Building runs in slices of a few milliseconds (a huge
 * note too: it is hashed and indexed a piece at a time), so the host's UI never waits long.
 */

export { INDEX_FORMAT_VERSION, type RestoreReport } from './savedIndex';

/**
 * A second ranking of the index's chunks by meaning (semantic.ts: embeddings), fused with the
 * lexical one by reciprocal rank fusion. It never throws for a failed embedding: it answers []
 * (the lexical ranking alone) and reports the failure itself; only an abort is thrown.
 */
export interface ChunkRanker {
  rank(query: string, n: number, accept: (id: number) => boolean, signal?: AbortSignal): Promise<number[]>;
}

/** A chunk as the embedding model sees it, with the hash its vector is kept under. */
export interface EmbeddingInput {
  readonly id: number;
  readonly hash: string;
  readonly text: string;
}

export interface IndexSettings {
  /** Vault-relative folders whose notes are not indexed (the chat folder, typically). */
  readonly excludedFolders?: readonly string[];
  readonly chunk?: ChunkOptions;
  /** Query-time ranking knobs (not part of the stored index). */
  readonly ranking?: Partial<Ranking>;
}

export interface BuildOptions {
  /** Called at each pause (every `yieldEvery` notes, and when a slice is due) and at the end, with notes handled so far and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** A pause at every this many notes when one of them was read since the last pause (default 50). */
  readonly yieldEvery?: number;
  /** Pause once a slice of work has taken this long, even inside one big note (default 12 ms). */
  readonly sliceMs?: number;
  /** A monotonic clock in ms (performance.now in the app) to time slices; without it the build pauses only every `yieldEvery` notes. */
  readonly now?: () => number;
  /** What a pause is; by default a macrotask, so the host's UI can run between batches. */
  readonly pause?: () => Promise<void>;
  readonly signal?: AbortSignal;
}

export interface BuildReport {
  /** Notes in the index after the build. */
  readonly notes: number;
  readonly chunks: number;
  /** Notes read and (re)indexed because they were new or changed. */
  readonly indexed: number;
  /** Notes kept from the restored index without being re-indexed. */
  readonly unchanged: number;
  /** Of those, the ones whose text was read to compare hashes (no stat, or stat changed). */
  readonly readToCompare: number;
  readonly removed: number;
  /** Notes that could not be read (too large, binary), left out. */
  readonly skipped: number;
}

/** Vaults of this many notes or more pause once after listing them, before the notes are read. */
const LISTING_PAUSE_FROM = 1000;
/** Chunks numbered per step after a restore (a few ms each). */
const CHUNKS_PER_STEP = 5000;

/** Notes at least this long are hashed a piece at a time. */
const HASH_IN_SLICES_FROM = 256 * 1024;

/** How saving and restoring are sliced: a pause function (a pause at every step), or slices timed by a clock. */
export type StepPacing = (() => Promise<void>) | Pick<BuildOptions, 'pause' | 'sliceMs' | 'now'>;

export class VaultIndex implements VaultSearch {
  private terms = new TermIndex(FIELDS);
  private notes = new Map<string, NoteEntry>();
  private chunks = new Map<number, ChunkMeta>();
  /** Each chunk's note as a number, so a query groups its matches by note in typed arrays (topChunks.ts). */
  private noteNumbers = new NoteNumbers();
  /** Typed arrays a query's ranking reuses (topChunks.ts). */
  private readonly rankScratch = new RankScratch();
  /** The notes' links (linkGraph.ts): links weighed into ranking and related notes. */
  private linkGraph = new LinkGraph();
  private nextId = 1;
  private readonly excluded: readonly string[];
  private readonly chunkOptions: Required<ChunkOptions>;
  private readonly ranking: Ranking;
  private semantic: ChunkRanker | null = null;
  /** The notes' lengths for ranking (noteEvidence.ts); null when a note changed since they were taken. */
  private lengths: NoteLengths | null = null;
  /** Settings that shape the index: a stored index made with other settings is not reused. */
  readonly fingerprint: string;

  constructor(
    private readonly vault: VaultReader,
    settings: IndexSettings = {},
  ) {
    this.excluded = [...new Set((settings.excludedFolders ?? []).map((f) => trimSlashes(f.trim())).filter((f) => f !== ''))].sort();
    this.chunkOptions = { ...DEFAULT_CHUNK_OPTIONS, ...settings.chunk };
    this.ranking = { ...DEFAULT_RANKING, ...settings.ranking };
    this.fingerprint = sha256Hex(JSON.stringify({ excluded: this.excluded, chunk: [this.chunkOptions.maxChars, this.chunkOptions.overlapChars] })).slice(0, 16);
  }

  /** A new index over `vault`, built (for scripts, the evaluation and tests). */
  static async create(vault: VaultReader, settings: IndexSettings = {}, options: BuildOptions = {}): Promise<VaultIndex> {
    const index = new VaultIndex(vault, settings);
    await index.build(options);
    return index;
  }

  get noteCount(): number {
    return this.notes.size;
  }

  get chunkCount(): number {
    return this.chunks.size;
  }

  /** The indexed notes' links (linkGraph.ts). */
  get links(): LinkGraph {
    return this.linkGraph;
  }

  isExcluded(path: string): boolean {
    return this.excluded.some((folder) => path.startsWith(`${folder}/`));
  }

  has(path: string): boolean {
    return this.notes.has(path);
  }

  /** Fuse a semantic ranking into every search from now on (null: lexical only). */
  setSemantic(ranker: ChunkRanker | null): void {
    this.semantic = ranker;
  }

  /** Every chunk's id and embedding hash, by id: what a vector store must hold to be current. */
  embeddingTargets(): Array<{ readonly id: number; readonly hash: string }> {
    return [...this.chunks.entries()].sort(([a], [b]) => a - b).map(([id, meta]) => ({ id, hash: meta.hash }));
  }

  /** True while chunk `id` is indexed with content of this hash (an embedding made from it is current). */
  isCurrent(id: number, hash: string): boolean {
    return this.chunks.get(id)?.hash === hash;
  }

  /**
   * The embedding texts of these chunks, read from their notes (one read per note). A chunk whose
   * note is gone or changed since it was indexed is left out: its re-indexing brings a new chunk.
   */
  async embeddingInputs(ids: readonly number[]): Promise<EmbeddingInput[]> {
    const byPath = new Map<string, number[]>();
    for (const id of ids) {
      const meta = this.chunks.get(id);
      if (!meta) continue;
      const list = byPath.get(meta.path);
      if (list) list.push(id);
      else byPath.set(meta.path, [id]);
    }
    const out: EmbeddingInput[] = [];
    for (const [path, list] of byPath) {
      let note: string | null;
      try {
        note = await this.vault.read(path);
      } catch {
        continue;
      }
      if (note === null) continue;
      // Cut again exactly as when indexed; a chunk whose text changed since has another hash.
      const texts = new Map<string, string>();
      for (const text of embeddingTexts(path, note, chunkNote(path, note, this.chunkOptions))) texts.set(sha256Hex(text), text);
      for (const id of list) {
        const meta = this.chunks.get(id) as ChunkMeta;
        const text = texts.get(meta.hash);
        if (text !== undefined) out.push({ id, hash: meta.hash, text });
      }
    }
    return out;
  }

  /** Paths of the indexed notes, sorted by code point. */
  paths(): string[] {
    // The default sort compares UTF-16 code units, as `<` does: the same order, without a callback per comparison.
    return [...this.notes.keys()].sort();
  }

  /**
   * Bring the index in line with the vault: index new and changed notes, drop deleted ones. After
   * restore(), a note whose stat (mtime, size) is unchanged is not read; one whose stat changed is
   * read and re-indexed only when its content hash differs.
   */
  async build(options: BuildOptions = {}): Promise<BuildReport> {
    const { onProgress, yieldEvery = 50, sliceMs = 12, pause = macrotask, signal, now } = options;
    const clock = new SliceClock(sliceMs, now);
    const all = await this.vault.listMarkdown();
    if (all.length >= LISTING_PAUSE_FROM) {
      // The host's listing (25,000 paths sorted) is a slice of its own, before the scan below.
      await pause();
      clock.restart();
      if (signal?.aborted) throw abortError();
    }
    const paths = all.filter((p) => !this.isExcluded(p));
    const listed = new Set(paths);
    let removed = 0;
    const gone: string[] = [];
    for (const known of this.notes.keys()) if (!listed.has(known)) gone.push(known);
    for (const known of gone.sort()) {
      this.remove(known);
      removed++;
    }
    if (paths.length >= LISTING_PAUSE_FROM) {
      // A big vault's listing and removal scan are a slice of their own (25,000 paths: tens of ms).
      await pause();
      clock.restart();
      if (signal?.aborted) throw abortError();
    }
    let indexed = 0;
    let unchanged = 0;
    let readToCompare = 0;
    let skipped = 0;
    /** Notes read since the last pause: a restart's run over unchanged notes (a stat each) pauses only when its slice is due. */
    let read = 0;
    for (let i = 0; i < paths.length; i++) {
      if (signal?.aborted) throw abortError();
      if (i > 0 && ((i % yieldEvery === 0 && read > 0) || clock.due)) {
        onProgress?.(i, paths.length);
        await pause();
        clock.restart();
        read = 0;
        if (signal?.aborted) throw abortError();
      }
      const path = paths[i];
      const known = this.notes.get(path);
      // The host's stat from memory when it has one (Obsidian's TFile.stat): 25,000 promises cost more than the lookups.
      let stat = this.vault.statNow?.(path);
      if (stat === undefined) stat = this.vault.stat ? await this.vault.stat(path) : null;
      if (known && stat && known.stat && known.stat.mtime === stat.mtime && known.stat.size === stat.size) {
        unchanged++;
        continue;
      }
      read++;
      let text: string | null;
      try {
        text = await this.vault.read(path);
      } catch {
        this.remove(path);
        skipped++;
        continue;
      }
      if (text === null) {
        this.remove(path);
        removed++;
        continue;
      }
      const hash = text.length >= HASH_IN_SLICES_FROM ? await driveSteps(hashInSlices(text), clock, pause, signal) : sha256Hex(text);
      if (known && known.hash === hash) {
        known.stat = stat;
        unchanged++;
        readToCompare++;
        continue;
      }
      await driveSteps(this.indexSteps(path, text, hash, stat), clock, pause, signal);
      indexed++;
    }
    onProgress?.(paths.length, paths.length);
    return { notes: this.notes.size, chunks: this.chunks.size, indexed, unchanged, readToCompare, removed, skipped };
  }

  /** Index a note's new text (created or modified). A note in an excluded folder is removed instead. */
  upsert(path: string, text: string, stat: NoteStat | null = null): void {
    if (this.isExcluded(path)) {
      this.remove(path);
      return;
    }
    const hash = sha256Hex(text);
    const known = this.notes.get(path);
    if (known && known.hash === hash) {
      known.stat = stat ?? known.stat;
      return;
    }
    runSteps(this.indexSteps(path, text, hash, stat));
  }

  /**
   * upsert() in slices: pauses whenever `sliceMs` of work has run (a 5 MB note is hashed and
   * indexed over many slices). Searches between two slices see the note partly indexed.
   */
  async update(path: string, text: string, stat: NoteStat | null = null, options: Pick<BuildOptions, 'pause' | 'sliceMs' | 'now'> = {}): Promise<void> {
    if (this.isExcluded(path)) {
      this.remove(path);
      return;
    }
    const clock = new SliceClock(options.sliceMs ?? 12, options.now);
    const pause = options.pause ?? macrotask;
    const hash = text.length >= HASH_IN_SLICES_FROM ? await driveSteps(hashInSlices(text), clock, pause) : sha256Hex(text);
    const known = this.notes.get(path);
    if (known && known.hash === hash) {
      known.stat = stat ?? known.stat;
      return;
    }
    await driveSteps(this.indexSteps(path, text, hash, stat), clock, pause);
  }

  remove(path: string): void {
    const known = this.notes.get(path);
    if (!known) return;
    for (const id of known.ids) {
      this.terms.remove(id);
      this.chunks.delete(id);
      this.noteNumbers.remove(id);
    }
    this.linkGraph.delete(path);
    this.notes.delete(path);
    this.lengths = null;
  }

  /** A renamed or moved note: its name and path are indexed fields, so it is indexed again from the vault. */
  async rename(from: string, to: string): Promise<void> {
    this.remove(from);
    if (this.isExcluded(to)) return;
    const text = await this.vault.read(to);
    if (text === null) return;
    const stat = this.vault.stat ? await this.vault.stat(to) : null;
    await this.update(to, text, stat);
  }

  /**
   * Notes for a query, best first, without reading them (related notes: relatedNotes.ts): exact
   * terms only (a query of a note's own words needs no typo matching), each note scored by its best
   * chunk, none of search()'s note-level signals (they cost a pass over every match; the caller
   * weighs links itself).
   */
  rankNotes(query: string, n: number, exclude?: string): Array<{ path: string; score: number }> {
    if (query.trim() === '' || n <= 0) return [];
    const { boost, bm25 } = this.ranking;
    const matches = this.terms.match(query, { boost: { ...boost }, bm25: { ...bm25 } });
    // Each note's best score by note number (typed), then by path for the few notes matched.
    const numbers = this.noteNumbers;
    const byNumber = new Float64Array(numbers.limit);
    for (let m = 0; m < matches.count; m++) {
      const number = numbers.noteOfChunk(matches.docs[m]);
      if (number >= 0 && matches.scores[m] > byNumber[number]) byNumber[number] = matches.scores[m];
    }
    const best = new Map<string, number>();
    for (let number = 0; number < byNumber.length; number++) {
      const path = numbers.pathOf(number);
      if (byNumber[number] > 0 && path !== exclude) best.set(path, byNumber[number]);
    }
    return [...best]
      .sort(([pa, a], [pb, b]) => b - a || (pa < pb ? -1 : pa > pb ? 1 : 0))
      .slice(0, n)
      .map(([path, score]) => ({ path, score: Math.round(score * 1e6) / 1e6 }));
  }

  /**
   * In how many chunks an index term (a processed word) occurs, for picking a note's telling words
   * (relatedNotes.ts): the most chunks it occurs in within one field, as MiniSearch counted it.
   */
  chunkFrequency(term: string): number | null {
    return this.terms.documentFrequency(term);
  }


  /** The semantic ranker fused into searches, if any (related notes use it too). */
  get semanticRanker(): ChunkRanker | null {
    return this.semantic;
  }

  /** The note a chunk belongs to. */
  pathOf(id: number): string | null {
    return this.chunks.get(id)?.path ?? null;
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const k = options.k ?? 10;
    if (query.trim() === '' || k <= 0) return [];
    const { prefixMin, fuzzyMin, looseWeight } = this.ranking;
    this.lengths ??= { chunksOf: (path) => this.notes.get(path)?.ids.length ?? 1, meanLogChunks: meanLogChunks(this.notes.values(), (n) => n.ids.length) };
    const scored = this.score(query, {
      // Longer stems also match longer words and words one typo away; short ones would match too much.
      prefix: (term) => prefixMin > 0 && term.length >= prefixMin,
      fuzzy: (term) => (fuzzyMin > 0 && term.length >= fuzzyMin ? 1 : false),
      weights: { prefix: looseWeight, fuzzy: looseWeight },
    }, componentsOf(this.ranking, this.linkGraph, this.lengths));
    // Every match is scored (coverage and the note graph weigh whole notes); only the entries that
    // can reach the first k are sorted (topChunks.ts), taken now: the index may change while awaiting.
    const lexical = scored.top(k, options.perNote);
    let picked = lexical;
    if (this.semantic) {
      const candidates = Math.max(3 * k, 30); // The lexical entries the fusion reads.
      const fused = await this.fuse(query, scored.top(candidates), candidates, options.signal);
      if (fused) picked = pickHits(fused, k, options.perNote);
    }
    return makeHits(this.vault, picked, options.signal);
  }

  /** The lexical ranking's first entries fused with the semantic ranker's (fuseRankings); null when it found none (the lexical ranking alone). */
  private async fuse(query: string, lexical: RankedChunk<ChunkMeta>[], candidates: number, signal: AbortSignal | undefined): Promise<RankedChunk<ChunkMeta>[] | null> {
    const ids = await (this.semantic as ChunkRanker).rank(query, candidates, (id) => this.chunks.has(id), signal);
    if (ids.length === 0) return null;
    return fuseRankings(lexical, ids, this.chunks, candidates, this.ranking.semanticWeight);
  }

  /** Every chunk matching the query scored by the ranking's components (topChunks.ts). */
  private score(query: string, loose: Omit<TermQuery, 'boost' | 'bm25'>, components: readonly ScoreComponent[]): ScoredChunks<ChunkMeta> {
    const { boost, bm25 } = this.ranking;
    const matches = this.terms.match(query, { ...loose, boost: { ...boost }, bm25: { ...bm25 } });
    return scoreChunks(matches, this.noteNumbers, (id) => this.chunks.get(id), this.notes.size, components, this.rankScratch);
  }

  /**
   * The index as saved in the plugin folder (savedIndex.ts): format version, settings fingerprint,
   * per-note hashes and stats, links, and the term index (termIndexCodec.ts). Written in steps,
   * paced by `pacing` (no pause by default); removed notes' postings are compacted away first.
   */
  async serialize(pacing: StepPacing = () => Promise.resolve()): Promise<string> {
    const pause = typeof pacing === 'function' ? pacing : (pacing.pause ?? macrotask);
    if (this.terms.dirtShare > 0.2) await this.terms.compact(pause);
    await runPaced(this.terms.trimSteps(), pacing);
    return runPaced(saveSteps({ notes: this.notes, chunks: this.chunks, terms: this.terms, links: this.linkGraph, nextId: this.nextId }, this.paths(), this.fingerprint), pacing);
  }

  /**
   * Load a serialized index. Returns false, leaving this index empty, when the text is not an
   * index, was written by another format version, or with other settings; build() then reads every note.
   */
  restore(text: string): boolean {
    return this.restoreReport(text) === 'restored';
  }

  /**
   * restore(), saying why an index was not restored: 'damaged' (not an index: a file cut short,
   * edited or overwritten), 'other-version', 'other-settings'. Never throws; anything but
   * 'restored' leaves this index as it was.
   */
  restoreReport(text: string): RestoreReport {
    return runSteps(this.restoreAll(text));
  }

  /** restoreReport() in steps paced by `pacing` (a pause at every step by default: a macrotask). */
  async restoreReportAsync(text: string, pacing: StepPacing = macrotask): Promise<RestoreReport> {
    return runPaced(this.restoreAll(text), pacing);
  }

  /** The restore, then each chunk's note numbered (topChunks.ts), a slice at a time: 62,500 chunks took ~40 ms in one piece. */
  private *restoreAll(text: string): Generator<void, RestoreReport> {
    const restored = yield* restoreSteps(text, this.fingerprint);
    if (typeof restored === 'string') return restored;
    const numbers = new NoteNumbers();
    let numbered = 0;
    for (const [id, meta] of restored.chunks) {
      numbers.add(id, meta.path);
      if (++numbered % CHUNKS_PER_STEP === 0) yield;
    }
    return this.take(restored, numbers);
  }

  private take(restored: IndexContents, numbers: NoteNumbers): RestoreReport {
    // Taken whole, not copied: the restore made them for this index alone.
    this.terms = restored.terms;
    this.linkGraph = restored.links;
    this.notes = restored.notes;
    this.chunks = restored.chunks;
    this.nextId = restored.nextId;
    this.noteNumbers = numbers;
    this.lengths = null;
    return 'restored';
  }

  /** A note's chunks into the index, one step per chunk. Until the last, the note's hash is '' (an interrupted note is read again). */
  private *indexSteps(path: string, text: string, hash: string, stat: NoteStat | null): Generator<void, void> {
    this.remove(path);
    const note = yield* chunkNoteSteps(path, text, this.chunkOptions);
    yield;
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const ids: number[] = [];
    const entry: NoteEntry = { hash: '', stat: null, ids };
    this.notes.set(path, entry);
    const lines = text.split(/\r\n?|\n/);
    const about = noteAbout(note);
    const aliases = note.aliases.join('\n');
    const tags = note.tags.join('\n');
    for (let i = 0; i < note.chunks.length; i++) {
      const chunk = note.chunks[i];
      const id = this.nextId++;
      ids.push(id);
      this.chunks.set(id, { path, headings: chunk.headings.map(ownString), startLine: chunk.startLine, endLine: chunk.endLine, hash: sha256Hex(embeddingTextOf(path, lines, note, about, i)) });
      this.noteNumbers.add(id, path);
      this.terms.add(id, [note.title, aliases, chunk.headings.join('\n'), tags, note.properties, folder, chunk.body]);
      yield;
    }
    yield* this.linkGraph.setSteps(path, lines);
    this.lengths = null;
    entry.hash = hash;
    entry.stat = stat;
  }
}

export { noteTitle };

/** Steps run to their end, paced: a pause at every step, or when a clock-timed slice is due. */
function runPaced<T>(steps: Generator<void, T>, pacing: StepPacing): Promise<T> {
  if (typeof pacing === 'function') return runStepsAsync(steps, pacing);
  return driveSteps(steps, new SliceClock(pacing.sliceMs ?? 12, pacing.now), pacing.pause ?? macrotask);
}

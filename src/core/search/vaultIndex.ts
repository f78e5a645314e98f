import MiniSearch from 'minisearch';
import { DEFAULT_TIMERS } from '../timers';
import { sha256Hex } from '../hash';
import type { NoteStat, VaultReader } from '../ports/vault';
import { trimSlashes } from '../trim';
import { chunkNote, DEFAULT_CHUNK_OPTIONS, noteTitle, type ChunkOptions } from './chunk';
import { DEFAULT_RANKING, FIELDS, fuseRankings, rankChunks, type RankedChunk, type Ranking } from './chunkRanking';
import { embeddingTexts } from './embeddingText';
import { LinkGraph } from './linkGraph';
import { makeSnippet } from './snippet';
import { processTerm, tokenize } from './text';
import type { SearchHit, SearchOptions, VaultSearch } from './types';

/**
 * The vault's lexical search index: chunks (chunk.ts) in MiniSearch (BM25 per field, prefix and
 * fuzzy matching), kept current note by note, saved and restored so a restart re-reads only the
 * notes that changed. The index keeps no note text: hits read their note when they are returned.
 */

/** Bump when the stored shape, the chunker or the text processing changes: an older index is rebuilt. */
export const INDEX_FORMAT_VERSION = 3;

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
  /** Called after each batch and at the end with notes handled so far and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Notes handled between two pauses (default 50). */
  readonly yieldEvery?: number;
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

interface ChunkMeta {
  readonly path: string;
  readonly headings: readonly string[];
  readonly startLine: number;
  readonly endLine: number;
  /** Hash of the chunk's embedding text (title, headings, lines): a vector computed from another hash is stale. */
  readonly hash: string;
}

interface NoteEntry {
  hash: string;
  stat: NoteStat | null;
  readonly ids: readonly number[];
}

interface ChunkDoc {
  id: number;
  title: string;
  aliases: string;
  headings: string;
  tags: string;
  properties: string;
  path: string;
  body: string;
}

function isStat(value: unknown): value is NoteStat {
  const stat = value as Partial<NoteStat> | null;
  return typeof stat === 'object' && stat !== null && typeof stat.mtime === 'number' && typeof stat.size === 'number';
}

interface Stored {
  version: number;
  fingerprint: string;
  nextId: number;
  notes: Array<[string, { hash: string; stat: NoteStat | null; chunks: Array<[number, string[], number, number, string]> }]>;
  mini: unknown;
  /** The notes' links (linkGraph.ts), since format 3. */
  links: unknown;
}

const miniOptions = {
  fields: [...FIELDS],
  tokenize: (text: string) => tokenize(text),
  processTerm: (term: string) => processTerm(term),
  autoVacuum: false as const,
};

const macrotask = (): Promise<void> => new Promise((resolve) => DEFAULT_TIMERS.setTimeout(resolve, 0));

export class VaultIndex implements VaultSearch {
  private mini = new MiniSearch<ChunkDoc>(miniOptions);
  private readonly notes = new Map<string, NoteEntry>();
  private readonly chunks = new Map<number, ChunkMeta>();
  /** The notes' links (linkGraph.ts): links weighed into ranking and related notes. */
  private linkGraph = new LinkGraph();
  private nextId = 1;
  private readonly excluded: readonly string[];
  private readonly chunkOptions: Required<ChunkOptions>;
  private readonly ranking: Ranking;
  private semantic: ChunkRanker | null = null;
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
    return [...this.notes.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  }

  /**
   * Bring the index in line with the vault: index new and changed notes, drop deleted ones. After
   * restore(), a note whose stat (mtime, size) is unchanged is not read; one whose stat changed is
   * read and re-indexed only when its content hash differs.
   */
  async build(options: BuildOptions = {}): Promise<BuildReport> {
    const { onProgress, yieldEvery = 50, pause = macrotask, signal } = options;
    const paths = (await this.vault.listMarkdown()).filter((p) => !this.isExcluded(p));
    const listed = new Set(paths);
    let removed = 0;
    for (const known of [...this.notes.keys()].sort()) {
      if (!listed.has(known)) {
        this.remove(known);
        removed++;
      }
    }
    let indexed = 0;
    let unchanged = 0;
    let readToCompare = 0;
    let skipped = 0;
    for (let i = 0; i < paths.length; i++) {
      if (signal?.aborted) throw abortError();
      if (i > 0 && i % yieldEvery === 0) {
        onProgress?.(i, paths.length);
        await pause();
      }
      const path = paths[i];
      const known = this.notes.get(path);
      const stat = this.vault.stat ? await this.vault.stat(path) : null;
      if (known && stat && known.stat && known.stat.mtime === stat.mtime && known.stat.size === stat.size) {
        unchanged++;
        continue;
      }
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
      const hash = sha256Hex(text);
      if (known && known.hash === hash) {
        known.stat = stat;
        unchanged++;
        readToCompare++;
        continue;
      }
      this.index(path, text, hash, stat);
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
    this.index(path, text, hash, stat);
  }

  remove(path: string): void {
    const known = this.notes.get(path);
    if (!known) return;
    for (const id of known.ids) {
      this.mini.discard(id);
      this.chunks.delete(id);
    }
    this.linkGraph.delete(path);
    this.notes.delete(path);
  }

  /** A renamed or moved note: its name and path are indexed fields, so it is indexed again from the vault. */
  async rename(from: string, to: string): Promise<void> {
    this.remove(from);
    if (this.isExcluded(to)) return;
    const text = await this.vault.read(to);
    if (text === null) return;
    const stat = this.vault.stat ? await this.vault.stat(to) : null;
    this.upsert(to, text, stat);
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
    const best = new Map<string, number>();
    for (const result of this.mini.search(query, { boost: { ...boost }, bm25: { ...bm25 }, combineWith: 'OR' })) {
      const path = this.chunks.get(result.id as number)?.path;
      if (path === undefined || path === exclude) continue;
      if (result.score > (best.get(path) ?? 0)) best.set(path, result.score);
    }
    return [...best]
      .sort(([pa, a], [pb, b]) => b - a || (pa < pb ? -1 : pa > pb ? 1 : 0))
      .slice(0, n)
      .map(([path, score]) => ({ path, score: Math.round(score * 1e6) / 1e6 }));
  }

  /**
   * In how many chunks an index term (a processed word) occurs, for picking a note's telling words
   * (relatedNotes.ts). Read from MiniSearch's term tree (a protected field: no public call gives a
   * term's document count); null if that shape ever changes, and the caller goes without.
   */
  chunkFrequency(term: string): number | null {
    const tree = (this.mini as unknown as { _index?: { get?: (t: string) => unknown } })._index;
    if (typeof tree?.get !== 'function') return null;
    const fields = tree.get(term);
    if (fields === undefined) return 0;
    if (!(fields instanceof Map)) return null;
    let most = 0;
    for (const docs of fields.values()) if (docs instanceof Map) most = Math.max(most, docs.size);
    return most;
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
    const { boost, prefixMin, fuzzyMin, looseWeight, bm25 } = this.ranking;
    const results = this.mini.search(query, {
      boost: { ...boost },
      bm25: { ...bm25 },
      combineWith: 'OR',
      // Longer stems also match longer words and words one typo away; short ones would match too much.
      prefix: (term) => prefixMin > 0 && term.length >= prefixMin,
      fuzzy: (term) => (fuzzyMin > 0 && term.length >= fuzzyMin ? 1 : false),
      weights: { prefix: looseWeight, fuzzy: looseWeight },
    });
    const lexical = rankChunks(results, this.chunks, this.ranking, this.notes.size, this.linkGraph);
    const ranked = this.semantic ? await this.fuse(query, lexical, k, options.signal) : lexical;
    const picked: RankedChunk<ChunkMeta>[] = [];
    const perNote = new Map<string, number>();
    for (const hit of ranked) {
      if (picked.length >= k) break;
      const count = perNote.get(hit.meta.path) ?? 0;
      if (options.perNote !== undefined && count >= options.perNote) continue;
      perNote.set(hit.meta.path, count + 1);
      picked.push(hit);
    }
    const texts = new Map<string, string[] | null>();
    const hits: SearchHit[] = [];
    for (const hit of picked) {
      if (options.signal?.aborted) throw abortError();
      const { path } = hit.meta;
      if (!texts.has(path)) texts.set(path, await this.readLines(path));
      const lines = texts.get(path);
      if (!lines) continue; // Deleted since it was indexed; the delete event will remove it.
      const text = lines.slice(hit.meta.startLine - 1, hit.meta.endLine).join('\n');
      hits.push({
        path,
        headings: hit.meta.headings,
        heading: hit.meta.headings[hit.meta.headings.length - 1] ?? '',
        startLine: hit.meta.startLine,
        endLine: hit.meta.endLine,
        text,
        snippet: makeSnippet(withoutHeadingLine(text, hit.meta.headings.length > 0), new Set(hit.terms)),
        score: hit.score,
      });
    }
    return hits;
  }

  /** The lexical ranking fused with the semantic ranker's (fuseRankings); the lexical one alone when it has none. */
  private async fuse(query: string, lexical: RankedChunk<ChunkMeta>[], k: number, signal: AbortSignal | undefined): Promise<RankedChunk<ChunkMeta>[]> {
    const candidates = Math.max(3 * k, 30);
    const ids = await (this.semantic as ChunkRanker).rank(query, candidates, (id) => this.chunks.has(id), signal);
    if (ids.length === 0) return lexical;
    return fuseRankings(lexical, ids, this.chunks, candidates, this.ranking.semanticWeight);
  }

  /** The index as JSON, for the plugin folder (or a file): format version, settings fingerprint, per-note hashes and stats. */
  async serialize(): Promise<string> {
    if (this.mini.dirtCount > 0) await this.mini.vacuum();
    const notes: Stored['notes'] = [...this.notes.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([path, entry]) => [
        path,
        {
          hash: entry.hash,
          stat: entry.stat,
          chunks: entry.ids.map((id) => {
            const meta = this.chunks.get(id) as ChunkMeta;
            return [id, [...meta.headings], meta.startLine, meta.endLine, meta.hash] as [number, string[], number, number, string];
          }),
        },
      ]);
    const stored: Stored = { version: INDEX_FORMAT_VERSION, fingerprint: this.fingerprint, nextId: this.nextId, notes, mini: this.mini.toJSON(), links: this.linkGraph.toJSON() };
    return JSON.stringify(stored);
  }

  /**
   * Load a serialized index. Returns false, leaving this index empty, when the text is not an
   * index, was written by another format version, or with other settings; build() then reads every note.
   */
  restore(json: string): boolean {
    return this.restoreReport(json) === 'restored';
  }

  /**
   * restore(), saying why an index was not restored: 'damaged' (not JSON, or not an index: a file
   * cut short, edited or overwritten), 'other-version', 'other-settings'. Never throws; anything
   * but 'restored' leaves this index empty.
   */
  restoreReport(json: string): 'restored' | 'damaged' | 'other-version' | 'other-settings' {
    let stored: Stored;
    try {
      stored = JSON.parse(json) as Stored;
    } catch {
      return 'damaged';
    }
    if (typeof stored !== 'object' || stored === null) return 'damaged';
    if (stored.version !== INDEX_FORMAT_VERSION) return 'other-version';
    if (stored.fingerprint !== this.fingerprint) return 'other-settings';
    if (!Array.isArray(stored.notes) || !Number.isSafeInteger(stored.nextId)) return 'damaged';
    let mini: MiniSearch<ChunkDoc>;
    const links = LinkGraph.fromJSON(stored.links);
    if (links === null) return 'damaged';
    const notes = new Map<string, NoteEntry>();
    const chunks = new Map<number, ChunkMeta>();
    try {
      mini = MiniSearch.loadJS<ChunkDoc>(stored.mini as Parameters<typeof MiniSearch.loadJS>[0], miniOptions);
      // Every entry checked before any is taken: a damaged one leaves this index as it was (empty).
      for (const [path, entry] of stored.notes) {
        if (typeof path !== 'string' || typeof entry.hash !== 'string' || !Array.isArray(entry.chunks)) return 'damaged';
        const ids: number[] = [];
        for (const [id, headings, startLine, endLine, hash] of entry.chunks) {
          if (!Number.isSafeInteger(id) || !Array.isArray(headings) || !Number.isSafeInteger(startLine) || !Number.isSafeInteger(endLine) || typeof hash !== 'string') return 'damaged';
          ids.push(id);
          chunks.set(id, { path, headings, startLine, endLine, hash });
        }
        notes.set(path, { hash: entry.hash, stat: isStat(entry.stat) ? entry.stat : null, ids });
      }
    } catch {
      return 'damaged';
    }
    this.mini = mini;
    this.linkGraph = links;
    this.notes.clear();
    this.chunks.clear();
    for (const [path, entry] of notes) this.notes.set(path, entry);
    for (const [id, meta] of chunks) this.chunks.set(id, meta);
    this.nextId = stored.nextId;
    return 'restored';
  }

  private index(path: string, text: string, hash: string, stat: NoteStat | null): void {
    this.remove(path);
    const note = chunkNote(path, text, this.chunkOptions);
    const folder = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    const ids: number[] = [];
    const embedded = embeddingTexts(path, text, note);
    for (const [i, chunk] of note.chunks.entries()) {
      const id = this.nextId++;
      ids.push(id);
      this.chunks.set(id, { path, headings: chunk.headings, startLine: chunk.startLine, endLine: chunk.endLine, hash: sha256Hex(embedded[i]) });
      this.mini.add({
        id,
        title: note.title,
        aliases: note.aliases.join('\n'),
        headings: chunk.headings.join('\n'),
        tags: note.tags.join('\n'),
        properties: note.properties,
        path: folder,
        body: chunk.body,
      });
    }
    this.linkGraph.set(path, text);
    this.notes.set(path, { hash, stat, ids });
  }

  private async readLines(path: string): Promise<string[] | null> {
    try {
      const text = await this.vault.read(path);
      return text === null ? null : text.split(/\r\n?|\n/);
    } catch {
      return null;
    }
  }
}

function withoutHeadingLine(text: string, hasHeading: boolean): string {
  if (!hasHeading) return text;
  const first = text.split(/\r\n?|\n/, 1)[0];
  return /^ {0,3}#{1,6}(?:\s|$)/.test(first) ? text.slice(first.length).replace(/^\r?\n/, '') : text;
}

function abortError(): Error {
  const error = new Error('The search was stopped.');
  error.name = 'AbortError';
  return error;
}

export { noteTitle };

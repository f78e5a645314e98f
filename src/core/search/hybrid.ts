/**
 * Hybrid search: the lexical search's ranking and a semantic (embedding) ranking, merged by
 * reciprocal rank fusion. RRF uses ranks only, so the two scores (BM25-like and cosine) never need
 * calibrating against each other; a chunk found by both rises above one found by either alone.
 */
import { addSpend, NO_SPEND, type Embedder, type EmbeddingSpend } from './embedder';
import type { SearchHit, SearchOptions, VaultSearch } from './types';
import type { VectorStore } from './vectors';

/** The usual RRF constant (Cormack et al. 2009): damps the weight of the very first ranks. */
export const DEFAULT_RRF_K = 60;

/** What hybrid search needs of a chunk. `hash` is of the embedded text: a new hash means a new embedding. */
export interface EmbeddableChunk {
  /** Stable id (the store's key), e.g. `path#startLine`. */
  readonly id: string;
  readonly path: string;
  readonly heading: string;
  readonly text: string;
  readonly hash: string;
  /** Optional; used to match lexical hits (path + startLine) and to fill vector-only hits. */
  readonly headings?: readonly string[];
  readonly startLine?: number;
  readonly endLine?: number;
}

export interface RankedList<T> {
  readonly items: readonly T[];
  /** Multiplies this list's contributions (default 1). */
  readonly weight?: number;
}

export interface Fused<T> {
  readonly key: string;
  /** The item from the first list that has it. */
  readonly item: T;
  readonly score: number;
}

/**
 * Reciprocal rank fusion: score(d) = Σ weight / (k + rank), rank from 1. Ties: the earlier first
 * appearance (list order, then rank) wins, so the order is deterministic for deterministic inputs.
 */
export function reciprocalRankFusion<T>(lists: readonly RankedList<T>[], keyOf: (item: T) => string, k = DEFAULT_RRF_K): Fused<T>[] {
  const fused = new Map<string, { item: T; score: number; first: number }>();
  let order = 0;
  for (const list of lists) {
    const weight = list.weight ?? 1;
    list.items.forEach((item, index) => {
      const key = keyOf(item);
      const entry = fused.get(key);
      const contribution = weight / (k + index + 1);
      if (entry) entry.score += contribution;
      else fused.set(key, { item, score: contribution, first: order++ });
    });
  }
  return [...fused.entries()]
    .sort(([, a], [, b]) => b.score - a.score || a.first - b.first)
    .map(([key, { item, score }]) => ({ key, item, score }));
}

export interface HybridOptions {
  readonly lexical: VaultSearch;
  readonly embedder: Embedder;
  /** Must be for the embedder's model (VectorStore.restore(saved, embedder.model)). */
  readonly store: VectorStore;
  readonly rrfK?: number;
  /** Candidates taken from each side before fusion (default max(3k, 30)). */
  readonly candidates?: number;
  /** Texts per embedding request while indexing (the provider client may split further). */
  readonly batchSize?: number;
  /** Told when the semantic side fails: the search then answers with the lexical ranking alone. */
  readonly onSemanticError?: (error: unknown) => void;
}

export interface EmbedReport {
  /** Chunks embedded now (new or changed). */
  readonly embedded: number;
  /** Chunks whose vector was already current. */
  readonly reused: number;
  /** Vectors dropped because their chunk is gone (only with `prune`). */
  readonly removed: number;
  readonly spend: EmbeddingSpend;
}

const QUERY_CACHE_SIZE = 64;
const SNIPPET_CHARS = 200;

function locationKey(path: string, startLine: number | undefined, heading: string): string {
  return startLine !== undefined ? `${path}\u0000${startLine}` : `${path}\u0000#${heading}`;
}

function snippetOf(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > SNIPPET_CHARS ? `${flat.slice(0, SNIPPET_CHARS - 1)}…` : flat;
}

function hitOf(chunk: EmbeddableChunk, score: number): SearchHit {
  const lines = chunk.text.split('\n').length;
  return {
    path: chunk.path,
    headings: chunk.headings ?? (chunk.heading ? [chunk.heading] : []),
    heading: chunk.heading,
    startLine: chunk.startLine ?? 1,
    endLine: chunk.endLine ?? (chunk.startLine ?? 1) + lines - 1,
    text: chunk.text,
    snippet: snippetOf(chunk.text),
    score,
  };
}

/** A VaultSearch that fuses a lexical VaultSearch with embedding similarity over the same chunks. */
export class HybridSearch implements VaultSearch {
  private readonly chunks = new Map<string, EmbeddableChunk>();
  /** Location (path + start line, or path + heading) → chunk id, to match lexical hits. */
  private readonly idAt = new Map<string, string>();
  private readonly queryCache = new Map<string, Float32Array>();
  private spent: EmbeddingSpend = NO_SPEND;

  constructor(private readonly options: HybridOptions) {
    if (options.store.model !== options.embedder.model) {
      throw new Error(`the vector store holds ${options.store.model} embeddings, the embedder makes ${options.embedder.model}`);
    }
  }

  /** Everything embedding has cost since this search was made (indexing and queries). */
  get spend(): EmbeddingSpend {
    return this.spent;
  }

  /**
   * Registers the chunks and embeds those whose hash the store does not hold yet. With `prune`,
   * `chunks` is the whole vault: vectors and chunks not in it are dropped. Batches are committed to
   * the store as they arrive, so an abort or failure keeps the work already paid for.
   */
  async embedChunks(chunks: readonly EmbeddableChunk[], options: { signal?: AbortSignal; prune?: boolean } = {}): Promise<EmbedReport> {
    const { store } = this.options;
    let removed = 0;
    if (options.prune) {
      const keep = new Set(chunks.map((c) => c.id));
      for (const id of [...this.chunks.keys()]) if (!keep.has(id)) this.forget(id);
      removed = store.retainOnly(keep);
    }
    for (const chunk of chunks) this.remember(chunk);
    const todo = chunks.filter((c) => !store.hasCurrent(c.id, c.hash));
    const batchSize = Math.max(1, this.options.batchSize ?? 64);
    let spend = NO_SPEND;
    for (let start = 0; start < todo.length; start += batchSize) {
      options.signal?.throwIfAborted();
      const batch = todo.slice(start, start + batchSize);
      const result = await this.options.embedder.embed(
        batch.map((c) => embeddingText(c)),
        options.signal,
      );
      spend = addSpend(spend, result);
      this.spent = addSpend(this.spent, result);
      batch.forEach((chunk, i) => store.put(chunk.id, chunk.hash, result.vectors[i]));
    }
    return { embedded: todo.length, reused: chunks.length - todo.length, removed, spend };
  }

  /** Forgets one chunk (its note was deleted or re-chunked). */
  removeChunk(id: string): void {
    this.forget(id);
    this.options.store.delete(id);
  }

  async search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    const k = options.k ?? 10;
    const candidates = this.options.candidates ?? Math.max(3 * k, 30);
    const lexical = await this.options.lexical.search(query, { k: candidates, signal: options.signal });
    let semantic: EmbeddableChunk[] = [];
    try {
      semantic = await this.semanticCandidates(query, candidates, options.signal);
    } catch (error) {
      if (options.signal?.aborted) throw error;
      this.options.onSemanticError?.(error);
    }
    type Candidate = { hit?: SearchHit; chunk?: EmbeddableChunk };
    const keyOf = (c: Candidate): string => {
      if (c.chunk) return c.chunk.id;
      const hit = c.hit as SearchHit;
      return this.idAt.get(locationKey(hit.path, hit.startLine, hit.heading)) ?? this.idAt.get(locationKey(hit.path, undefined, hit.heading)) ?? `lexical:${hit.path}\u0000${hit.startLine}`;
    };
    const fused = reciprocalRankFusion<Candidate>(
      [{ items: lexical.map((hit) => ({ hit })) }, { items: semantic.map((chunk) => ({ chunk })) }],
      keyOf,
      this.options.rrfK ?? DEFAULT_RRF_K,
    );
    const hits = fused.map(({ item, score }) => (item.hit ? { ...item.hit, score } : hitOf(item.chunk as EmbeddableChunk, score)));
    // The contract's tie order: score, then path, then line.
    hits.sort((a, b) => b.score - a.score || (a.path < b.path ? -1 : a.path > b.path ? 1 : 0) || a.startLine - b.startLine);
    return limitPerNote(hits, options.perNote).slice(0, k);
  }

  private async semanticCandidates(query: string, candidates: number, signal: AbortSignal | undefined): Promise<EmbeddableChunk[]> {
    const { store } = this.options;
    if (store.size === 0 || query.trim() === '') return [];
    const vector = await this.queryVector(query, signal);
    return store
      .topK(vector, candidates, (id) => this.chunks.has(id))
      .filter((hit) => hit.score > 0)
      .map((hit) => this.chunks.get(hit.id) as EmbeddableChunk);
  }

  private async queryVector(query: string, signal: AbortSignal | undefined): Promise<Float32Array> {
    const cached = this.queryCache.get(query);
    if (cached) {
      // Refresh its place: the cache drops the least recently used query.
      this.queryCache.delete(query);
      this.queryCache.set(query, cached);
      return cached;
    }
    const result = await this.options.embedder.embed([query], signal);
    this.spent = addSpend(this.spent, result);
    const vector = result.vectors[0];
    this.queryCache.set(query, vector);
    if (this.queryCache.size > QUERY_CACHE_SIZE) this.queryCache.delete(this.queryCache.keys().next().value as string);
    return vector;
  }

  private remember(chunk: EmbeddableChunk): void {
    const old = this.chunks.get(chunk.id);
    if (old) this.idAt.delete(locationKey(old.path, old.startLine, old.heading));
    this.chunks.set(chunk.id, chunk);
    this.idAt.set(locationKey(chunk.path, chunk.startLine, chunk.heading), chunk.id);
  }

  private forget(id: string): void {
    const old = this.chunks.get(id);
    if (!old) return;
    this.chunks.delete(id);
    if (this.idAt.get(locationKey(old.path, old.startLine, old.heading)) === id) this.idAt.delete(locationKey(old.path, old.startLine, old.heading));
  }
}

/** The text sent for a chunk: its path and heading give the embedding the context a bare section lacks. */
export function embeddingText(chunk: EmbeddableChunk): string {
  const title = chunk.path.replace(/\.md$/i, '').split('/').pop() ?? chunk.path;
  const heading = (chunk.headings ?? (chunk.heading ? [chunk.heading] : [])).join(' > ');
  return `${title}${heading ? ` > ${heading}` : ''}\n\n${chunk.text}`;
}

function limitPerNote(hits: readonly SearchHit[], perNote: number | undefined): SearchHit[] {
  if (perNote === undefined) return [...hits];
  const count = new Map<string, number>();
  return hits.filter((hit) => {
    const n = (count.get(hit.path) ?? 0) + 1;
    count.set(hit.path, n);
    return n <= perNote;
  });
}

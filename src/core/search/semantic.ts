import { addSpend, NO_SPEND, type Embedder, type EmbeddingSpend } from './embedder';
import type { ChunkRanker, VaultIndex } from './vaultIndex';
import { VectorStore, type VectorStoreData } from './vectors';

/**
 * Semantic search over the vault index's chunks: one vector per chunk, kept under the hash of the
 * text it was made from, so only new or changed chunks are ever sent to the embedding model. The
 * index fuses this ranking with its lexical one (VaultIndex.setSemantic). Embedding failures never
 * fail a search: the search answers lexically and the failure is kept for the settings to show.
 */

export const SEMANTIC_FORMAT_VERSION = 1;

export interface SemanticData {
  readonly version: number;
  /** What embedding has cost since the vectors were first made (the vault's and the queries'). */
  readonly spend: EmbeddingSpend;
  readonly store: VectorStoreData;
}

export interface SyncOptions {
  readonly signal?: AbortSignal;
  /** Chunks sent per embedding call (the provider client may split further). */
  readonly batchSize?: number;
  /** After each batch: chunks embedded so far and how many needed it. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Between batches (the plugin yields to the UI). */
  readonly pause?: () => Promise<void>;
}

export interface SyncReport {
  /** Chunks sent to the embedding model now. */
  readonly embedded: number;
  /** Chunks whose vector was already current. */
  readonly current: number;
  /** Chunks given the vector of an identical chunk already embedded (a note moved or re-cut). */
  readonly reused: number;
  /** Vectors dropped because their chunk is gone. */
  readonly removed: number;
  readonly spend: EmbeddingSpend;
}

export interface SemanticStatus {
  readonly model: string;
  /** Chunks with a current vector, of all the index's chunks (at the last sync). */
  readonly embedded: number;
  readonly chunks: number;
  readonly spend: EmbeddingSpend;
  /** The last embedding failure (indexing or a query), cleared by the next success. */
  readonly error: string | null;
}

const QUERY_CACHE_SIZE = 64;

export class ChunkVectors implements ChunkRanker {
  private readonly queryCache = new Map<string, Float32Array>();
  private spent: EmbeddingSpend;
  private lastError: string | null = null;
  private chunks = 0;

  private constructor(
    private readonly embedder: Embedder,
    private readonly store: VectorStore,
    spend: EmbeddingSpend,
  ) {
    this.spent = spend;
  }

  /** Empty vectors for `embedder`'s model. */
  static create(embedder: Embedder): ChunkVectors {
    return new ChunkVectors(embedder, new VectorStore(embedder.model), NO_SPEND);
  }

  /**
   * The vectors saved by toJSON(). Unreadable data, another format or another embedding model
   * gives empty vectors (vectors of two models are not comparable): the next sync redoes them.
   * The spend is kept across a model change: it is money already spent.
   */
  static restore(data: unknown, embedder: Embedder): ChunkVectors {
    const saved = isSemanticData(data) ? data : null;
    const store = saved ? VectorStore.restore(saved.store, embedder.model) : new VectorStore(embedder.model);
    return new ChunkVectors(embedder, store, saved ? saved.spend : NO_SPEND);
  }

  get model(): string {
    return this.embedder.model;
  }

  get size(): number {
    return this.store.size;
  }

  get status(): SemanticStatus {
    return { model: this.embedder.model, embedded: this.store.size, chunks: this.chunks, spend: this.spent, error: this.lastError };
  }

  /**
   * Brings the vectors in line with the index: drops those of chunks that are gone, gives a new
   * chunk the vector of an identical old one, and embeds the rest in batches. Each batch is kept
   * as it arrives, so a failure or an abort keeps what was paid for; a chunk re-indexed while its
   * batch was out is not stored (its new version is embedded by the next sync).
   */
  async sync(index: VaultIndex, options: SyncOptions = {}): Promise<SyncReport> {
    const targets = index.embeddingTargets();
    this.chunks = targets.length;
    const keep = new Set(targets.map((t) => String(t.id)));
    // Vectors of chunks that are gone, by hash: an unchanged section of a re-indexed note keeps its vector.
    const byHash = new Map<string, string>();
    for (const id of this.store.ids()) {
      if (!keep.has(id)) byHash.set(this.store.hashOf(id) as string, id);
    }
    let reused = 0;
    const todo: number[] = [];
    for (const { id, hash } of targets) {
      if (this.store.hasCurrent(String(id), hash)) continue;
      const old = byHash.get(hash);
      const vector = old === undefined ? undefined : this.store.vectorOf(old);
      if (vector) {
        this.store.put(String(id), hash, vector);
        reused++;
      } else todo.push(id);
    }
    const removed = this.store.retainOnly(keep);
    const current = targets.length - todo.length - reused;
    const batchSize = Math.max(1, options.batchSize ?? 64);
    let spend = NO_SPEND;
    let embedded = 0;
    for (let start = 0; start < todo.length; start += batchSize) {
      options.signal?.throwIfAborted();
      if (start > 0) await options.pause?.();
      const inputs = await index.embeddingInputs(todo.slice(start, start + batchSize));
      if (inputs.length > 0) {
        let batch;
        try {
          batch = await this.embedder.embed(
            inputs.map((input) => input.text),
            options.signal,
          );
        } catch (error) {
          if (!options.signal?.aborted) this.lastError = messageOf(error);
          throw error;
        }
        spend = addSpend(spend, batch);
        this.spent = addSpend(this.spent, batch);
        inputs.forEach((input, i) => {
          if (index.isCurrent(input.id, input.hash)) this.store.put(String(input.id), input.hash, batch.vectors[i]);
        });
        embedded += inputs.length;
        this.lastError = null;
      }
      options.onProgress?.(Math.min(start + batchSize, todo.length), todo.length);
    }
    return { embedded, current, reused, removed, spend };
  }

  /** Chunk ids by cosine similarity to the query, best first; [] (lexical only) when the query cannot be embedded. */
  async rank(query: string, n: number, accept: (id: number) => boolean, signal?: AbortSignal): Promise<number[]> {
    if (this.store.size === 0 || query.trim() === '') return [];
    let vector: Float32Array;
    try {
      vector = await this.queryVector(query, signal);
    } catch (error) {
      if (signal?.aborted) throw error;
      this.lastError = messageOf(error);
      return [];
    }
    return this.store
      .topK(vector, n, (id) => accept(Number(id)))
      .filter((hit) => hit.score > 0)
      .map((hit) => Number(hit.id));
  }

  toJSON(): SemanticData {
    return { version: SEMANTIC_FORMAT_VERSION, spend: this.spent, store: this.store.toJSON() };
  }

  private async queryVector(query: string, signal: AbortSignal | undefined): Promise<Float32Array> {
    const cached = this.queryCache.get(query);
    if (cached) {
      // Refresh its place: the cache drops the least recently used query.
      this.queryCache.delete(query);
      this.queryCache.set(query, cached);
      return cached;
    }
    const result = await this.embedder.embed([query], signal);
    this.spent = addSpend(this.spent, result);
    this.lastError = null;
    const vector = result.vectors[0];
    this.queryCache.set(query, vector);
    if (this.queryCache.size > QUERY_CACHE_SIZE) this.queryCache.delete(this.queryCache.keys().next().value as string);
    return vector;
  }
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

function isSemanticData(data: unknown): data is SemanticData {
  if (!data || typeof data !== 'object') return false;
  const d = data as Record<string, unknown>;
  const spend = d.spend as Record<string, unknown> | undefined;
  return (
    d.version === SEMANTIC_FORMAT_VERSION &&
    !!spend &&
    typeof spend === 'object' &&
    ['tokens', 'usd', 'requests', 'unpricedBatches'].every((key) => typeof spend[key] === 'number' && Number.isFinite(spend[key])) &&
    !!d.store
  );
}

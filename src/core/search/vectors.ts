/**
 * Chunk embeddings for semantic search: one unit-length float32 row per chunk id, with the content
 * hash it was computed from, under one embedding model. Search is cosine similarity by brute force
 * over a contiguous matrix (no index structure: fast enough up to ~50k chunks, and exact).
 * Persisted with the search index as JSON whose vectors are one base64 blob of little-endian float32.
 */

import { base64ToBytes, bytesToBase64 } from './base64';

export const VECTOR_STORE_VERSION = 1;

export interface VectorStoreData {
  readonly version: number;
  readonly model: string;
  readonly dims: number;
  readonly ids: readonly string[];
  readonly hashes: readonly string[];
  /** Rows in `ids` order, little-endian float32, base64. */
  readonly vectors: string;
}

export interface VectorHit {
  readonly id: string;
  /** Cosine similarity, -1..1. */
  readonly score: number;
}

const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/** Reverses each 4-byte group in place (float32 rows on a big-endian host). */
function swap32(bytes: Uint8Array): void {
  for (let i = 0; i + 3 < bytes.length; i += 4) {
    [bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]] = [bytes[i + 3], bytes[i + 2], bytes[i + 1], bytes[i]];
  }
}

export function floatsToBase64(values: Float32Array): string {
  const bytes = new Uint8Array(values.buffer.slice(values.byteOffset, values.byteOffset + values.byteLength));
  if (!LITTLE_ENDIAN) swap32(bytes);
  return bytesToBase64(bytes);
}

export function base64ToFloats(text: string): Float32Array {
  const bytes = base64ToBytes(text);
  if (bytes.length % 4 !== 0) throw new Error('vector data is not a whole number of float32 values');
  if (!LITTLE_ENDIAN) swap32(bytes);
  return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.length / 4);
}

export class VectorStore {
  private dims = 0;
  private matrix: Float32Array = new Float32Array(0);
  private readonly idList: string[] = [];
  private readonly hashList: string[] = [];
  private readonly rowOf = new Map<string, number>();

  constructor(readonly model: string) {}

  /**
   * The store saved by toJSON(), or an empty one when the data is unreadable, of another version,
   * or from another embedding model (vectors of two models are not comparable: all are redone).
   */
  static restore(data: unknown, model: string): VectorStore {
    const store = new VectorStore(model);
    if (!isStoreData(data) || data.version !== VECTOR_STORE_VERSION || data.model !== model) return store;
    let floats: Float32Array;
    try {
      floats = base64ToFloats(data.vectors);
    } catch {
      return store;
    }
    if (data.ids.length !== data.hashes.length || floats.length !== data.ids.length * data.dims) return store;
    store.dims = data.dims;
    store.matrix = floats;
    data.ids.forEach((id, row) => {
      store.idList.push(id);
      store.hashList.push(data.hashes[row]);
      store.rowOf.set(id, row);
    });
    return store;
  }

  get size(): number {
    return this.idList.length;
  }

  /** Vector length; 0 while empty. */
  get dimensions(): number {
    return this.dims;
  }

  ids(): readonly string[] {
    return this.idList;
  }

  /** True when `id` has a vector computed from content with this hash. */
  hasCurrent(id: string, hash: string): boolean {
    const row = this.rowOf.get(id);
    return row !== undefined && this.hashList[row] === hash;
  }

  /** The hash the vector of `id` was computed from, if it has one. */
  hashOf(id: string): string | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.hashList[row];
  }

  /** A copy of the (unit-length) vector of `id`. */
  vectorOf(id: string): Float32Array | undefined {
    const row = this.rowOf.get(id);
    return row === undefined ? undefined : this.matrix.slice(row * this.dims, (row + 1) * this.dims);
  }

  /** Stores (or replaces) a chunk's vector, normalised to unit length. */
  put(id: string, hash: string, vector: ArrayLike<number>): void {
    if (this.size === 0) this.dims = vector.length;
    if (vector.length !== this.dims || vector.length === 0) {
      throw new Error(`embedding of ${vector.length} dimensions where the store holds ${this.dims} (model ${this.model})`);
    }
    let row = this.rowOf.get(id);
    if (row === undefined) {
      row = this.idList.length;
      this.grow(row + 1);
      this.idList.push(id);
      this.hashList.push(hash);
      this.rowOf.set(id, row);
    } else {
      this.hashList[row] = hash;
    }
    let norm = 0;
    for (let i = 0; i < vector.length; i++) norm += vector[i] * vector[i];
    const scale = norm > 0 ? 1 / Math.sqrt(norm) : 0;
    const offset = row * this.dims;
    for (let i = 0; i < vector.length; i++) this.matrix[offset + i] = vector[i] * scale;
  }

  delete(id: string): boolean {
    const row = this.rowOf.get(id);
    if (row === undefined) return false;
    // Swap-remove: the last row moves into the hole, so the matrix stays contiguous.
    const last = this.idList.length - 1;
    if (row !== last) {
      this.matrix.copyWithin(row * this.dims, last * this.dims, (last + 1) * this.dims);
      this.idList[row] = this.idList[last];
      this.hashList[row] = this.hashList[last];
      this.rowOf.set(this.idList[row], row);
    }
    this.idList.pop();
    this.hashList.pop();
    this.rowOf.delete(id);
    if (this.idList.length === 0) this.dims = 0;
    return true;
  }

  /** Drops every vector whose id is not in `keep` (chunks that no longer exist); returns how many. */
  retainOnly(keep: ReadonlySet<string>): number {
    const gone = this.idList.filter((id) => !keep.has(id));
    for (const id of gone) this.delete(id);
    return gone.length;
  }

  /**
   * The `k` rows most similar to `query` (cosine), best first, ties by id. `accept` filters ids
   * (e.g. excluded folders) before ranking.
   */
  topK(query: ArrayLike<number>, k: number, accept?: (id: string) => boolean): VectorHit[] {
    if (k <= 0 || this.size === 0) return [];
    if (query.length !== this.dims) throw new Error(`query embedding of ${query.length} dimensions where the store holds ${this.dims}`);
    let norm = 0;
    for (let i = 0; i < query.length; i++) norm += query[i] * query[i];
    if (norm === 0) return [];
    const q = Float32Array.from(query, (v) => v / Math.sqrt(norm));
    const dims = this.dims;
    const matrix = this.matrix;
    // The best k so far, kept sorted best first; most rows fail the one comparison with the worst.
    const best: VectorHit[] = [];
    for (let row = 0; row < this.idList.length; row++) {
      const id = this.idList[row];
      if (accept && !accept(id)) continue;
      let dot = 0;
      const offset = row * dims;
      for (let i = 0; i < dims; i++) dot += matrix[offset + i] * q[i];
      if (best.length === k && !better(dot, id, best[k - 1])) continue;
      let at = best.length;
      while (at > 0 && better(dot, id, best[at - 1])) at--;
      best.splice(at, 0, { id, score: dot });
      if (best.length > k) best.pop();
    }
    return best;
  }

  toJSON(): VectorStoreData {
    return {
      version: VECTOR_STORE_VERSION,
      model: this.model,
      dims: this.dims,
      ids: [...this.idList],
      hashes: [...this.hashList],
      vectors: floatsToBase64(this.matrix.subarray(0, this.idList.length * this.dims)),
    };
  }

  private grow(rows: number): void {
    const needed = rows * this.dims;
    if (needed <= this.matrix.length) return;
    const next = new Float32Array(Math.max(needed, this.matrix.length * 2, 64 * this.dims));
    next.set(this.matrix);
    this.matrix = next;
  }
}

function better(score: number, id: string, than: VectorHit): boolean {
  return score > than.score || (score === than.score && id < than.id);
}

function isStoreData(data: unknown): data is VectorStoreData {
  if (!data || typeof data !== 'object') return false;
  const d = data as Record<string, unknown>;
  return (
    typeof d.version === 'number' &&
    typeof d.model === 'string' &&
    typeof d.dims === 'number' &&
    Number.isInteger(d.dims) &&
    d.dims >= 0 &&
    Array.isArray(d.ids) &&
    d.ids.every((id) => typeof id === 'string') &&
    Array.isArray(d.hashes) &&
    d.hashes.every((h) => typeof h === 'string') &&
    typeof d.vectors === 'string'
  );
}

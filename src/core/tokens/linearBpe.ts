import type { Tiktoken } from 'js-tiktoken/lite';
import { ByteRankTable } from './byteRankTable';

/**
 * Byte-pair encoding in O(m log m) for a piece of m bytes, token for token what js-tiktoken gives.
 *
 * js-tiktoken rescans every adjacent pair after each merge (and joins their bytes into a key each
 * time), so a piece the pre-tokenizer keeps whole costs at least m² steps: 5,000 spaces took 16 s,
 * 漢 ×100k 20 s. Here the candidate merges sit in a heap ordered by (rank, position), which picks the
 * same merge js-tiktoken picks at every step (the lowest rank, the leftmost on a tie), so the result
 * is the same; only the pairs next to a merge are looked up again.
 */

/** The parts of js-tiktoken's tokenizer this encoder reads (internal fields of js-tiktoken 1.x). */
interface TiktokenInternals {
  readonly patStr: string;
  readonly rankMap: Map<string, number>;
  /**
   * Set by a table unpacked from the bundle (rankCodec.ts): the ranks keyed by their bytes
   * (byteRankTable.ts). The encoder then looks up by those only, and js-tiktoken's own rankMap is
   * never built unless js-tiktoken itself reads it.
   */
  readonly byteRanks?: ByteRankTable;
}

/**
 * The internals when this js-tiktoken has them, checked once per tokenizer. The rank map is checked
 * by shape, not `instanceof Map`: a map made in another realm (a test environment's shared tables)
 * is a Map all the same.
 */
export function internalsOf(tokenizer: Tiktoken): TiktokenInternals | null {
  const t = tokenizer as unknown as { patStr?: unknown; rankMap?: Partial<Map<string, number>> };
  const map = t.rankMap;
  const mapLike = typeof map === 'object' && map !== null && typeof map.get === 'function' && typeof map.keys === 'function';
  return typeof t.patStr === 'string' && mapLike ? (t as unknown as TiktokenInternals) : null;
}

/** A piece shorter than this is merged js-tiktoken's way (a plain scan is faster than a heap on short pieces). */
const HEAP_FROM_BYTES = 48;

/** The pre-tokenizer, rank table and longest token of one encoding, prepared once. */
export class LinearEncoder {
  private readonly pattern: RegExp;
  private readonly ranks: Map<string, number>;
  private readonly maxTokenBytes: number;
  private readonly utf8 = new TextEncoder();
  /** The rank table keyed by bytes, built on the first long piece (given by a table unpacked from the bundle). */
  private byteRanks: ByteRankTable | null = null;
  /** Rank lookups made so far: the tests bound them by the bytes encoded (work, not time). */
  lookups = 0;

  /** True when the table came keyed by bytes (rankCodec.ts): every lookup uses byteRanks. */
  private readonly byteKeyed: boolean;

  constructor(internals: TiktokenInternals) {
    this.pattern = new RegExp(internals.patStr, 'gu');
    this.ranks = internals.rankMap;
    if (internals.byteRanks) {
      this.byteKeyed = true;
      this.byteRanks = internals.byteRanks;
      this.maxTokenBytes = internals.byteRanks.maxTokenBytes;
      return;
    }
    this.byteKeyed = false;
    // A merge longer than the longest token can never have a rank: no lookup needed.
    let longest = 1;
    for (const key of internals.rankMap.keys()) {
      let bytes = 1;
      for (let i = 0; i < key.length; i++) if (key.charCodeAt(i) === 44) bytes++;
      if (bytes > longest) longest = bytes;
    }
    this.maxTokenBytes = longest;
  }

  /** The rank of these bytes as one token, by whichever keys the table has. */
  private rankOfBytes(bytes: Uint8Array): number | undefined {
    if (!this.byteKeyed) return this.ranks.get(bytes.join(','));
    const rank = this.byteRankTable().rank(bytes, 0, bytes.length);
    return rank < 0 ? undefined : rank;
  }

  /** Token ids of text, special-token strings read as plain text (js-tiktoken's encode(text, [], [])). */
  encode(text: string, out: number[] = []): number[] {
    for (const piece of this.pieces(text)) this.encodePiece(piece, out);
    return out;
  }

  /** The pre-tokenizer's pieces of text, in order. */
  *pieces(text: string): Generator<string> {
    // A fresh regex per call: pieces() may be consumed lazily while another encode runs.
    const pattern = new RegExp(this.pattern);
    for (const m of text.matchAll(pattern)) yield m[0];
  }

  encodePiece(piece: string, out: number[]): void {
    const bytes = this.utf8.encode(piece);
    this.lookups++;
    const whole = this.rankOfBytes(bytes);
    if (whole !== undefined) {
      out.push(whole);
      return;
    }
    const ids = bytes.length < HEAP_FROM_BYTES ? this.mergeByScan(bytes) : this.mergeByHeap(bytes);
    for (const id of ids) out.push(id);
  }

  private rankOf(bytes: Uint8Array, start: number, end: number): number | undefined {
    if (end - start > this.maxTokenBytes) return undefined;
    this.lookups++;
    return this.rankOfBytes(bytes.subarray(start, end));
  }

  /** js-tiktoken's own merge (quadratic), for short pieces. */
  private mergeByScan(bytes: Uint8Array): number[] {
    const starts: number[] = [];
    for (let i = 0; i <= bytes.length; i++) starts.push(i);
    while (starts.length > 2) {
      let best = -1;
      let bestRank = Infinity;
      for (let i = 0; i + 2 < starts.length; i++) {
        const rank = this.rankOf(bytes, starts[i], starts[i + 2]);
        if (rank !== undefined && rank < bestRank) {
          bestRank = rank;
          best = i;
        }
      }
      if (best < 0) break;
      starts.splice(best + 1, 1);
    }
    return this.idsOf(bytes, starts);
  }

  /** Keyed by bytes, read in place: far faster than joining them into a key per lookup. */
  private byteRankTable(): ByteRankTable {
    this.byteRanks ??= ByteRankTable.ofRankMap(this.ranks);
    return this.byteRanks;
  }

  /** The same merges in heap order: O(m log m). */
  private mergeByHeap(bytes: Uint8Array): number[] {
    const ranks = this.byteRankTable();
    const m = bytes.length;
    const rankOf = (start: number, end: number) => {
      if (end - start > this.maxTokenBytes) return undefined;
      this.lookups++;
      const rank = ranks.rank(bytes, start, end);
      return rank < 0 ? undefined : rank;
    };
    // Parts as a linked list over their start offsets; end of a part = start of the next.
    const next = new Int32Array(m + 1);
    const prev = new Int32Array(m + 1);
    const alive = new Uint8Array(m + 1).fill(1);
    /** Rank of merging the part at i with the one after it (-1: no such token). */
    const pairRank = new Int32Array(m + 1).fill(-1);
    for (let i = 0; i <= m; i++) {
      next[i] = i + 1;
      prev[i] = i - 1;
    }
    const heap = new MinHeap();
    // Key: rank above, start below (starts < 2^32, ranks < 2^20: exact in a double).
    const push = (i: number) => {
      const end = next[i];
      const rank = end < m ? rankOf(i, next[end]) : undefined;
      pairRank[i] = rank ?? -1;
      if (rank !== undefined) heap.push(rank * 4294967296 + i);
    };
    for (let i = 0; i + 1 < m; i++) push(i);
    while (heap.size > 0) {
      const key = heap.pop();
      const i = key % 4294967296;
      const rank = (key - i) / 4294967296;
      // A stale entry: its part was merged away or its pair changed since.
      if (!alive[i] || pairRank[i] !== rank) continue;
      const gone = next[i];
      alive[gone] = 0;
      next[i] = next[gone];
      prev[next[gone]] = i;
      push(i);
      if (i > 0) push(prev[i]);
    }
    const ids: number[] = [];
    for (let i = 0; i < m; i = next[i]) {
      // Every single byte has a rank, and every merge made has one: never undefined.
      const id = ranks.rank(bytes, i, next[i]);
      if (id >= 0) ids.push(id);
    }
    return ids;
  }

  private idsOf(bytes: Uint8Array, starts: readonly number[]): number[] {
    const ids: number[] = [];
    for (let i = 0; i + 1 < starts.length; i++) {
      // Every single byte has a rank, and every merge made has one: never undefined.
      const id = this.rankOfBytes(bytes.subarray(starts[i], starts[i + 1]));
      if (id !== undefined) ids.push(id);
    }
    return ids;
  }
}

/** A binary min-heap of numbers. */
class MinHeap {
  private readonly items: number[] = [];

  get size(): number {
    return this.items.length;
  }

  push(value: number): void {
    const a = this.items;
    let i = a.length;
    a.push(value);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (a[parent] <= value) break;
      a[i] = a[parent];
      i = parent;
    }
    a[i] = value;
  }

  pop(): number {
    const a = this.items;
    const top = a[0];
    const last = a.pop() as number;
    if (a.length > 0) {
      let i = 0;
      const n = a.length;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= n) break;
        const r = l + 1;
        const c = r < n && a[r] < a[l] ? r : l;
        if (a[c] >= last) break;
        a[i] = a[c];
        i = c;
      }
      a[i] = last;
    }
    return top;
  }
}

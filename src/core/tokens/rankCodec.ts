import { inflateRawInSlices } from './inflate';

/**
 * Reads a rank table packed by scripts/packRanks.cjs (the form the plugin bundle carries): each
 * token is the pair of earlier tokens it joins, as byte planes, DEFLATEd, 13 bits per two printable
 * characters. Builds the tables straight from the pairs, without the base64 text js-tiktoken
 * parses (js-tiktoken's constructor takes over a second of CPU for o200k_base).
 */

/** One packed table, as scripts/packRanks.cjs writes it. */
export interface PackedRanks {
  readonly pat_str: string;
  readonly special_tokens: Record<string, number>;
  /** Tokens in the table (ranks 0 … count - 1). */
  readonly count: number;
  /** The table this one is stored over (cl100k_base over o200k_base): its tokens shared with it are that table's ranks. */
  readonly base?: string;
  /** Tokens shared with `base`. */
  readonly shared?: number;
  /** Bytes of DEFLATE data in `text`. */
  readonly bytes: number;
  readonly text: string;
}

/** js-tiktoken's internal maps: "b1,b2,…" → rank, and rank → bytes. */
export interface RankMaps {
  readonly rankMap: Map<string, number>;
  readonly textMap: Map<number, Uint8Array>;
}

/** The packer's alphabet: printable ASCII without the quotes and the backslash. */
const ALPHABET = (() => {
  let s = '';
  for (let c = 32; c < 127; c++) if (c !== 34 && c !== 39 && c !== 92 && c !== 96) s += String.fromCharCode(c);
  return s;
})();

/** The DEFLATE bytes back from the text (two characters → 13 bits). */
export function bytesOfText(text: string, length: number): Uint8Array {
  const value = new Int16Array(128).fill(-1);
  for (let i = 0; i < ALPHABET.length; i++) value[ALPHABET.charCodeAt(i)] = i;
  const out = new Uint8Array(length);
  let acc = 0;
  let bits = 0;
  let at = 0;
  for (let i = 0; i + 1 < text.length && at < length; i += 2) {
    const lo = value[text.charCodeAt(i) & 127];
    const hi = value[text.charCodeAt(i + 1) & 127];
    if (lo < 0 || hi < 0) throw new Error('packed rank table: a character outside the alphabet');
    acc |= (lo + hi * 91) << bits;
    bits += 13;
    while (bits >= 8 && at < length) {
      out[at++] = acc & 255;
      acc >>>= 8;
      bits -= 8;
    }
  }
  if (at < length) throw new Error('packed rank table: cut short');
  return out;
}

/**
 * A Map filled on its first read: js-tiktoken's own maps (comma-joined keys, and rank → bytes) are
 * read only by js-tiktoken's encode and decode, which counting does not call (linearBpe.ts reads
 * the byte-string keys), so the first count does not build 200,000 more keys and arrays.
 */
class LazyMap<K, V> extends Map<K, V> {
  private pending: (() => void) | null;
  constructor(fill: (map: Map<K, V>) => void) {
    super();
    this.pending = () => fill(this);
  }
  private ready(): void {
    const fill = this.pending;
    this.pending = null;
    fill?.();
  }
  override get(key: K): V | undefined {
    this.ready();
    return super.get(key);
  }
  override has(key: K): boolean {
    this.ready();
    return super.has(key);
  }
  override get size(): number {
    this.ready();
    return super.size;
  }
  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void): void {
    this.ready();
    super.forEach(callback);
  }
  override entries(): MapIterator<[K, V]> {
    this.ready();
    return super.entries();
  }
  override keys(): MapIterator<K> {
    this.ready();
    return super.keys();
  }
  override values(): MapIterator<V> {
    this.ready();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}

/** Each rank's bytes (one char per byte): what a table stored over this one reads. */
export interface RankKeys {
  readonly keys: readonly string[];
}

/** An unpacked table: the maps the tokenizer reads, and each rank's bytes (one char per byte), which a table stored over this one reads. */
export type UnpackedRanks = RankMaps & {
  readonly byteRanks: Map<string, number>;
  readonly maxTokenBytes: number;
  readonly keys: readonly string[];
};

/** Byte planes of 24-bit values (packRanks.cjs's planes24) read back: value i of `count` at `at`. */
function value24(planes: Uint8Array, at: number, count: number, i: number): number {
  return (planes[at + i] << 16) | (planes[at + count + i] << 8) | planes[at + 2 * count + i];
}

/** Tokens unpacked between two pauses of unpackRanksInSlices: o200k_base in 20 slices of a few ms. */
const SLICE_TOKENS = 10_000;

/**
 * The tokenizer's tables from the packed pairs: the byte-string map the linear encoder reads, built
 * at once, and js-tiktoken's two maps, built when js-tiktoken reads them. A table stored over
 * another (packed.base) needs that one unpacked first, as `base`.
 */
export function unpackRanks(packed: PackedRanks, base?: RankKeys): UnpackedRanks {
  const steps = unpackRanksInSlices(packed, base, false);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * unpackRanks in slices: the generator stops during and after the inflate and every SLICE_TOKENS tokens,
 * so a caller can let the host draw a frame between slices (tokenCounter.ts's warmTokenizer);
 * `slicedInflate` false when it is drained at once (fflate's one-shot inflate is the faster);
 * `indexed` false for a table wanted only as another's base: its keys, without the rank map.
 */
export function* unpackRanksInSlices(packed: PackedRanks, base?: RankKeys, slicedInflate = true, indexed = true): Generator<void, UnpackedRanks, void> {
  const n = packed.count;
  const planes = yield* inflateRawInSlices(bytesOfText(packed.text, packed.bytes), slicedInflate);
  yield;
  const shared = packed.base === undefined ? 0 : (packed.shared ?? 0);
  if (packed.base !== undefined && !base) throw new Error(`packed rank table: stored over ${packed.base}, which must be unpacked first`);
  const flagBytes = packed.base === undefined ? 0 : n;
  const own = n - shared;
  if (planes.length !== flagBytes + 3 * shared + 6 * own) throw new Error('packed rank table: wrong size');
  const pairsAt = flagBytes + 3 * shared;
  const keys: string[] = new Array<string>(n);
  const byteRanks = new Map<string, number>();
  let maxTokenBytes = 1;
  let s = 0;
  let o = 0;
  for (let r = 0; r < n; r++) {
    if (r > 0 && r % SLICE_TOKENS === 0) yield;
    let key: string;
    if (flagBytes > 0 && planes[r] === 1) {
      key = base!.keys[value24(planes, flagBytes, shared, s++)];
      if (key === undefined) throw new Error('packed rank table: a shared token outside its base');
    } else {
      const a = value24(planes, pairsAt, own, o);
      const b = value24(planes, pairsAt + 3 * own, own, o++);
      if (a > r || (a > 0 && b >= r)) throw new Error('packed rank table: a pair refers forward');
      key = a === 0 ? String.fromCharCode(b) : keys[a - 1] + keys[b];
    }
    keys[r] = key;
    if (key.length > maxTokenBytes) maxTokenBytes = key.length;
    if (indexed) byteRanks.set(key, r);
  }
  const bytesOf = (key: string) => {
    const bytes = new Uint8Array(key.length);
    for (let i = 0; i < key.length; i++) bytes[i] = key.charCodeAt(i);
    return bytes;
  };
  const rankMap = new LazyMap<string, number>((map) => {
    for (let r = 0; r < n; r++) map.set(bytesOf(keys[r]).join(','), r);
  });
  const textMap = new LazyMap<number, Uint8Array>((map) => {
    for (let r = 0; r < n; r++) map.set(r, bytesOf(keys[r]));
  });
  return { rankMap, textMap, byteRanks, maxTokenBytes, keys };
}

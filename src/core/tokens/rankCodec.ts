import { ByteModel, NumberModel, probabilities, RangeDecoder } from './rangeDecoder';

/**
 * Reads a rank table packed by scripts/packRanks.cjs (the form the plugin bundle carries): each
 * token is the pair of earlier tokens it joins, range coded (rangeDecoder.ts), 13 bits per two
 * printable characters. Builds the tables straight from the pairs, without the base64 text
 * js-tiktoken parses (js-tiktoken's constructor takes over a second of CPU for o200k_base).
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
  /** Bytes of range-coded data in `text`. */
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

/** The coded bytes back from the text (two characters → 13 bits). */
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

/** Tokens unpacked between two pauses of unpackRanksInSlices: o200k_base in 20 slices of a few ms. */
const SLICE_TOKENS = 10_000;

/** Ranks 0-255 are the single bytes in every table (8 plain bits each); packRanks.cjs checks it. */
const SINGLES = 256;

/** A byte's kind, for the contexts (as packRanks.cjs's byteKind). */
function byteKind(c: number): number {
  if (c === 32) return 1;
  if (c >= 65 && c <= 90) return 2;
  if (c >= 97 && c <= 122) return 3;
  if (c >= 48 && c <= 57) return 4;
  if (c >= 192) return 5;
  if (c >= 128) return 6;
  if (c < 32) return 7;
  return 0;
}

const bitLength = (v: number): number => (v === 0 ? 0 : 32 - Math.clz32(v));

/** A part's place among the tokens starting with its byte: its context is the byte's kind and how many there are. */
const PLACE_CONTEXTS = 8 * 20;
const placeContext = (firstByte: number, groupSize: number): number => byteKind(firstByte) * 20 + Math.min(19, bitLength(groupSize));

/** Contexts of a shared token's rank in the base: the bit length of its own rank. */
const SHARED_CONTEXTS = 32;

/** The models packRanks.cjs's packTable codes a table with, in the same order. */
class PairReader {
  private readonly firstLeft = new ByteModel(1);
  private readonly firstRight = new ByteModel(256);
  private readonly placeLeft = new NumberModel(PLACE_CONTEXTS);
  private readonly placeRight = new NumberModel(PLACE_CONTEXTS);
  private readonly flags = probabilities(2);
  private readonly sharedRank = new NumberModel(SHARED_CONTEXTS);
  private previousFlag = 0;
  /** The ranks read so far by first byte, in rank order: a part is its place in its byte's list. */
  private readonly groups: number[][] = Array.from({ length: 256 }, () => []);

  constructor(private readonly rc: RangeDecoder) {}

  single(): string {
    return String.fromCharCode(this.rc.direct(8));
  }

  /** Stored over a base: whether the next token is the base's (then sharedRankOf reads its rank there). */
  shared(): boolean {
    const flag = this.rc.bit(this.flags, this.previousFlag);
    this.previousFlag = flag;
    return flag === 1;
  }

  sharedRankOf(r: number): number {
    return this.sharedRank.decode(this.rc, bitLength(r));
  }

  /** The next pair's ranks, left then right: the right part's first byte is read in the context of the left part's last. */
  pair(keys: readonly string[]): [number, number] {
    const a = this.part(this.firstLeft, this.placeLeft, 0);
    const left = keys[a];
    return [a, this.part(this.firstRight, this.placeRight, left.charCodeAt(left.length - 1))];
  }

  private part(first: ByteModel, places: NumberModel, ctx: number): number {
    const byte = first.decode(this.rc, ctx);
    const group = this.groups[byte];
    const place = places.decode(this.rc, placeContext(byte, group.length));
    if (place >= group.length) throw new Error('packed rank table: a pair refers forward');
    return group[place];
  }

  /** Rank r, just read, joins its first byte's list. */
  add(r: number, key: string): void {
    this.groups[key.charCodeAt(0)].push(r);
  }
}

/**
 * The tokenizer's tables from the packed pairs: the byte-string map the linear encoder reads, built
 * at once, and js-tiktoken's two maps, built when js-tiktoken reads them. A table stored over
 * another (packed.base) needs that one unpacked first, as `base`.
 */
export function unpackRanks(packed: PackedRanks, base?: RankKeys): UnpackedRanks {
  const steps = unpackRanksInSlices(packed, base);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * unpackRanks in slices: the generator stops after reading the text and every SLICE_TOKENS tokens,
 * so a caller can let the host draw a frame between slices (tokenCounter.ts's warmTokenizer);
 * `indexed` false for a table wanted only as another's base: its keys, without the rank map.
 */
export function* unpackRanksInSlices(packed: PackedRanks, base?: RankKeys, indexed = true): Generator<void, UnpackedRanks, void> {
  const n = packed.count;
  if (packed.base !== undefined && !base) throw new Error(`packed rank table: stored over ${packed.base}, which must be unpacked first`);
  const over = packed.base === undefined ? undefined : base;
  const rc = new RangeDecoder(bytesOfText(packed.text, packed.bytes));
  yield;
  const reader = new PairReader(rc);
  const keys: string[] = new Array<string>(n);
  const byteRanks = new Map<string, number>();
  let maxTokenBytes = 1;
  let shared = 0;
  for (let r = 0; r < n; r++) {
    if (r > 0 && r % SLICE_TOKENS === 0) yield;
    let key: string;
    if (r < SINGLES) {
      key = reader.single();
    } else if (over && reader.shared()) {
      key = over.keys[reader.sharedRankOf(r)];
      if (key === undefined) throw new Error('packed rank table: a shared token outside its base');
      shared++;
    } else {
      const [a, b] = reader.pair(keys);
      key = keys[a] + keys[b];
    }
    keys[r] = key;
    reader.add(r, key);
    if (key.length > maxTokenBytes) maxTokenBytes = key.length;
    if (indexed) byteRanks.set(key, r);
  }
  if (shared !== (packed.shared ?? 0) || rc.position > packed.bytes + 5) throw new Error('packed rank table: wrong size');
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

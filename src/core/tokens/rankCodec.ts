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
  /** Each rank's first and last byte: reading them off the keys would flatten every joined string. */
  readonly firstBytes: Uint8Array;
  readonly lastBytes: Uint8Array;
}

/** An unpacked table: the maps the tokenizer reads, and each rank's bytes (one char per byte), which a table stored over this one reads. */
export type UnpackedRanks = RankMaps & {
  readonly byteRanks: Map<string, number>;
  readonly maxTokenBytes: number;
  readonly keys: readonly string[];
  readonly firstBytes: Uint8Array;
  readonly lastBytes: Uint8Array;
};

/** Tokens unpacked between two pauses of unpackRanksInSlices: o200k_base in 40 slices of a few ms. */
const SLICE_TOKENS = 5_000;

/** Ranks 0-255 are the single bytes in every table (8 plain bits each); packRanks.cjs checks it. */
const SINGLES = 256;

/** Each byte's kind, for the contexts (as packRanks.cjs's byteKind): a table, read twice per token. */
const BYTE_KINDS = (() => {
  const kinds = new Uint8Array(256);
  for (let c = 0; c < 256; c++) {
    if (c === 32) kinds[c] = 1;
    else if (c >= 65 && c <= 90) kinds[c] = 2;
    else if (c >= 97 && c <= 122) kinds[c] = 3;
    else if (c >= 48 && c <= 57) kinds[c] = 4;
    else if (c >= 192) kinds[c] = 5;
    else if (c >= 128) kinds[c] = 6;
    else if (c < 32) kinds[c] = 7;
  }
  return kinds;
})();

const bitLength = (v: number): number => (v === 0 ? 0 : 32 - Math.clz32(v));

/** A part's place among the tokens starting with its byte: its context is the byte's kind and how many there are. */
const PLACE_CONTEXTS = 8 * 20;
const placeContext = (firstByte: number, groupSize: number): number => BYTE_KINDS[firstByte] * 20 + Math.min(19, bitLength(groupSize));

/** The left part's rank is read as it is, in the context of the token's own rank's bit length. */
const LEFT_CONTEXTS = 20;

/** Contexts of a shared token's rank in the base: the bit length of its own rank. */
const SHARED_CONTEXTS = 32;

/**
 * One table read token by token, with the models packRanks.cjs's packTable codes it with, in the
 * same order. The loop is a plain method (not the generator's body), which V8 optimizes far better.
 */
class TableReader {
  private readonly leftRank = new NumberModel(LEFT_CONTEXTS);
  private readonly firstRight = new ByteModel(256);
  private readonly placeRight = new NumberModel(PLACE_CONTEXTS);
  private readonly flags = probabilities(4);
  private readonly sharedRank = new NumberModel(SHARED_CONTEXTS);
  private previousFlag = 0;
  /** The ranks read so far by first byte, in rank order: a part is its place in its byte's list. */
  private readonly groups: number[][] = Array.from({ length: 256 }, () => []);
  readonly keys: string[];
  readonly firstBytes: Uint8Array;
  readonly lastBytes: Uint8Array;
  readonly byteRanks = new Map<string, number>();
  maxTokenBytes = 1;
  /** Tokens read from the base. */
  shared = 0;
  /** The next rank to read. */
  next = 0;

  constructor(
    private readonly rc: RangeDecoder,
    readonly count: number,
    private readonly over: RankKeys | undefined,
    private readonly indexed: boolean,
  ) {
    this.keys = new Array<string>(count);
    this.firstBytes = new Uint8Array(count);
    this.lastBytes = new Uint8Array(count);
  }

  /** Reads the ranks up to `end` (excluded). */
  readUntil(end: number): void {
    const { keys, firstBytes, lastBytes, over, rc, groups, byteRanks, indexed } = this;
    let maxTokenBytes = this.maxTokenBytes;
    for (let r = this.next; r < end; r++) {
      let key: string;
      if (r < SINGLES) {
        // Its own method: their branch run first would leave the pairs' branch without type feedback when V8 optimizes this loop.
        key = this.single(r);
      } else if (over && this.isShared()) {
        const at = this.sharedRank.decode(rc, bitLength(r));
        key = over.keys[at];
        if (key === undefined) throw new Error('packed rank table: a shared token outside its base');
        firstBytes[r] = over.firstBytes[at];
        lastBytes[r] = over.lastBytes[at];
        this.shared++;
      } else {
        const a = this.leftRank.decode(rc, Math.min(19, bitLength(r)));
        if (a >= r) throw new Error('packed rank table: a pair refers forward');
        const b = this.right(lastBytes[a]);
        key = keys[a] + keys[b];
        firstBytes[r] = firstBytes[a];
        lastBytes[r] = lastBytes[b];
      }
      keys[r] = key;
      groups[firstBytes[r]].push(r);
      if (key.length > maxTokenBytes) maxTokenBytes = key.length;
      if (indexed) byteRanks.set(key, r);
    }
    this.maxTokenBytes = maxTokenBytes;
    this.next = end;
  }

  private single(r: number): string {
    const byte = this.rc.direct(8);
    this.firstBytes[r] = this.lastBytes[r] = byte;
    return String.fromCharCode(byte);
  }

  /** Stored over a base: whether the next token is the base's. */
  private isShared(): boolean {
    const flag = this.rc.tree(this.flags, this.previousFlag * 2, 1);
    this.previousFlag = flag;
    return flag === 1;
  }

  /** The right part: its first byte in the context of the left part's last, then its place among the tokens starting with it. */
  private right(leftLast: number): number {
    const byte = this.firstRight.decode(this.rc, leftLast);
    const group = this.groups[byte];
    const place = this.placeRight.decode(this.rc, placeContext(byte, group.length));
    if (place >= group.length) throw new Error('packed rank table: a pair refers forward');
    return group[place];
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
  const reader = new TableReader(rc, n, over, indexed);
  for (let r = 0; r < n; r += SLICE_TOKENS) {
    if (r > 0) yield;
    reader.readUntil(Math.min(n, r + SLICE_TOKENS));
  }
  if (reader.shared !== (packed.shared ?? 0) || rc.position > packed.bytes + 5) throw new Error('packed rank table: wrong size');
  const { keys, firstBytes, lastBytes, byteRanks, maxTokenBytes } = reader;
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
  return { rankMap, textMap, byteRanks, maxTokenBytes, keys, firstBytes, lastBytes };
}

import { ByteRankTable } from './byteRankTable';
import { LazyMap } from './lazyMap';
import { ByteModel, NumberModel, probabilities, RangeDecoder } from './rangeDecoder';

/**
 * Reads a rank table packed by scripts/packRanks.cjs (the form the plugin bundle carries): each
 * token is the pair of earlier tokens it joins, range coded (rangeDecoder.ts), 13 bits per two
 * printable characters. Builds the byte table (byteRankTable.ts) straight from the pairs, without
 * the base64 text js-tiktoken parses (js-tiktoken's constructor takes over a second of CPU for
 * o200k_base).
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

/** What a table stored over another reads of it: its tokens' bytes. */
export interface RankKeys {
  readonly byteRanks: ByteRankTable;
}

/** js-tiktoken's internal maps, built when js-tiktoken reads them. */
function rankMapsOf(table: ByteRankTable): RankMaps {
  const n = table.size;
  const rankMap = new LazyMap<string, number>((map) => {
    for (let e = 0; e < n; e++) map.set(table.bytesOf(e).join(','), table.rankOf(e));
  });
  const textMap = new LazyMap<number, Uint8Array>((map) => {
    for (let e = 0; e < n; e++) map.set(table.rankOf(e), table.bytesOf(e));
  });
  return { rankMap, textMap };
}

/**
 * An unpacked table: js-tiktoken's two maps and the byte table linearBpe.ts reads (own fields, which
 * tokenCounter.ts copies onto the tokenizer), and each rank's bytes as a string (`keys`, built when
 * read: only the tests read it).
 */
export class UnpackedRanks implements RankMaps, RankKeys {
  readonly rankMap: Map<string, number>;
  readonly textMap: Map<number, Uint8Array>;
  readonly maxTokenBytes: number;
  constructor(readonly byteRanks: ByteRankTable) {
    ({ rankMap: this.rankMap, textMap: this.textMap } = rankMapsOf(byteRanks));
    this.maxTokenBytes = byteRanks.maxTokenBytes;
  }
  get keys(): readonly string[] {
    return Array.from({ length: this.byteRanks.size }, (_, e) => this.byteRanks.keyOf(e));
  }
}

/** Tokens unpacked between two pauses of unpackRanksInSlices: o200k_base in 40-odd slices of a few ms. */
const SLICE_TOKENS = 5_000;
/** The first slice's tokens, doubled slice by slice up to SLICE_TOKENS: V8 runs the first ones unoptimized, several times slower. */
const FIRST_SLICE_TOKENS = 1_000;

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

/** Bytes in o200k_base's 199,998 tokens: the byte table is made this big at once (it grows if need be). */
const BYTES_PER_TOKEN = 7;

/**
 * One table read token by token, with the models packRanks.cjs's packTable codes it with, in the
 * same order, into a byte table. The loop is a plain method (not the generator's body), which V8
 * optimizes far better.
 */
class TableReader {
  private readonly leftRank = new NumberModel(LEFT_CONTEXTS);
  private readonly firstRight = new ByteModel(256);
  private readonly placeRight = new NumberModel(PLACE_CONTEXTS);
  private readonly flags = probabilities(4);
  private readonly sharedRank = new NumberModel(SHARED_CONTEXTS);
  private previousFlag = 0;
  /** The ranks read so far by first byte, in rank order: a part is its place in its byte's list. */
  private readonly groups: Int32Array[] = Array.from({ length: 256 }, () => new Int32Array(64));
  private readonly groupSizes = new Int32Array(256);
  readonly table: ByteRankTable;
  /** Tokens read from the base. */
  shared = 0;
  /** The next rank to read. */
  next = 0;

  constructor(
    private readonly rc: RangeDecoder,
    readonly count: number,
    private readonly over: ByteRankTable | undefined,
  ) {
    this.table = new ByteRankTable(count, count * BYTES_PER_TOKEN);
  }

  /**
   * Reads the ranks up to `end` (excluded). A table with a base and one without each run a loop of
   * their own: one loop for both, optimized by V8 on the first table, would be thrown away and
   * compiled again on the second's shared tokens (a branch it had never seen taken).
   */
  readUntil(end: number): void {
    let r = this.next;
    for (; r < end && r < SINGLES; r++) this.single(r);
    if (this.over) this.readOver(this.over, r, end);
    else this.readPairs(r, end);
    this.next = end;
  }

  private single(r: number): void {
    this.table.addByte(this.rc.direct(8));
    this.grouped(r);
  }

  private readPairs(from: number, end: number): void {
    for (let r = from; r < end; r++) {
      this.pair(r);
      this.grouped(r);
    }
  }

  private readOver(over: ByteRankTable, from: number, end: number): void {
    const { table, rc } = this;
    for (let r = from; r < end; r++) {
      if (this.isShared()) {
        const at = this.sharedRank.decode(rc, bitLength(r));
        if (at >= over.size) throw new Error('packed rank table: a shared token outside its base');
        table.addFrom(over, at);
        this.shared++;
      } else this.pair(r);
      this.grouped(r);
    }
  }

  /** A token that joins two earlier ones: the left part's rank, then the right part. */
  private pair(r: number): void {
    const a = this.leftRank.decode(this.rc, Math.min(19, bitLength(r)));
    if (a >= r) throw new Error('packed rank table: a pair refers forward');
    this.table.addJoined(a, this.right(this.table.last(a)));
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
    const size = this.groupSizes[byte];
    const place = this.placeRight.decode(this.rc, placeContext(byte, size));
    if (place >= size) throw new Error('packed rank table: a pair refers forward');
    return this.groups[byte][place];
  }

  /** Rank r into its first byte's list (typed arrays doubled as they fill: less for the collector than growing arrays of numbers). */
  private grouped(r: number): void {
    const byte = this.table.first(r);
    const size = this.groupSizes[byte];
    const group = size < this.groups[byte].length ? this.groups[byte] : this.grow(byte);
    group[size] = r;
    this.groupSizes[byte] = size + 1;
  }

  private grow(byte: number): Int32Array {
    const bigger = new Int32Array(this.groups[byte].length * 2);
    bigger.set(this.groups[byte]);
    this.groups[byte] = bigger;
    return bigger;
  }
}

/**
 * The tokenizer's tables from the packed pairs: the byte table the linear encoder reads, built at
 * once, and js-tiktoken's two maps, built when js-tiktoken reads them. A table stored over another
 * (packed.base) needs that one unpacked first, as `base`.
 */
export function unpackRanks(packed: PackedRanks, base?: RankKeys): UnpackedRanks {
  const steps = unpackRanksInSlices(packed, base, { sliceTokens: packed.count });
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

export interface UnpackOptions {
  /** Tokens between two pauses. At once (a count's synchronous unpacking), one call: V8 compiles the loop once, not twice. */
  readonly sliceTokens?: number;
}

/**
 * unpackRanks in slices: the generator stops after reading the text and every SLICE_TOKENS tokens
 * (fewer in the first slices), so a caller can let the host draw a frame between slices
 * (tokenCounter.ts's warmTokenizer).
 * The byte table's hash index is built on its first lookup: a table unpacked only as another's
 * base never builds it.
 */
export function* unpackRanksInSlices(packed: PackedRanks, base?: RankKeys, options: UnpackOptions = {}): Generator<void, UnpackedRanks, void> {
  const { sliceTokens = SLICE_TOKENS } = options;
  const n = packed.count;
  if (packed.base !== undefined && !base) throw new Error(`packed rank table: stored over ${packed.base}, which must be unpacked first`);
  const over = packed.base === undefined ? undefined : base?.byteRanks;
  const rc = new RangeDecoder(bytesOfText(packed.text, packed.bytes));
  yield;
  const reader = new TableReader(rc, n, over);
  for (let r = 0, slice = Math.min(FIRST_SLICE_TOKENS, sliceTokens); r < n; r += slice, slice = Math.min(slice * 2, sliceTokens)) {
    if (r > 0) yield;
    reader.readUntil(Math.min(n, r + slice));
  }
  if (reader.shared !== (packed.shared ?? 0) || rc.position > packed.bytes + 5) throw new Error('packed rank table: wrong size');
  return new UnpackedRanks(reader.table);
}

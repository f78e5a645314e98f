/**
 * A rank table as the counter reads it: every token's bytes end to end in one array, and an
 * open-addressed hash from bytes to rank over typed arrays. A table unpacked from the bundle
 * (rankCodec.ts) fills it token by token, each token the bytes of two earlier ones, with no string
 * or Map entry per token: building 200,000 joined strings and hashing them into a Map was some
 * 110 ms of the first count, more than the decoding itself. A lookup reads the bytes in place.
 */

/** The hash's multiplier (odd); the slot is the product's top bits by a second, Fibonacci multiplier. */
const MULTIPLIER = 0x01000193;
const SPREAD = 0x9e3779b1 | 0;

/** The hash of `source[start … end)` a table files it under (exported for the tests: entries that collide). */
export function byteHash(source: Uint8Array, start: number, end: number): number {
  let hash = 0;
  for (let i = start; i < end; i++) hash = (Math.imul(hash, MULTIPLIER) + source[i] + 1) | 0;
  return hash;
}

export class ByteRankTable {
  /** The entries' bytes, end to end (grown as entries are added). */
  private bytes: Uint8Array;
  private used = 0;
  /** Entry e's bytes are bytes[starts[e]] … bytes[starts[e + 1] - 1]. */
  private readonly starts: Int32Array;
  /** Each entry's hash: the sum of (byte + 1) × MULTIPLIER^(bytes after it), mod 2^32. */
  private readonly hashes: Int32Array;
  /** Each entry's rank (the entry's own index in a table unpacked from the bundle). */
  private readonly ranks: Int32Array;
  /** Each entry's first and last byte, which the unpacking reads for every token: a small array stays in cache. */
  private readonly firstBytes: Uint8Array;
  private readonly lastBytes: Uint8Array;
  /** MULTIPLIER^k for k below 256 (longer entries compute theirs): a joined entry's hash from its parts' in O(1). */
  private readonly powers = new Int32Array(256);
  /** The hash index (entry + 1, 0 for none), empty until the first lookup; never null, so V8 keeps one field type. */
  private slots = new Int32Array(0);
  private shift = 32;
  /** Entries added so far. */
  size = 0;
  /** Bytes in the longest entry. */
  maxTokenBytes = 0;

  constructor(readonly capacity: number, byteCapacity = capacity * 8) {
    this.bytes = new Uint8Array(byteCapacity);
    this.starts = new Int32Array(capacity + 1);
    this.hashes = new Int32Array(capacity);
    this.ranks = new Int32Array(capacity);
    this.firstBytes = new Uint8Array(capacity);
    this.lastBytes = new Uint8Array(capacity);
    this.powers[0] = 1;
    for (let k = 1; k < this.powers.length; k++) this.powers[k] = Math.imul(this.powers[k - 1], MULTIPLIER);
  }

  /** A table of js-tiktoken's own rank map ("b1,b2,…" → rank), as linearBpe.ts reads it run from source. */
  static ofRankMap(rankMap: ReadonlyMap<string, number>): ByteRankTable {
    const table = new ByteRankTable(rankMap.size);
    let scratch = new Uint8Array(256);
    for (const [key, rank] of rankMap) {
      // No more bytes than characters in the key.
      if (key.length > scratch.length) scratch = new Uint8Array(key.length);
      let length = 0;
      let value = 0;
      for (let i = 0; i < key.length; i++) {
        const c = key.charCodeAt(i);
        if (c === 44) {
          scratch[length++] = value;
          value = 0;
        } else value = value * 10 + c - 48;
      }
      scratch[length++] = value;
      table.addBytes(scratch, 0, length, rank);
    }
    return table;
  }

  private reserve(extra: number): void {
    if (this.used + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(this.bytes.length * 2, this.used + extra));
    grown.set(this.bytes.subarray(0, this.used));
    this.bytes = grown;
  }

  /** MULTIPLIER^length. */
  private power(length: number): number {
    return length < 256 ? this.powers[length] : this.longPower(length);
  }

  private longPower(length: number): number {
    let power = this.powers[255];
    for (let k = 255; k < length; k++) power = Math.imul(power, MULTIPLIER);
    return power;
  }

  private added(hash: number, rank: number): void {
    if (this.size >= this.capacity) throw new Error('rank table: more tokens than it was made for');
    const e = this.size++;
    this.hashes[e] = hash;
    this.ranks[e] = rank;
    const start = this.starts[e];
    this.starts[e + 1] = this.used;
    this.firstBytes[e] = this.bytes[start];
    this.lastBytes[e] = this.bytes[this.used - 1];
    const length = this.used - start;
    if (length > this.maxTokenBytes) this.maxTokenBytes = length;
    if (this.slots.length > 0) this.place(e);
  }

  /** An entry of `source[start … end)`, ranked `rank` (the next index when not given). */
  addBytes(source: Uint8Array, start: number, end: number, rank = this.size): void {
    this.reserve(end - start);
    let hash = 0;
    let at = this.used;
    for (let i = start; i < end; i++) {
      const b = source[i];
      this.bytes[at++] = b;
      hash = (Math.imul(hash, MULTIPLIER) + b + 1) | 0;
    }
    this.used = at;
    this.added(hash, rank);
  }

  /** The next entry: one byte. */
  addByte(byte: number): void {
    this.reserve(1);
    this.bytes[this.used++] = byte;
    this.added(byte + 1, this.size);
  }

  /** The next entry: entry a's bytes then entry b's. */
  addJoined(a: number, b: number): void {
    const starts = this.starts;
    const aStart = starts[a];
    const aEnd = starts[a + 1];
    const bStart = starts[b];
    const bEnd = starts[b + 1];
    this.reserve(aEnd - aStart + bEnd - bStart);
    const bytes = this.bytes;
    let at = this.used;
    for (let i = aStart; i < aEnd; i++) bytes[at++] = bytes[i];
    for (let i = bStart; i < bEnd; i++) bytes[at++] = bytes[i];
    this.used = at;
    const hash = (Math.imul(this.hashes[a], this.power(bEnd - bStart)) + this.hashes[b]) | 0;
    this.added(hash, this.size);
  }

  /** The next entry: entry `e` of another table (a token a table shares with its base). */
  addFrom(other: ByteRankTable, e: number): void {
    const start = other.starts[e];
    const end = other.starts[e + 1];
    this.reserve(end - start);
    // A loop: a subarray and set() per token of a few bytes cost several times more.
    const bytes = this.bytes;
    const from = other.bytes;
    let at = this.used;
    for (let i = start; i < end; i++) bytes[at++] = from[i];
    this.used = at;
    this.added(other.hashes[e], this.size);
  }

  /** Entry e's first byte. */
  first(e: number): number {
    return this.firstBytes[e];
  }

  /** Entry e's last byte. */
  last(e: number): number {
    return this.lastBytes[e];
  }

  /** A copy of entry e's bytes. */
  bytesOf(e: number): Uint8Array {
    return this.bytes.slice(this.starts[e], this.starts[e + 1]);
  }

  rankOf(e: number): number {
    return this.ranks[e];
  }

  /** Entry e's bytes as one char per byte. */
  keyOf(e: number): string {
    let key = '';
    for (let i = this.starts[e]; i < this.starts[e + 1]; i++) key += String.fromCharCode(this.bytes[i]);
    return key;
  }

  /** Builds the hash index now (a warm-up's step of its own) if no lookup has yet. */
  prepare(): void {
    if (this.slots.length === 0) this.index();
  }

  /** The rank of `source[start … end)` as one token, or -1. The hash index is built on the first lookup. */
  rank(source: Uint8Array, start: number, end: number): number {
    const length = end - start;
    if (length > this.maxTokenBytes || length <= 0) return -1;
    const slots = this.slots.length > 0 ? this.slots : this.index();
    const hash = byteHash(source, start, end);
    const mask = slots.length - 1;
    for (let s = Math.imul(hash, SPREAD) >>> this.shift; ; s = (s + 1) & mask) {
      const e = slots[s] - 1;
      if (e < 0) return -1;
      if (this.hashes[e] === hash && this.equals(e, source, start, end)) return this.ranks[e];
    }
  }

  private equals(e: number, source: Uint8Array, start: number, end: number): boolean {
    const from = this.starts[e];
    if (this.starts[e + 1] - from !== end - start) return false;
    const bytes = this.bytes;
    for (let i = 0; i < end - start; i++) if (bytes[from + i] !== source[start + i]) return false;
    return true;
  }

  /**
   * The hash index over every entry so far (entries added later are placed as they come), built at
   * once on the first lookup: filled as the tokens were unpacked, it made the unpacking slower.
   */
  private index(): Int32Array {
    let bits = 4;
    while (1 << bits < this.capacity * 2) bits++;
    const slots = new Int32Array(1 << bits);
    const shift = 32 - bits;
    const mask = slots.length - 1;
    const hashes = this.hashes;
    this.slots = slots;
    this.shift = shift;
    // The common case in a small loop: the first free slot after the hash's. An entry with the same
    // hash (the same bytes, or a rare collision) is left to place(), which compares the bytes.
    for (let e = 0; e < this.size; e++) {
      const hash = hashes[e];
      let s = Math.imul(hash, SPREAD) >>> shift;
      let other = slots[s];
      while (other !== 0 && hashes[other - 1] !== hash) {
        s = (s + 1) & mask;
        other = slots[s];
      }
      if (other === 0) slots[s] = e + 1;
      else this.place(e);
    }
    return slots;
  }

  /** Entry e into its slot; an entry with the same bytes is replaced, as a later Map.set replaces a value. */
  private place(e: number): void {
    const slots = this.slots;
    const mask = slots.length - 1;
    const hash = this.hashes[e];
    const start = this.starts[e];
    const end = this.starts[e + 1];
    for (let s = Math.imul(hash, SPREAD) >>> this.shift; ; s = (s + 1) & mask) {
      const other = slots[s] - 1;
      if (other < 0 || (this.hashes[other] === hash && this.equals(other, this.bytes, start, end))) {
        slots[s] = e + 1;
        return;
      }
    }
  }
}

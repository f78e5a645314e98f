import { inflateSync } from 'fflate';

/**
 * Reads a rank table packed by scripts/packRanks.cjs (the form the plugin bundle carries): each
 * token is the pair of earlier tokens it joins, as byte planes, DEFLATEd, 13 bits per two printable
 * characters. Builds js-tiktoken's two maps straight from the pairs, without the base64 text
 * js-tiktoken parses (o200k_base: about 0.1 s here against 1.1 s through js-tiktoken's constructor).
 */

/** One packed table, as scripts/packRanks.cjs writes it. */
export interface PackedRanks {
  readonly pat_str: string;
  readonly special_tokens: Record<string, number>;
  /** Tokens in the table (ranks 0 … count - 1). */
  readonly count: number;
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
 * rank → bytes, filled on its first read: only js-tiktoken's decode() reads it, and counting never
 * decodes, so the first count does not pay for 200,000 byte arrays.
 */
class LazyTextMap extends Map<number, Uint8Array> {
  private pending: (() => void) | null;
  constructor(fill: (map: Map<number, Uint8Array>) => void) {
    super();
    this.pending = () => fill(this);
  }
  private ready(): void {
    const fill = this.pending;
    this.pending = null;
    fill?.();
  }
  override get(rank: number): Uint8Array | undefined {
    this.ready();
    return super.get(rank);
  }
  override has(rank: number): boolean {
    this.ready();
    return super.has(rank);
  }
  override get size(): number {
    this.ready();
    return super.size;
  }
  override forEach(callback: (value: Uint8Array, key: number, map: Map<number, Uint8Array>) => void): void {
    this.ready();
    super.forEach(callback);
  }
  override entries(): MapIterator<[number, Uint8Array]> {
    this.ready();
    return super.entries();
  }
  override keys(): MapIterator<number> {
    this.ready();
    return super.keys();
  }
  override values(): MapIterator<Uint8Array> {
    this.ready();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[number, Uint8Array]> {
    return this.entries();
  }
}

/** The maps js-tiktoken builds from a bpe_ranks text, built from the packed pairs. */
export function unpackRanks(packed: PackedRanks): RankMaps {
  const n = packed.count;
  const planes = inflateSync(bytesOfText(packed.text, packed.bytes));
  if (planes.length !== n * 6) throw new Error('packed rank table: wrong size');
  const left = new Int32Array(n);
  const right = new Int32Array(n);
  const keys: string[] = new Array<string>(n);
  const rankMap = new Map<string, number>();
  for (let r = 0; r < n; r++) {
    const a = (planes[r] << 16) | (planes[n + r] << 8) | planes[2 * n + r];
    const b = (planes[3 * n + r] << 16) | (planes[4 * n + r] << 8) | planes[5 * n + r];
    if (a > r || (a > 0 && b >= r)) throw new Error('packed rank table: a pair refers forward');
    left[r] = a;
    right[r] = b;
    keys[r] = a === 0 ? String(b) : `${keys[a - 1]},${keys[b]}`;
    rankMap.set(keys[r], r);
  }
  const textMap = new LazyTextMap((map) => {
    const bytes: Uint8Array[] = new Array<Uint8Array>(n);
    for (let r = 0; r < n; r++) {
      if (left[r] === 0) bytes[r] = Uint8Array.of(right[r]);
      else {
        const a = bytes[left[r] - 1];
        const b = bytes[right[r]];
        const token = new Uint8Array(a.length + b.length);
        token.set(a);
        token.set(b, a.length);
        bytes[r] = token;
      }
      map.set(r, bytes[r]);
    }
  });
  return { rankMap, textMap };
}

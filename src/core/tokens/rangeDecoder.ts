/**
 * The decoding half of scripts/rangeEncoder.cjs, which packs the rank tables: an LZMA-style binary
 * range decoder (11-bit adaptive probabilities, shift 5), a byte as a bit tree, and a number as its
 * bit length then its top bits (adaptive) and the rest (plain bits). Both halves must change together.
 */

const PROB_BITS = 11;
const PROB_ONE = 1 << PROB_BITS;
const MOVE_BITS = 5;
const TOP = 2 ** 24;
/** Top bits of a number decoded adaptively below its leading one. */
const MANTISSA_BITS = 5;

export function probabilities(n: number): Uint16Array {
  return new Uint16Array(n).fill(PROB_ONE >> 1);
}

export class RangeDecoder {
  // Both stay below 2^32 as plain numbers (code < range always).
  private code = 0;
  private range = 0xffffffff;
  private at = 0;

  constructor(private readonly data: Uint8Array) {
    for (let i = 0; i < 5; i++) this.code = this.code * 256 + this.next();
    this.code %= 2 ** 32;
  }

  /** Bytes read so far (past the end counts: the encoder's last bytes are implied zeros). */
  get position(): number {
    return this.at;
  }

  private next(): number {
    return this.at < this.data.length ? this.data[this.at++] : (this.at++, 0);
  }

  bit(probs: Uint16Array, i: number): number {
    const p = probs[i];
    const bound = (this.range >>> PROB_BITS) * p;
    let bit: number;
    if (this.code < bound) {
      this.range = bound;
      probs[i] = p + ((PROB_ONE - p) >> MOVE_BITS);
      bit = 0;
    } else {
      this.code -= bound;
      this.range -= bound;
      probs[i] = p - (p >> MOVE_BITS);
      bit = 1;
    }
    while (this.range < TOP) {
      this.range *= 256;
      this.code = this.code * 256 + this.next();
    }
    return bit;
  }

  /** `count` plain bits, high first. */
  direct(count: number): number {
    let value = 0;
    for (let k = 0; k < count; k++) {
      this.range = Math.floor(this.range / 2);
      let bit = 0;
      if (this.code >= this.range) {
        this.code -= this.range;
        bit = 1;
      }
      value = value * 2 + bit;
      while (this.range < TOP) {
        this.range *= 256;
        this.code = this.code * 256 + this.next();
      }
    }
    return value;
  }
}

/** A byte in one of `contexts` contexts: a bit tree of 255 nodes each. */
export class ByteModel {
  private readonly probs: Uint16Array;
  constructor(contexts: number) {
    this.probs = probabilities(contexts * 256);
  }
  decode(rc: RangeDecoder, ctx: number): number {
    const base = ctx * 256;
    let node = 1;
    while (node < 256) node = node * 2 + rc.bit(this.probs, base + node);
    return node - 256;
  }
}

/** A number below 2^31 in one of `contexts` contexts: its bit length (a 5-bit tree), then its mantissa. */
export class NumberModel {
  private readonly lengths: Uint16Array;
  private readonly mantissas: Uint16Array;
  constructor(contexts: number) {
    this.lengths = probabilities(contexts * 32);
    this.mantissas = probabilities((contexts * 32) << MANTISSA_BITS);
  }
  decode(rc: RangeDecoder, ctx: number): number {
    let node = 1;
    while (node < 32) node = node * 2 + rc.bit(this.lengths, ctx * 32 + node);
    const length = node - 32;
    if (length <= 1) return length;
    const below = length - 1;
    const top = Math.min(MANTISSA_BITS, below);
    const base = (ctx * 32 + length) << MANTISSA_BITS;
    let value = 1;
    for (let k = 0; k < top; k++) value = value * 2 + rc.bit(this.mantissas, base + value);
    return below > top ? value * 2 ** (below - top) + rc.direct(below - top) : value;
  }
}

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
const MANTISSA_BITS = 1;

export function probabilities(n: number): Uint16Array {
  return new Uint16Array(n).fill(PROB_ONE >> 1);
}

/** XORed into two uint32s held as int32s, a signed comparison orders them as unsigned. */
const SIGN = -0x80000000;

export class RangeDecoder {
  /**
   * code, range and the read position, as int32s (code and range are uint32s in two's complement):
   * a typed array keeps them unboxed, and V8 keeps the arithmetic in 32-bit integers (as uint32s
   * above 2^31 it falls back to doubles, several times slower). Each call works on locals.
   */
  private readonly state = new Int32Array(3);
  /** The coded bytes and 8 zeros: the encoder's last bytes are implied zeros, and the reads never leave the array. */
  private readonly data: Uint8Array;

  constructor(coded: Uint8Array) {
    this.data = new Uint8Array(coded.length + 8);
    this.data.set(coded);
    let code = 0;
    for (let i = 0; i < 5; i++) code = (code << 8) | this.data[i];
    this.state[0] = code;
    this.state[1] = -1;
    this.state[2] = 5;
  }

  /** Bytes read so far. */
  get position(): number {
    return this.state[2];
  }

  /**
   * A bit tree of `levels` levels at `base` in `probs` (node 1 is its root, node k's children 2k and
   * 2k + 1): `levels` bits, high first, each in the context of the ones before. This runs some 7
   * million times for o200k_base. One renormalization per bit is enough (a probability is at least
   * 31/2048, and range at least 2^24 before it).
   */
  tree(probs: Uint16Array, base: number, levels: number): number {
    const state = this.state;
    const data = this.data;
    let code = state[0];
    let range = state[1];
    let at = state[2];
    let node = 1;
    for (let level = 0; level < levels; level++) {
      const i = base + node;
      const p = probs[i];
      // Below 2^32 (2^21 × 2^11): imul's int32 is that uint32.
      const bound = Math.imul(range >>> PROB_BITS, p);
      if ((code ^ SIGN) < (bound ^ SIGN)) {
        range = bound;
        probs[i] = p + ((PROB_ONE - p) >> MOVE_BITS);
        node = node << 1;
      } else {
        code = (code - bound) | 0;
        range = (range - bound) | 0;
        probs[i] = p - (p >> MOVE_BITS);
        node = (node << 1) | 1;
      }
      if (range >>> 24 === 0) {
        range = range << 8;
        code = (code << 8) | data[at++];
      }
    }
    state[0] = code;
    state[1] = range;
    state[2] = at;
    return node - (1 << levels);
  }

  /** `count` (at most 16) plain bits at once, high first. */
  direct(count: number): number {
    const state = this.state;
    const data = this.data;
    let code = state[0] >>> 0;
    let range = (state[1] >>> 0) >>> count;
    let at = state[2];
    const value = (code / range) | 0;
    code -= value * range;
    while (range < TOP) {
      range *= 256;
      code = code * 256 + data[at++];
    }
    state[0] = code | 0;
    state[1] = range | 0;
    state[2] = at;
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
    return rc.tree(this.probs, ctx * 256, 8);
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
    const length = rc.tree(this.lengths, ctx * 32, 5);
    if (length <= 1) return length;
    const below = length - 1;
    const top = Math.min(MANTISSA_BITS, below);
    const value = (1 << top) + rc.tree(this.mantissas, (ctx * 32 + length) << MANTISSA_BITS, top);
    return below > top ? (value << (below - top)) | rc.direct(below - top) : value;
  }
}

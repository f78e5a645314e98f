/**
 * The encoding half of src/core/tokens/rangeDecoder.ts: an LZMA-style binary range coder (11-bit
 * adaptive probabilities, shift 5) and the two models built on it, a byte as a bit tree and a number
 * as its bit length (a bit tree) then its top bits (adaptive) and the rest (plain bits). packRanks.cjs
 * codes the rank tables with it. Any change here is a change of the bundle's format: the decoder
 * must change with it (the round-trip tests in __tests__/core/tokens catch a mismatch).
 * Plain CommonJS, like packRanks.cjs.
 */

const PROB_BITS = 11;
const PROB_ONE = 1 << PROB_BITS;
const MOVE_BITS = 5;
const TOP = 2 ** 24;
const TWO_32 = 2 ** 32;
/** Top bits of a number coded adaptively below its leading one (the rest are nearly uniform). */
const MANTISSA_BITS = 1;

class RangeEncoder {
  constructor() {
    this.low = 0;
    this.range = 0xffffffff;
    this.cache = 0;
    this.cacheSize = 1;
    this.out = [];
  }

  /** LZMA's ShiftLow: a byte out, a carry into the bytes held back. */
  shiftLow() {
    const low32 = this.low % TWO_32;
    const carry = this.low >= TWO_32 ? 1 : 0;
    if (low32 < 0xff000000 || carry) {
      let temp = this.cache;
      do {
        this.out.push((temp + carry) & 255);
        temp = 255;
      } while (--this.cacheSize !== 0);
      this.cache = low32 >>> 24;
    }
    this.cacheSize++;
    this.low = (low32 & 0xffffff) * 256;
  }

  normalize() {
    while (this.range < TOP) {
      this.range = (this.range * 256) >>> 0;
      this.shiftLow();
    }
  }

  bit(probs, i, bit) {
    const p = probs[i];
    const bound = (this.range >>> PROB_BITS) * p;
    if (bit === 0) {
      this.range = bound;
      probs[i] = p + ((PROB_ONE - p) >> MOVE_BITS);
    } else {
      this.low += bound;
      this.range -= bound;
      probs[i] = p - (p >> MOVE_BITS);
    }
    this.normalize();
  }

  /** `count` (at most 16) plain bits of `value` at once: the range split in 2^count equal parts. */
  direct(value, count) {
    this.range = Math.floor(this.range / 2 ** count);
    this.low += value * this.range;
    this.normalize();
  }

  finish() {
    for (let i = 0; i < 5; i++) this.shiftLow();
    return Buffer.from(this.out);
  }
}

const probabilities = (n) => new Uint16Array(n).fill(PROB_ONE >> 1);

const bitLength = (v) => (v === 0 ? 0 : 32 - Math.clz32(v));

/** A byte in context `ctx` of `contexts`: a bit tree of 255 nodes. */
class ByteModel {
  constructor(contexts) {
    this.probs = probabilities(contexts * 256);
  }
  encode(rc, ctx, byte) {
    let node = 1;
    for (let k = 7; k >= 0; k--) {
      const bit = (byte >> k) & 1;
      rc.bit(this.probs, ctx * 256 + node, bit);
      node = node * 2 + bit;
    }
  }
}

/** A number below 2^31 in context `ctx`: its bit length (5-bit tree), then its mantissa. */
class NumberModel {
  constructor(contexts) {
    this.lengths = probabilities(contexts * 32);
    this.mantissas = probabilities(contexts * 32 << MANTISSA_BITS);
  }
  encode(rc, ctx, value) {
    const length = bitLength(value);
    let node = 1;
    for (let k = 4; k >= 0; k--) {
      const bit = (length >> k) & 1;
      rc.bit(this.lengths, ctx * 32 + node, bit);
      node = node * 2 + bit;
    }
    if (length <= 1) return;
    const below = length - 1;
    const top = Math.min(MANTISSA_BITS, below);
    const base = (ctx * 32 + length) << MANTISSA_BITS;
    node = 1;
    for (let k = below - 1; k >= below - top; k--) {
      const bit = (value >>> k) & 1;
      rc.bit(this.mantissas, base + node, bit);
      node = node * 2 + bit;
    }
    if (below > top) rc.direct(value & ((1 << (below - top)) - 1), below - top);
  }
}

module.exports = { RangeEncoder, ByteModel, NumberModel, probabilities, bitLength };

/**
 * SHA-256 of a string's UTF-8, for hash.ts's sha256Hex: the text is encoded into one reused buffer
 * (TextEncoder.encodeInto) and compressed in place, with no per-call hasher, view or byte array.
 * Strata hashes thousands of short texts per turn and per reopened chat (messages, notes, block
 * keys), where @noble/hashes' per-call set-up cost about as much as the hashing; the output is
 * the same (tested against @noble/hashes).
 */

const K = new Int32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
  0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
  0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
  0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
  0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
]);
const W = new Int32Array(64);
const HEX = Array.from({ length: 256 }, (_, i) => (i < 16 ? '0' : '') + i.toString(16));
const encoder = new TextEncoder();
/** Kept between calls up to this size; a longer text gets a buffer of its own. */
const KEPT_BYTES = 1 << 20;
let shared = new Uint8Array(4096);
let sharedView = new DataView(shared.buffer);

function hex(word: number): string {
  return HEX[(word >>> 24) & 255] + HEX[(word >>> 16) & 255] + HEX[(word >>> 8) & 255] + HEX[word & 255];
}

/** Hex SHA-256 of the UTF-8 bytes of `text` (lone surrogates as U+FFFD, as TextEncoder writes them). */
export function sha256TextHex(text: string): string {
  // UTF-8 takes at most 3 bytes per UTF-16 unit; 72 more for the padding and the length.
  const need = text.length * 3 + 72;
  let buffer = shared;
  let view = sharedView;
  if (need > buffer.length) {
    buffer = new Uint8Array(need);
    view = new DataView(buffer.buffer);
    if (need <= KEPT_BYTES) {
      shared = buffer;
      sharedView = view;
    }
  }
  const n = encoder.encodeInto(text, buffer).written;
  const total = Math.ceil((n + 9) / 64) * 64;
  buffer[n] = 0x80;
  buffer.fill(0, n + 1, total - 8);
  const bits = n * 8;
  const high = Math.floor(bits / 0x100000000);
  const low = bits >>> 0;
  buffer[total - 8] = high >>> 24;
  buffer[total - 7] = high >>> 16;
  buffer[total - 6] = high >>> 8;
  buffer[total - 5] = high;
  buffer[total - 4] = low >>> 24;
  buffer[total - 3] = low >>> 16;
  buffer[total - 2] = low >>> 8;
  buffer[total - 1] = low;

  let h0 = 0x6a09e667 | 0;
  let h1 = 0xbb67ae85 | 0;
  let h2 = 0x3c6ef372 | 0;
  let h3 = 0xa54ff53a | 0;
  let h4 = 0x510e527f | 0;
  let h5 = 0x9b05688c | 0;
  let h6 = 0x1f83d9ab | 0;
  let h7 = 0x5be0cd19 | 0;
  for (let off = 0; off < total; off += 64) {
    for (let i = 0; i < 16; i++) W[i] = view.getInt32(off + i * 4, false);
    for (let i = 16; i < 64; i++) {
      const w15 = W[i - 15];
      const w2 = W[i - 2];
      const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3);
      const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10);
      W[i] = (W[i - 16] + s0 + W[i - 7] + s1) | 0;
    }
    let a = h0;
    let b = h1;
    let c = h2;
    let d = h3;
    let e = h4;
    let f = h5;
    let g = h6;
    let h = h7;
    for (let i = 0; i < 64; i++) {
      const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
      const t1 = (h + s1 + ((e & f) ^ (~e & g)) + K[i] + W[i]) | 0;
      const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
      const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0;
      h = g;
      g = f;
      f = e;
      e = (d + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h0 = (h0 + a) | 0;
    h1 = (h1 + b) | 0;
    h2 = (h2 + c) | 0;
    h3 = (h3 + d) | 0;
    h4 = (h4 + e) | 0;
    h5 = (h5 + f) | 0;
    h6 = (h6 + g) | 0;
    h7 = (h7 + h) | 0;
  }
  return hex(h0) + hex(h1) + hex(h2) + hex(h3) + hex(h4) + hex(h5) + hex(h6) + hex(h7);
}

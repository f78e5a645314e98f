/** Base64 of byte buffers (the saved search index and vectors): no Buffer or btoa on mobile. */

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const ENCODE = Uint8Array.from(ALPHABET, (c) => c.charCodeAt(0));
const DECODE = new Uint8Array(128).fill(255);
for (let i = 0; i < ALPHABET.length; i++) DECODE[ALPHABET.charCodeAt(i)] = i;
const EQUALS = 61;

/**
 * Base64 by table into a byte buffer, then one TextDecoder call: tens of MB (10k chunks × 1536
 * dims is 61 MB of floats) in well under a second, where btoa over a binary string takes seconds.
 */
export function bytesToBase64(bytes: Uint8Array): string {
  const out = new Uint8Array(Math.ceil(bytes.length / 3) * 4);
  let o = 0;
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | (bytes[i + 1] << 8) | bytes[i + 2];
    out[o++] = ENCODE[n >>> 18];
    out[o++] = ENCODE[(n >>> 12) & 63];
    out[o++] = ENCODE[(n >>> 6) & 63];
    out[o++] = ENCODE[n & 63];
  }
  if (i < bytes.length) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8);
    out[o++] = ENCODE[n >>> 18];
    out[o++] = ENCODE[(n >>> 12) & 63];
    out[o++] = i + 1 < bytes.length ? ENCODE[(n >>> 6) & 63] : EQUALS;
    out[o++] = EQUALS;
  }
  return new TextDecoder().decode(out);
}

export function base64ToBytes(text: string): Uint8Array {
  const chars = new TextEncoder().encode(text);
  if (chars.length % 4 !== 0) throw new Error('not base64: the length is not a multiple of 4');
  let length = chars.length;
  while (length > chars.length - 2 && length > 0 && chars[length - 1] === EQUALS) length--;
  const out = new Uint8Array(Math.floor((length * 3) / 4));
  const at = (i: number): number => {
    const value = i < length && chars[i] < 128 ? DECODE[chars[i]] : i < length ? 255 : 0;
    if (value === 255) throw new Error('not base64: unexpected character');
    return value;
  };
  let o = 0;
  for (let i = 0; i < length; i += 4) {
    const n = (at(i) << 18) | (at(i + 1) << 12) | (at(i + 2) << 6) | at(i + 3);
    out[o++] = n >>> 16;
    if (o < out.length) out[o++] = (n >>> 8) & 0xff;
    if (o < out.length) out[o++] = n & 0xff;
  }
  return out;
}


/** Bytes per piece for the stepped forms (a multiple of 3, so the pieces' base64 joins up). */
const PIECE_BYTES = 3 << 20;

/** bytesToBase64 a piece at a time, yielding between pieces (the same text). */
export function* bytesToBase64Steps(bytes: Uint8Array): Generator<void, string> {
  const parts: string[] = [];
  for (let at = 0; at < bytes.length; at += PIECE_BYTES) {
    parts.push(bytesToBase64(bytes.subarray(at, at + PIECE_BYTES)));
    yield;
  }
  return parts.join('');
}

/** Characters decoded per step by base64ToBytesFast (768 KB of bytes: a few ms). */
const FAST_PIECE_CHARS = 1 << 20;

/**
 * base64ToBytes a piece per step, fast: each piece's characters are copied into a reused buffer by
 * TextEncoder.encodeInto (native, a few ms for 15 MB) and decoded by table, so a saved index's
 * postings decode in tens of ms in all. Throws as base64ToBytes does (a length not a multiple of 4,
 * a character outside the alphabet, padding before the end).
 */
export function* base64ToBytesFast(text: string): Generator<void, Uint8Array> {
  if (text.length % 4 !== 0) throw new Error('not base64: the length is not a multiple of 4');
  let length = text.length;
  while (length > text.length - 2 && length > 0 && text.charCodeAt(length - 1) === EQUALS) length--;
  const out = new Uint8Array(Math.floor((length * 3) / 4));
  const whole = length - (length % 4);
  // Three bytes of UTF-8 at most per character: a character past ASCII still fits, and is refused below.
  const chars = new Uint8Array(Math.min(whole, FAST_PIECE_CHARS) * 3);
  const encoder = new TextEncoder();
  let o = 0;
  for (let start = 0; start < whole; start += FAST_PIECE_CHARS) {
    const end = Math.min(whole, start + FAST_PIECE_CHARS);
    const { written } = encoder.encodeInto(text.slice(start, end), chars);
    if (written !== end - start) throw new Error('not base64: unexpected character');
    let bad = 0;
    for (let i = 0; i < written; i += 4) {
      const a = DECODE[chars[i] & 127] | (chars[i] & 128);
      const b = DECODE[chars[i + 1] & 127] | (chars[i + 1] & 128);
      const c = DECODE[chars[i + 2] & 127] | (chars[i + 2] & 128);
      const d = DECODE[chars[i + 3] & 127] | (chars[i + 3] & 128);
      bad |= a | b | c | d;
      const n = (a << 18) | (b << 12) | (c << 6) | d;
      out[o++] = n >>> 16;
      out[o++] = (n >>> 8) & 0xff;
      out[o++] = n & 0xff;
    }
    // A value over 63 is a character outside the alphabet (255 in the table, or a byte past ASCII).
    if (bad > 63) throw new Error('not base64: unexpected character');
    yield;
  }
  const rest = length - whole;
  if (rest === 1) throw new Error('not base64: unexpected character');
  if (rest > 1) {
    let n = 0;
    for (let i = 0; i < 4; i++) {
      const code = i < rest ? text.charCodeAt(whole + i) : 65;
      const value = code < 128 ? DECODE[code] : 255;
      if (value === 255) throw new Error('not base64: unexpected character');
      n |= value << (18 - 6 * i);
    }
    out[o++] = n >>> 16;
    if (rest === 3) out[o++] = (n >>> 8) & 0xff;
  }
  return out;
}

/**
 * Raw DEFLATE undone synchronously (the rank tables in the bundle, rankCodec.ts): by fflate
 * everywhere (Obsidian on a phone has no Node modules, and the browser's DecompressionStream is
 * asynchronous where a count is not), or by the host's native zlib once the host hands it over
 * (the desktop plugin: src/obsidian/nativeInflate.ts), 10-20× faster on o200k_base's 1.2 MB.
 */

export type InflateRaw = (data: Uint8Array) => Uint8Array;

let native: InflateRaw | null = null;

type Fflate = typeof import('./fflateInflate');
let fflate: Fflate | null = null;

/** fflate, required on first use (fflateInflate.ts says why). */
function fflateLib(): Fflate {
  /* eslint-disable-next-line @typescript-eslint/no-require-imports, no-undef -- synchronous lazy load: the bundle is CommonJS, and inflating must stay synchronous */
  return (fflate ??= require('./fflateInflate') as Fflate);
}

/** The host's own raw inflate (Node's zlib.inflateRawSync), or null to go back to fflate. */
export function useNativeInflate(inflate: InflateRaw | null): void {
  native = inflate;
}

/** Compressed bytes fflate inflates between two pauses of inflateRawInSlices (a few ms on a phone). */
const SLICE_BYTES = 64 * 1024;

/**
 * Raw DEFLATE undone, in slices: with fflate the generator stops after each SLICE_BYTES of input (its
 * streaming inflater), so a warm-up can let the host draw between them; the native inflate is fast
 * enough to run whole, and so is fflate when `sliced` is false (a count waiting: its one-shot inflate
 * is faster than the stream).
 */
export function* inflateRawInSlices(data: Uint8Array, sliced = true): Generator<void, Uint8Array, void> {
  if (native) return native(data);
  if (!sliced) return fflateLib().inflateSync(data);
  const parts: Uint8Array[] = [];
  const stream = new (fflateLib().Inflate)((chunk) => parts.push(chunk));
  for (let at = 0; at < data.length; at += SLICE_BYTES) {
    stream.push(data.subarray(at, at + SLICE_BYTES), at + SLICE_BYTES >= data.length);
    yield;
  }
  if (data.length === 0) stream.push(data, true);
  let length = 0;
  for (const part of parts) length += part.length;
  const out = new Uint8Array(length);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}

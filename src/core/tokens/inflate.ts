import { inflateSync } from 'fflate';

/**
 * Raw DEFLATE undone synchronously (the rank tables in the bundle, rankCodec.ts): by fflate
 * everywhere (Obsidian on a phone has no Node modules, and the browser's DecompressionStream is
 * asynchronous where a count is not), or by the host's native zlib once the host hands it over
 * (the desktop plugin: src/obsidian/nativeInflate.ts), 10-20× faster on o200k_base's 1.2 MB.
 */

export type InflateRaw = (data: Uint8Array) => Uint8Array;

let native: InflateRaw | null = null;

/** The host's own raw inflate (Node's zlib.inflateRawSync), or null to go back to fflate. */
export function useNativeInflate(inflate: InflateRaw | null): void {
  native = inflate;
}

export function inflateRaw(data: Uint8Array): Uint8Array {
  return native ? native(data) : inflateSync(data);
}

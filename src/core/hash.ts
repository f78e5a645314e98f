import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, utf8ToBytes } from '@noble/hashes/utils';

/** Hex sha256 of a UTF-8 string. Pure JS so it runs the same on desktop, mobile and Node. */
export function sha256Hex(text: string): string {
  return bytesToHex(sha256(utf8ToBytes(text)));
}

/** Hash of an ordered list of hashes (a layer's segments): cost is O(segments), not O(bytes). */
export function combineHashes(parts: readonly string[]): string {
  return sha256Hex(parts.join('\n'));
}

/** Short form used in rendered text and tables. */
export function shortHash(hash: string): string {
  return hash.slice(0, 12);
}

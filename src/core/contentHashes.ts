import { sha256TextHex } from './sha256Text';

/**
 * SHA-256 of texts hashed before, found by their content, for the texts a chat hashes again and
 * again: its library's notes (read again at every reopen, in every chat that has them) and its
 * messages (hashed when saved, when the note is decoded, and when it is saved after that). Looking a
 * text up costs the runtime's string hash (about twenty times cheaper than SHA-256, and paid once
 * per string), so only texts long enough to gain are kept, at most `KEPT_CHARS` characters of them,
 * the oldest dropped first. A pure memo: a digest found is the digest computed.
 */

/** Shorter texts cost little more to hash than to look up. */
const MIN_CHARS = 64;
/** About 16 MB of text at most (two bytes a character), usually shared with the strings' other holders (the vault's cache, the open chat). */
const KEPT_CHARS = 8 * 1024 * 1024;

const digests = new Map<string, string>();
let keptChars = 0;

export function sha256HexKept(text: string): string {
  if (text.length < MIN_CHARS || text.length > KEPT_CHARS / 4) return sha256TextHex(text);
  const known = digests.get(text);
  if (known !== undefined) return known;
  const digest = sha256TextHex(text);
  digests.set(text, digest);
  keptChars += text.length;
  if (keptChars > KEPT_CHARS) {
    for (const old of digests.keys()) {
      digests.delete(old);
      keptChars -= old.length;
      if (keptChars <= KEPT_CHARS / 2) break;
    }
  }
  return digest;
}

/** Characters of text kept now (tests: the memo stays within its bound). */
export function keptTextChars(): number {
  return keptChars;
}

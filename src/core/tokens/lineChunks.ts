/**
 * A long text's chunks for counting: its count is the sum of theirs, exactly, and the same content
 * inside another text (a note inside its library wrapper) gives mostly the same chunks, so counts
 * made ahead of time, in slices between frames (warmTokenCounts), are found when the engine counts
 * synchronously.
 *
 * Cuts fall only where no pre-token of o200k or cl100k can cross: after a line break followed by a
 * character that is neither white space nor '/' (white-space pieces hold only white space; a
 * punctuation piece may take line breaks and, in o200k, slashes after them; no other piece holds a
 * line break). Which of those places cut is decided by the lines on either side alone (a
 * content-defined cut: about one line in 32, by the next line's first characters, and on both sides
 * of a long line, so a long line is a chunk of its own), plus the first and the last place, so a
 * text's chunks do not depend on what stands before or after them.
 */

const HASH_CHARS = 16;
const CUT_MASK = 31;
/** A line this long is always a chunk of its own. */
const LONG_LINE = 2_048;

function isCutPlace(text: string, at: number): boolean {
  const c = text.charCodeAt(at);
  // After '\n'; the next character is not white space (the \s of the pre-tokenizers) and not '/'.
  return at > 0 && text.charCodeAt(at - 1) === 10 && c !== 47 && !/\s/u.test(text[at]);
}

/** FNV-1a over the first characters of the line at `at`. */
function lineHash(text: string, at: number): number {
  let h = 0x811c9dc5;
  const end = Math.min(text.length, at + HASH_CHARS);
  for (let i = at; i < end; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) break;
    h = Math.imul(h ^ c, 0x01000193);
  }
  return h >>> 0;
}

/** Start offsets of text's chunks (0 first); each chunk runs to the next start or the end. */
export function chunkStarts(text: string): number[] {
  const places: number[] = [];
  const long: boolean[] = [];
  let lineStart = 0;
  for (let at = text.indexOf('\n') + 1; at > 0 && at < text.length; at = text.indexOf('\n', at) + 1) {
    const longBefore = at - lineStart > LONG_LINE;
    lineStart = at;
    if (!isCutPlace(text, at)) continue;
    const next = text.indexOf('\n', at);
    places.push(at);
    long.push(longBefore || (next < 0 ? text.length : next) - at > LONG_LINE);
  }
  const starts = [0];
  places.forEach((at, i) => {
    if (i === 0 || i === places.length - 1 || long[i] || (lineHash(text, at) & CUT_MASK) === 0) starts.push(at);
  });
  return starts;
}

/**
 * The JSON values of chat data lines (chatData.ts) read or written before, by the line's text: a
 * note read again in the same session (a chat reopened, switched back to, or read back after a
 * save) parses only its new lines, and hands the strict reader the same objects, which then finds
 * them read (strictRead's kept reads) instead of validating a thousand turns again. Looking a line
 * up costs the runtime's string hash. At most `KEPT_CHARS` characters of lines are kept, the oldest
 * dropped first. A pure memo: a value found is the one JSON.parse gives (and nothing changes it:
 * stored data is read-only once read).
 */

/** A short line (the head, a small record) costs little more to parse than to look up. */
const MIN_CHARS = 128;
/** About 8 MB of line text (two bytes a character): a few long chats' records. */
const KEPT_CHARS = 4 * 1024 * 1024;

const values = new Map<string, unknown>();
let keptChars = 0;

/** JSON.parse(line), from the lines kept when the same text was read or written before. Throws as JSON.parse does. */
export function lineValue(line: string): unknown {
  if (line.length < MIN_CHARS) return JSON.parse(line) as unknown;
  // Keyed by the line and a line break (which no data line holds): a string of its own, so a line cut
  // from a note's text does not keep the whole note in memory while it is kept.
  const key = `${line}\n`;
  const known = values.get(key);
  if (known !== undefined) return known;
  const value = JSON.parse(line) as unknown;
  keep(key, value);
  return value;
}

/** A line a save wrote, parsed now (one per new record) so the note read back finds it. Returns its value. */
export function keepWrittenLine(line: string): unknown {
  return lineValue(line);
}

function keep(line: string, value: unknown): void {
  if (typeof value !== 'object' || value === null || line.length > KEPT_CHARS / 4) return;
  values.set(line, value);
  keptChars += line.length;
  if (keptChars <= KEPT_CHARS) return;
  for (const old of values.keys()) {
    values.delete(old);
    keptChars -= old.length;
    if (keptChars <= KEPT_CHARS / 2) break;
  }
}

/** Characters of line text kept now (tests: the memo stays within its bound). */
export function keptLineChars(): number {
  return keptChars;
}

import { decodeChatNote, type DecodedChat } from './noteDecoder';
import { isLfNote, noteFormat } from './lineEndings';
import type { Conversation, NoteFormat } from './model';

/**
 * Whole chat notes written or decoded before, by path: a chat reopened in the same session (switched
 * away from and back to, another view opening it) whose note is still the text last saved or read
 * for it takes that chat instead of decoding a thousand turns again. A pure memo: a hit needs the
 * same text at the same path (the fallback id comes from the path), and what a hit returns is what
 * decoding would:
 * - a note decoded here is kept with its decoding, unless the decode read the clock (a note missing
 *   its dates);
 * - a note saved here is kept with the conversation it was encoded from: the codec's round trip
 *   (decode(encode(c)) equals c, with no warning: roundTrip.test.ts and fuzz.test.ts over random
 *   chats with hostile text) makes that the decoding, its line-break format set as decoding sets it.
 * The conversation is read-only data (model.ts); the warnings, the one mutable part, are copied.
 * Comparing a note's text with the kept one costs a memory compare; at most `KEPT_CHATS` notes and
 * `KEPT_CHARS` characters are kept, the least recently used dropped first.
 */

const KEPT_CHATS = 8;
/** About 16 MB of note text (two bytes a character), besides the decoded chats: a few long chats. */
const KEPT_CHARS = 8 * 1024 * 1024;

interface Kept {
  readonly text: string;
  readonly decoded: DecodedChat;
}

const kept = new Map<string, Kept>();
let keptChars = 0;

/** decodeChatNote(text, fallback): what was kept for the same text at the same path, else a decode (kept when it did not read the clock). */
export function decodeChatNoteKept(path: string, text: string, fallback: { readonly id: string; readonly now: () => number }): DecodedChat {
  const known = kept.get(path);
  if (known !== undefined && known.text === text) {
    // Most recently used last: the oldest is dropped first.
    kept.delete(path);
    kept.set(path, known);
    const found = { ...known.decoded, warnings: [...known.decoded.warnings] };
    return check ? check(found, () => decodeChatNote(text, { id: fallback.id, now: fallback.now() })) : found;
  }
  let clockRead = false;
  const decoded = decodeChatNote(text, {
    id: fallback.id,
    get now() {
      clockRead = true;
      return fallback.now();
    },
  });
  forget(path);
  if (!clockRead) keep(path, { text, decoded: { ...decoded, warnings: [...decoded.warnings] } });
  return decoded;
}

/**
 * The test suites' check (jest's setup): every hit is decoded as well and compared with what was
 * kept, so each test that reopens a chat also proves the round trip this memo stands on; the check
 * returns what the caller gets. Null (the plugin, the bench): hits are taken as they are.
 */
type KeptCheck = (kept: DecodedChat, decode: () => DecodedChat) => DecodedChat;
let check: KeptCheck | null = null;

export function checkKeptNotes(next: KeptCheck | null): void {
  check = next;
}

/** A note saved at `path` as `text`, encoded from `conversation`: kept as its decoding (see above). */
export function keepSavedNote(path: string, text: string, conversation: Conversation): void {
  forget(path);
  const format = noteFormat(text);
  const decoded = asDecoded(conversation, format);
  if (decoded) keep(path, { text, decoded: { conversation: decoded, warnings: [], format } });
}

/**
 * `c` as decoding its note gives it: what the note does not write is left out (the line-break
 * format when it is the default, a plan with nothing in it). Null for a chat whose note reads back
 * otherwise (a message still on its way reads as not answered): it is decoded when reopened.
 */
function asDecoded(c: Conversation, format: NoteFormat): Conversation | null {
  for (const turn of c.turns) if (turn.status !== 'complete' && (turn.error === undefined || turn.reply !== undefined)) return null;
  const { format: _format, plan, ...rest } = c;
  const kept = plan && (plan.decisions.length > 0 || plan.overrides.length > 0) ? { ...rest, plan } : rest;
  return isLfNote(format) ? kept : { ...kept, format };
}

/** Drop what is kept for a note (deleted, renamed, or written by other means). */
export function forgetDecodedNote(path: string): void {
  forget(path);
}

function forget(path: string): void {
  const old = kept.get(path);
  if (old === undefined) return;
  kept.delete(path);
  keptChars -= old.text.length;
}

function keep(path: string, entry: Kept): void {
  if (entry.text.length > KEPT_CHARS / 2) return;
  kept.set(path, entry);
  keptChars += entry.text.length;
  for (const [oldId, old] of kept) {
    if (kept.size <= KEPT_CHATS && keptChars <= KEPT_CHARS) break;
    kept.delete(oldId);
    keptChars -= old.text.length;
  }
}

/** Notes and characters kept now (tests: the memo stays within its bounds). */
export function keptDecodedNotes(): { notes: number; chars: number } {
  return { notes: kept.size, chars: keptChars };
}

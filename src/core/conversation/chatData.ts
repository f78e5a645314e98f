import { MappedJoin } from './prefixJoin';
import { keptRecordOf } from './meta';
import type { ChatTurn, CompactionRecord, ItemRef } from './model';
import { isStructureLine, STRATA_CALLOUT } from './textBlock';
import { keepWrittenLine, lineValue } from './keptLines';
import { readListRecordAhead } from './metaSchema';

/**
 * The chat data: the machine state a chat needs to reopen (provider session, the last request's
 * fingerprint, pending events, library refs, one record per compaction and per turn), kept in a
 * folded callout at the end of the note (format 3; right under the properties in format 2) instead
 * of in the frontmatter, so Obsidian's Properties view shows a few readable properties however long
 * the chat is, and source view shows the messages first.
 *
 * Why a folded callout and not a `%% %%` comment: Live Preview shows a comment's whole text while it
 * folds a callout to its title line (Reading view hides both); the note's other machine parts (tool
 * outputs, page text) are folded strata callouts too, which message text cannot forge (textBlock).
 * Wherever it is, the reader takes the callout out of the body before reading the messages, as if
 * it had never been there, so the messages read exactly as in a format-1 note: text typed below the
 * callout is still more of the last reply (or a new message). A callout cut by a damaged line keeps
 * its data lines after the cut, so they never become text of the last reply.
 *
 * One JSON value per line, so a damaged line loses only itself and a save can reuse the lines of
 * turns that did not change:
 *   {"session":…,"lastRequest":…,"pending":[…]}   the head: the chat-level state
 *   {"item":{…}}        one per library item version, in entry order
 *   {"compaction":{…}}  one per compaction, oldest first
 *   {"turn":{…}}        one per message sent, in order
 * Lines of any other kind (a single key of another name) are skipped by this reader: room for more
 * (e.g. token counts keyed by content hash and tokenizer) without a format change.
 */

export const DATA_CALLOUT = 'data';

const HEADER = `> [!strata-${DATA_CALLOUT}]- Chat data (Strata reads this to reopen the chat)`;

/** `strata`'s lists and the key each of their lines has. */
const LIST_LINES = [
  ['library', 'item'],
  ['compactions', 'compaction'],
  ['turns', 'turn'],
] as const;

type ListName = (typeof LIST_LINES)[number][0];
const LIST_OF: ReadonlyMap<string, ListName> = new Map(LIST_LINES.map(([list, kind]) => [kind, list]));
const LIST_NAMES: readonly string[] = LIST_LINES.map(([list]) => list);

/** One line of JSON. U+2028/U+2029 are escaped too: JSON allows them raw, but an editor may break the line there. */
export function dataLine(value: unknown): string {
  return JSON.stringify(value).replace(/[\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16)}`);
}

/**
 * A list value's line (quoted, with its line break), kept by the value: meta.ts hands over the same
 * (read-only) record for an unchanged turn, item or compaction, so a save writes the new lines only.
 */
const listLines = new Map<string, WeakMap<object, string>>(LIST_LINES.map(([, kind]) => [kind, new WeakMap()]));

function listLine(kind: string, value: unknown): string {
  const memo = typeof value === 'object' && value !== null ? listLines.get(kind) : undefined;
  let line = memo?.get(value as object);
  if (line === undefined) {
    const json = dataLine({ [kind]: value });
    line = `> ${json}\n`;
    memo?.set(value as object, line);
    // Read now, as the note read back will read it: reopening in this session then parses and validates nothing old.
    if (kind === 'turn' || kind === 'item') readListRecordAhead(kind, (keepWrittenLine(json) as Record<string, unknown>)[kind]);
  }
  return line;
}

/** The callout for the chat data (`strata` without the keys the frontmatter keeps), ending with its line break. */
export function encodeChatData(data: Readonly<Record<string, unknown>>): string {
  return chatDataParts(data).join('');
}

/** encodeChatData's pieces: the head, each list's lines, the fence. */
export function chatDataParts(data: Readonly<Record<string, unknown>>): string[] {
  const parts = [chatDataHead(data)];
  for (const [list, kind] of LIST_LINES) for (const value of (data[list] as readonly unknown[] | undefined) ?? []) parts.push(listLine(kind, value));
  parts.push('> ```\n');
  return parts;
}

/** One joiner per list of the chat data (a chat's lists grow at their ends: a save makes and joins their new lines only). */
export interface ChatDataJoins {
  readonly library: MappedJoin<ItemRef>;
  readonly compactions: MappedJoin<CompactionRecord>;
  readonly turns: MappedJoin<ChatTurn>;
}

export function chatDataJoins(): ChatDataJoins {
  return { library: new MappedJoin(), compactions: new MappedJoin(), turns: new MappedJoin() };
}

/**
 * The chat data callout as encodeChatData writes it: the head from `head` (writeMeta's chat data
 * without its lists), each list's lines from the objects through its joiner.
 */
export function encodeChatDataJoined(
  head: Readonly<Record<string, unknown>>,
  lists: { readonly library: readonly ItemRef[]; readonly compactions: readonly CompactionRecord[]; readonly turns: readonly ChatTurn[] },
  joins: ChatDataJoins,
): string {
  return (
    chatDataHead(head) +
    joins.library.of(lists.library, (r) => listLine('item', keptRecordOf.item(r))) +
    joins.compactions.of(lists.compactions, (r) => listLine('compaction', keptRecordOf.compaction(r))) +
    joins.turns.of(lists.turns, (t) => listLine('turn', keptRecordOf.turn(t))) +
    '> ```\n'
  );
}

function chatDataHead(data: Readonly<Record<string, unknown>>): string {
  const head: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) if (!LIST_NAMES.includes(key)) head[key] = value;
  return `${HEADER}\n> \`\`\`json\n> ${dataLine(head)}\n`;
}

function isDataHeader(line: string): boolean {
  return line.startsWith('>') && STRATA_CALLOUT.exec(line)?.[1].toLowerCase() === DATA_CALLOUT;
}

/**
 * Take the chat data callout out of the body's lines: its quoted lines (`> ` taken off; null when
 * the note has none) and the other lines, as if it had never been there (with the blank line that
 * parts it from them). Another one (a sync conflict, a paste) is left out with a warning: the note's
 * own is the last (format 3 writes it at the end), or the first in a note that says it is format 2.
 */
export function extractChatData(lines: readonly string[], warnings: string[], keep: 'first' | 'last' = 'last'): { inside: string[] | null; rest: string[]; tail?: string } {
  let inside: string[] | null = null;
  let tail: string | undefined;
  let others = 0;
  const rest: string[] = [];
  // Callouts one right under another (a duplicated header) are taken out as one: from `first` on.
  let first = 0;
  let lastEnd = -1;
  for (let i = 0; i < lines.length; i++) {
    if (!isDataHeader(lines[i])) {
      rest.push(lines[i]);
      continue;
    }
    if (lastEnd !== i) first = i;
    const quoted: string[] = [];
    let j = i + 1;
    for (;;) {
      // `> ` (or `>`) taken off by a slice: no copy of each data line.
      for (; j < lines.length && lines[j].startsWith('>') && !isStructureLine(lines[j]); j++) quoted.push(lines[j].slice(lines[j].charCodeAt(1) === 0x20 ? 2 : 1));
      if (quoted.length > 0 && quoted[quoted.length - 1].trim() === '```') break;
      // No closing fence: a damaged line cut the callout. The lines right under it (Markdown's lazy
      // continuation) and its data lines further on are still its, not text of the message above it
      // (with the callout at the end of the note, the last reply).
      let end = j;
      while (end < lines.length && lines[end] !== '' && !lines[end].startsWith('>') && !isStructureLine(lines[end])) end++;
      const resume = end < lines.length && lines[end].startsWith('>') && !isStructureLine(lines[end]) ? end : resumedDataLine(lines, end);
      if (resume >= 0) end = resume;
      const cut = lines.slice(j, end).join('\n').trim();
      if (cut) warnings.push(`text inside the chat data callout was left out: "${cut.slice(0, 60)}"`);
      j = end;
      if (resume < 0) break;
    }
    // With the line breaks that part it from the text: format 3 writes `text + "\n" + callout` (the
    // text ends with a line break, so a blank line comes before it); format 2 `callout + "\n" + text`.
    // What follows a format-3 callout (more typed text, or a heading a damaged callout left) joins
    // the text where the callout was, so the last reply ends as written. Blank and quoted lines
    // alone up to the end or to a structure line (a callout moved below it, a stray `>`) do not:
    // they are the callout's tail, and the structure line starts after the text as it always did.
    lastEnd = j;
    const another = j < lines.length && isDataHeader(lines[j]); // it takes the line breaks
    if (another) {
      // nothing to take here
    } else if (first > 0 && lines[first - 1] === '' && rest.length > 0 && rest[rest.length - 1] === '') {
      const next = calloutTailEnd(lines, j);
      if (next < lines.length && !isStructureLine(lines[next])) rest.pop();
      else {
        const stray = lines.slice(j, next).filter((l) => l.replace(/^>/, '').trim() !== '').join('\n');
        // Quoted text typed below the callout, to the end of the note: the note's tail, kept as written
        // (the encoder writes it back after the callout). Before a structure line it is left out, said.
        if (stray && next === lines.length) tail = lines.slice(j, next).join('\n');
        else if (stray) warnings.push(`text after the chat data callout was left out: "${stray.slice(0, 60)}"`);
        if (next < lines.length) rest.pop();
        j = next;
      }
    } else if (j < lines.length && lines[j] === '') j++;
    if (inside === null || keep === 'last') {
      if (inside !== null) others++;
      inside = quoted;
    } else others++;
    i = j - 1;
  }
  if (others > 0) warnings.push(`the note holds ${others + 1} chat data callouts; the ${keep} one is read, the others were left out`);
  return tail !== undefined ? { inside, rest, tail } : { inside, rest };
}

/** The first line from `from` that is neither blank nor quoted (a structure line is not taken as quoted). */
function calloutTailEnd(lines: readonly string[], from: number): number {
  let k = from;
  while (k < lines.length && (lines[k].trim() === '' || (lines[k].startsWith('>') && !isStructureLine(lines[k])))) k++;
  return k;
}

/** The next line from `from` that continues a cut chat data callout (`> {…` or its fence), before any structure line; -1 when none. */
function resumedDataLine(lines: readonly string[], from: number): number {
  for (let k = from; k < lines.length; k++) {
    if (isStructureLine(lines[k])) return -1;
    if (/^> ?(?:\{|```)/.test(lines[k])) return k;
  }
  return -1;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The chat data as `strata`'s keys. A list line that is not JSON stands as null in its list, so
 * the schema reports it where it was (and the turns after it keep their places).
 */
export function readChatData(inside: readonly string[], warnings: string[]): Record<string, unknown> {
  const lists: Record<ListName, unknown[]> = { library: [], compactions: [], turns: [] };
  let head: Record<string, unknown> | null = null;
  let first = true;
  for (const raw of inside) {
    const line = raw.trim();
    if (line === '' || line.startsWith('```')) continue;
    const isFirst = first;
    first = false;
    let value: unknown;
    try {
      value = lineValue(line);
    } catch {
      value = undefined;
    }
    const keys = isRecord(value) ? Object.keys(value) : [];
    const list = keys.length === 1 ? LIST_OF.get(keys[0]) : undefined;
    if (list && isRecord(value)) {
      lists[list].push(value[keys[0]]);
      continue;
    }
    if (isRecord(value)) {
      if (isFirst) head = value;
      continue; // another kind of line: not this reader's
    }
    const kind = /^\{\s*"(item|compaction|turn)"\s*:/.exec(line)?.[1];
    const damaged = kind ? LIST_OF.get(kind) : undefined;
    if (damaged) lists[damaged].push(null);
    else if (isFirst) head = {};
    else warnings.push(`a line of the chat data could not be read and was left out: "${line.slice(0, 60)}"`);
  }
  if (head === null || Object.keys(head).length === 0) {
    warnings.push("the chat data's first line (the provider session and the last request) could not be read: the next request starts a new session and cannot prove it extends the last one");
  }
  return { ...(head ?? {}), ...lists };
}

/**
 * The frontmatter's data with the chat data merged into `strata` (what format 1 kept there), so one
 * reader reads both formats. Without readable frontmatter the chat data still gives the machine state.
 */
export function withChatData(data: Record<string, unknown> | null, chatData: Record<string, unknown>, warnings: string[]): Record<string, unknown> {
  if (!data) return { strata: chatData };
  const strata = data.strata;
  if (strata !== undefined && !isRecord(strata)) warnings.push('strata: expected an object; the chat data callout is read without it');
  return { ...data, strata: { ...(isRecord(strata) ? strata : {}), ...chatData } };
}

/** The body without its chat data (what full-text search looks at). */
export function bodyWithoutChatData(body: string): string {
  if (!body.includes(`[!strata-${DATA_CALLOUT}]`)) return body;
  return extractChatData(body.split('\n'), []).rest.join('\n');
}

/**
 * How a message's text sits in the chat note body so that nothing in it can break parsing, and
 * comes back exactly.
 * - Parsing is line based: a message runs until the next structure line (a role heading or a
 *   strata callout). A text line that looks like one gets a leading backslash (`\## User · 2`;
 *   one more for a line that already had backslashes), so no message can forge or hide a boundary.
 *   Markdown shows `\#` as `#`, so people read the line as it was written.
 * - plain: the escaped text, as is (most messages: readable markdown).
 * - fenced: the escaped text inside a ```strata-text fence longer than any backtick run in it, when
 *   the text would spill into the rest of the note once rendered (an unclosed code fence, an HTML or
 *   Obsidian comment).
 * - json: a ```strata-json fence holding one JSON string, when the text has characters a markdown
 *   file cannot carry exactly (lone surrogates, i.e. invalid UTF-8 once written; CR; other controls).
 * - quoted (a compaction's summary, inside its folded callout): any of the above with `> ` before
 *   every line. A line that would open a strata callout once quoted (`[!strata-tool]`) is escaped too.
 */

import { trimEndOf } from '../trim';

export type TextEncoding = 'plain' | 'fenced' | 'json';

/** A role heading: `## User · 3`, `## Assistant · 3` (the number may be missing in hand-written notes). */
export const ROLE_HEADING = /^##[ \t]+(User|Assistant)(?:[ \t]*·[ \t]*(\d+))?[ \t]*$/i;
/** A callout this format owns: `> [!strata-tool]- …`. */
export const STRATA_CALLOUT = /^>[ \t]*\[!strata-([a-z-]+)\]/i;
/** The opening line of an encoded (fenced or json) message. */
export const STRATA_FENCE = /^(`{3,})strata-(text|json)[ \t]*$/;

// Lone surrogates (invalid once written as UTF-8) and control characters other than tab and newline.
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const CONTROL = /[^\P{Cc}\t\n]/u;
const needsJson = (text: string): boolean => LONE_SURROGATE.test(text) || CONTROL.test(text);

export function isStructureLine(line: string): boolean {
  return ROLE_HEADING.test(line) || STRATA_CALLOUT.test(line);
}

/** A line that, quoted (`> ` before it), would be a strata callout's opening line. */
const QUOTED_CALLOUT = /^[ \t]*\[!strata-[a-z-]+\]/i;

function needsEscape(bare: string, first: boolean, quoted: boolean): boolean {
  return isStructureLine(bare) || (first && STRATA_FENCE.test(bare)) || (quoted && QUOTED_CALLOUT.test(bare));
}

/**
 * Add one backslash to lines that are, or after their leading backslashes would be, structure lines
 * (`quoted`: also once a `> ` is put before them).
 */
export function escapeLines(text: string, quoted = false): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const bare = lines[i].replace(/^\\+/, '');
    if (needsEscape(bare, i === 0, quoted)) lines[i] = `\\${lines[i]}`;
  }
  return lines.join('\n');
}

/** Inverse of escapeLines. */
export function unescapeLines(text: string, quoted = false): string {
  // Most messages have no line starting with a backslash: nothing to undo.
  if (!text.startsWith('\\') && !text.includes('\n\\')) return text;
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith('\\')) continue;
    const bare = lines[i].replace(/^\\+/, '');
    if (needsEscape(bare, i === 0, quoted)) lines[i] = lines[i].slice(1);
  }
  return lines.join('\n');
}

export function chooseEncoding(text: string): TextEncoding {
  if (needsJson(text)) return 'json';
  if (text.includes('<!--') || text.includes('-->') || countOf(text, '%%') % 2 === 1) return 'fenced';
  let open: { char: string; length: number } | null = null;
  for (const line of text.split('\n')) {
    // `s`: the info string runs to the end of the line even past a U+2028 (`.` stops there, and backtracking over the fence run was quadratic).
    const fence = /^ {0,3}(`{3,}|~{3,})(.*)$/s.exec(line);
    if (!fence) continue;
    const char = fence[1][0];
    if (!open) {
      if (char === '`' && fence[2].includes('`')) continue; // not a fence (backtick in info string)
      open = { char, length: fence[1].length };
    } else if (char === open.char && fence[1].length >= open.length && fence[2].trim() === '') {
      open = null;
    }
  }
  return open ? 'fenced' : 'plain';
}

function countOf(text: string, needle: string): number {
  let n = 0;
  for (let i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + needle.length)) n++;
  return n;
}

/** The text as it appears in the body (without the blank lines around it). */
export function encodeText(text: string, encoding: TextEncoding = chooseEncoding(text), quoted = false): string {
  if (encoding === 'json') return '```strata-json\n' + JSON.stringify(text) + '\n```';
  const escaped = escapeLines(text, quoted);
  if (encoding === 'plain') return escaped;
  let longest = 0;
  for (const run of escaped.matchAll(/^ {0,3}(`+)/gm)) longest = Math.max(longest, run[1].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}strata-text\n${escaped}\n${fence}`;
}

export interface DecodedText {
  readonly text: string;
  readonly encoding: TextEncoding;
  readonly warning?: string;
}

/**
 * Decode a message block as the body holds it. The closing line is the first line after the opening
 * one that is its fence (the encoder makes the fence longer than any backtick run the text starts a
 * line with, so no text line is one). Blank lines after it are not the text's (the encoder writes
 * none: the text's own line breaks are inside the fence); a damaged note can leave some there (a line
 * moved below the chat data callout keeps the blank line before it). Text typed after it is more of
 * the message, as it is after a plain one. A block that starts with a strata fence and has no
 * closing line (a hand edit) is kept as plain text, with a warning: nothing is dropped.
 */
export function decodeText(block: string, quoted = false): DecodedText {
  const unescape = (text: string) => unescapeLines(text, quoted);
  const firstBreak = block.indexOf('\n');
  const first = firstBreak < 0 ? block : block.slice(0, firstBreak);
  const open = STRATA_FENCE.exec(first.replace(/\r$/, ''));
  if (!open || firstBreak < 0) return { text: unescape(block), encoding: 'plain' };
  const fence = open[1];
  const close = closingLine(block, firstBreak, fence);
  if (!close) {
    return { text: unescape(block), encoding: 'plain', warning: `an encoded message (${fence}strata-${open[2]}) is not closed; its text is kept as written` };
  }
  const inner = block.slice(firstBreak + 1, close.start - 1);
  // What follows the closing line, from its line break on: `\nmore` keeps the text typed after it
  // as a plain message's would be (a first line of its own, so unescaped as a later line).
  const after = block.slice(close.end);
  const typed = trimEndOf(after, ' \t\r\n') === '' ? '' : unescape(after).slice(1);
  const more = (text: string) => (typed ? `${text}\n${typed}` : text);
  if (open[2] === 'text') return { text: more(unescape(inner)), encoding: 'fenced' };
  try {
    const parsed: unknown = JSON.parse(inner);
    if (typeof parsed === 'string') return { text: more(parsed), encoding: 'json' };
  } catch {
    // fall through: kept as written
  }
  return { text: unescape(block), encoding: 'plain', warning: 'an encoded message (strata-json) could not be read; its text is kept as written' };
}

/**
 * The first line after `from` (the opening line's break) that is `fence` alone (trailing spaces, tabs
 * and a CR allowed): where it starts and where it ends (at its line break, or the block's end).
 * One pass of indexOf: linear on a long block.
 */
function closingLine(block: string, from: number, fence: string): { start: number; end: number } | null {
  for (let at = block.indexOf(fence, from + 1); at >= 0; at = block.indexOf(fence, at + 1)) {
    if (block[at - 1] !== '\n') continue;
    let end = at + fence.length;
    while (end < block.length && (block[end] === ' ' || block[end] === '\t' || block[end] === '\r')) end++;
    if (end === block.length || block[end] === '\n') return { start: at, end };
  }
  return null;
}

/** A text inside a callout: encoded as a message would be (quoted escaping), `> ` before every line (`>` alone for an empty one). */
export function encodeQuoted(text: string): string {
  return encodeText(text, chooseEncoding(text), true)
    .split('\n')
    .map((line) => (line ? `> ${line}` : '>'))
    .join('\n');
}

/** Inverse of encodeQuoted, given the callout's lines with their `> ` already taken off. */
export function decodeQuoted(lines: readonly string[]): DecodedText {
  return decodeText(lines.join('\n'), true);
}

import type { ChatListRow } from '../ports/chatArchive';
import { bodyWithoutChatData } from './chatData';
import { parseYaml, splitFrontmatter } from '../markdown/frontmatter';
import { toLf } from './lineEndings';
import { isStructureLine } from './textBlock';
import { FLAG_KEYS } from './chatFlags';

/**
 * A chat-list row from a chat note without decoding it: the readable properties and the chat id,
 * parsed from the head of the frontmatter only (everything before the library and the per-turn
 * records, which are most of it), and the number of user messages counted in the body. A note
 * whose head does not read that way (keys reordered by hand) falls back to parsing the whole
 * frontmatter; one without a chat id is listed under the id its path gives.
 */
export function chatListRowOf(path: string, text: string, fallbackId: string): ChatListRow {
  const lf = text.includes('\r') ? toLf(text) : text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const open = /^---[ \t]*\n/.exec(lf);
  // The usual note: the head alone gives the row, and the body starts at the closing fence.
  const head = open ? headScalars(lf.slice(open[0].length, open[0].length + HEAD_CHARS)) : null;
  const close = head ? closingFence(lf, open?.[0].length ?? 0) : -1;
  let problems = 0;
  let data: Record<string, unknown> | null = head;
  let body = close >= 0 ? lf.slice(close) : '';
  if (!head || close < 0) {
    const split = splitFrontmatter(lf, isStructureLine);
    body = split.body;
    if (split.yaml === null) problems++;
    data = split.yaml === null ? null : parseYaml(split.yaml).value;
    if (split.yaml !== null && data === null) problems++;
  }
  const d = data ?? {};
  const created = time(d.created);
  const updated = time(d.updated) ?? created ?? 0;
  if (data && (typeof d.title !== 'string' || created === null || idOf(d) === null)) problems++;
  return {
    path,
    id: idOf(d) ?? fallbackId,
    title: typeof d.title === 'string' && d.title.trim() ? d.title : 'Untitled chat',
    created: created ?? 0,
    updated,
    turns: countUserMessages(body),
    model: typeof d.model === 'string' ? d.model : 'unknown',
    warnings: problems,
    // Written as `true` before the chat's data (chatFlags.ts); read as text from the head, as a boolean from a full parse.
    ...(d.pinned === true || d.pinned === 'true' ? { pinned: true } : {}),
    ...(d.archived === true || d.archived === 'true' ? { archived: true } : {}),
  };
}

const LIST_KEYS = ['title', 'created', 'updated', 'model'];
/** The readable properties and the chat id come first in a note Strata wrote: a few hundred characters. */
const HEAD_CHARS = 64 * 1024;

/** Where the body starts: after the first `---` line following the opening fence; -1 when there is none. */
function closingFence(text: string, from: number): number {
  for (let at = text.indexOf('\n---', from - 1); at >= 0; at = text.indexOf('\n---', at + 4)) {
    const end = text.indexOf('\n', at + 4);
    const rest = end < 0 ? text.slice(at + 4) : text.slice(at + 4, end);
    if (/^[ \t]*$/.test(rest)) return end < 0 ? text.length : end + 1;
  }
  return -1;
}

/**
 * The list's properties read line by line from the head of the frontmatter (top-level title,
 * created, updated, model; `id` under `strata`), without a YAML parse of the whole block: a YAML
 * parse of a long chat's frontmatter costs far more than the rest of listing it. Values written on
 * one line as plain, single- or double-quoted scalars are read here; anything else (a block
 * scalar, a flow value) makes it return null, and the caller parses the YAML instead.
 */
function headScalars(yaml: string): Record<string, unknown> | null {
  const out: Record<string, unknown> = {};
  let inStrata = false;
  let offset = 0;
  // Once the list's keys are read, the scan goes on to the closing fence for a pinned or archived
  // property set by hand (at the end of the properties); without a fence in the head, what was read stands.
  let complete = false;
  while (offset < yaml.length) {
    const end = yaml.indexOf('\n', offset);
    const line = end < 0 ? yaml.slice(offset) : yaml.slice(offset, end);
    offset = end < 0 ? yaml.length : end + 1;
    if (/^(?:---|\.\.\.)[ \t]*$/.test(line)) return complete ? out : null;
    const top = /^([A-Za-z_][\w-]*):(?: (.*))?$/.exec(line);
    if (top) {
      inStrata = top[1] === 'strata';
      const flag = FLAG_KEYS.includes(top[1] as (typeof FLAG_KEYS)[number]);
      if (flag || (!complete && LIST_KEYS.includes(top[1]))) {
        const value = scalar(top[2] ?? '');
        if (value === null) {
          if (complete) continue;
          return null;
        }
        out[top[1]] = value;
      }
      continue;
    }
    const nested = !complete && inStrata ? /^ {2}id:(?: (.*))?$/.exec(line) : null;
    if (nested) {
      const id = scalar(nested[1] ?? '');
      if (id === null) return null;
      out.strata = { id };
      complete = LIST_KEYS.every((k) => k in out);
    }
  }
  return complete ? out : null;
}

/** A one-line YAML scalar as text; null when it is not one (the caller falls back to a parse). */
function scalar(raw: string): string | null {
  const v = raw.trim();
  if (v.startsWith('"')) {
    if (!v.endsWith('"') || v.length < 2) return null;
    try {
      return JSON.parse(v) as string;
    } catch {
      return null;
    }
  }
  if (v.startsWith("'")) return v.length >= 2 && v.endsWith("'") ? v.slice(1, -1).replace(/''/g, "'") : null;
  if (/^[|>[{&*!%@`]/.test(v) || / #/.test(v)) return null;
  return v;
}

function idOf(d: Record<string, unknown>): string | null {
  const strata = d.strata;
  if (typeof strata !== 'object' || strata === null) return null;
  const id = (strata as Record<string, unknown>).id;
  return typeof id === 'string' && id ? id : null;
}

function time(v: unknown): number | null {
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (v instanceof Date) return v.getTime();
  if (typeof v !== 'string') return null;
  const ms = Date.parse(v);
  return Number.isFinite(ms) ? ms : null;
}

/** User message headings (`## User · n`), found by a linear scan. */
function countUserMessages(body: string): number {
  let n = 0;
  for (let at = body.indexOf('## User'); at >= 0; at = body.indexOf('## User', at + 7)) {
    if (at === 0 || body[at - 1] === '\n') n++;
  }
  return n;
}

/** The body of a chat note, lowercased, for a full-text search (frontmatter and chat data left out). */
export function searchableText(text: string): string {
  return bodyWithoutChatData(splitFrontmatter(toLf(text), isStructureLine).body).toLowerCase();
}

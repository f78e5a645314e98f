import { escapeAttr, escapeContent } from './escape';
import type { CondensedEntry, CondensedForm, LibraryCondensing, LibraryItem } from './types';
import { closeTag, openTag } from './wrappers';
import type { StablePart } from './systemBlocks';

/**
 * The condensed library (issue 27): library items that left the stable library block at a library
 * condensing, each kept in a compact form. The block is append-only: a later library condensing adds
 * entries at its end and never rewrites the ones already sent, so the provider's cache keeps it.
 * Only when the block itself passes its share of the budget is it rewritten tighter (every entry
 * down to a listed line), a named break like any library condensing.
 */

/** Headings kept in an outline: enough to say what a note holds and where to ask. */
const OUTLINE_HEADINGS = 12;
const OUTLINE_LINE_CHARS = 80;

/**
 * The heading outline of an item: its markdown headings, indented by level, at most a dozen (the
 * first line of text when it has none). Deterministic: depends on the text alone.
 */
export function outlineOf(content: string): string {
  const headings: string[] = [];
  let fence = false;
  let first = '';
  for (const line of content.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) fence = !fence;
    if (fence) continue;
    const m = /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(line);
    if (m) headings.push(`${'  '.repeat(m[1].length - 1)}- ${cut(m[2])}`);
    else if (!first && line.trim() && !/^---\s*$/.test(line)) first = cut(line.trim());
  }
  if (headings.length === 0) return first ? `- ${first}` : '';
  const more = headings.length - OUTLINE_HEADINGS;
  return [...headings.slice(0, OUTLINE_HEADINGS), ...(more > 0 ? [`- (${more} more headings)`] : [])].join('\n');
}

function cut(text: string): string {
  return text.length > OUTLINE_LINE_CHARS ? `${text.slice(0, OUTLINE_LINE_CHARS - 1)}…` : text;
}

/** An entry for a library item in a form (its text made by the caller for `summary`). */
export function condensedEntryOf(item: LibraryItem, form: CondensedForm, summary?: string): CondensedEntry {
  const text = form === 'summary' ? (summary ?? '') : form === 'outline' ? outlineOf(item.content) : '';
  return { id: item.id, version: item.version, title: item.title, source: item.source, form, text };
}

/** The block's first line: what the entries are and how to get the rest. */
export const CONDENSED_LIBRARY_INTRO =
  'Earlier notes of this chat, condensed to save room (a summary or a heading outline, with the path). Their sections relevant to a question arrive with it; ask for a note (or read it with a tool) for its whole text.';

/** One entry as sent. Depends on the entry alone, so an appended block keeps its earlier bytes. */
export function renderCondensedEntry(e: CondensedEntry): string {
  const attrs = [`id="${escapeAttr(e.id)}"`, `title="${escapeAttr(e.title)}"`, `form="${e.form}"`];
  if (e.source !== e.id) attrs.push(`source="${escapeAttr(e.source)}"`);
  if (e.version > 1) attrs.push(`version="${e.version}"`);
  if (e.form === 'listed' || !e.text) return `${openTag('condensed_item', attrs)}${closeTag('condensed_item')}`;
  const body = escapeContent(e.text);
  return `${openTag('condensed_item', attrs)}\n${body}${body.endsWith('\n') ? '' : '\n'}${closeTag('condensed_item')}`;
}

/** The block's parts (open tag and intro, one per entry, close tag): one part each, so each is counted once. */
export function condensedBlockParts(c: Pick<LibraryCondensing, 'entries'> | null): string[] {
  const part = condensedPart(c);
  return part.chunks.length === 0 ? [] : [...part.open, ...part.chunks.flat(), ...part.close];
}

/**
 * The block as a stable part of the system message: one chunk per entry, so a later condensing that
 * appends entries leaves every earlier block boundary (and Anthropic's cache entry at its end) in place.
 */
export function condensedPart(c: Pick<LibraryCondensing, 'entries'> | null): StablePart {
  const entries = c?.entries ?? [];
  return { open: [`${openTag('condensed_library')}\n${CONDENSED_LIBRARY_INTRO}`], chunks: entries.map((e) => [renderCondensedEntry(e)]), close: [closeTag('condensed_library')] };
}

/** Ids whose latest library version is condensed (a newer version, attached again, is in full). */
export function condensedIds(c: LibraryCondensing | null, latest: ReadonlyMap<string, LibraryItem>): Set<string> {
  const out = new Set<string>();
  if (!c) return out;
  for (const e of c.entries) if (latest.get(e.id)?.version === e.version) out.add(e.id);
  return out;
}

/** The condensing with entries appended (one more round). */
export function appendEntries(c: LibraryCondensing | null, entries: readonly CondensedEntry[]): LibraryCondensing {
  return { entries: [...(c?.entries ?? []), ...entries], rounds: (c?.rounds ?? 0) + 1 };
}

/** The block rewritten tighter: every entry down to its listed line (the block passed its share). */
export function listedOnly(c: LibraryCondensing): LibraryCondensing {
  return { entries: c.entries.map((e) => ({ ...e, form: 'listed' as const, text: '' })), rounds: c.rounds };
}

import type { VaultReader } from '../ports/vault';
import type { RankedChunk } from './chunkRanking';
import { abortError } from './slices';
import { makeSnippet } from './snippet';
import type { SearchHit } from './types';

/**
 * Ranked chunks made into hits: each note read once, the chunk's lines cut out of it, a snippet
 * around its matched terms. The index keeps no note text, so this is where a search reads the vault.
 */

/** What a hit needs of a chunk beyond its place. */
export interface HitMeta {
  readonly path: string;
  readonly headings: readonly string[];
  readonly startLine: number;
  readonly endLine: number;
}

/** The first k hits of a ranked list, at most perNote from one note. */
export function pickHits<M extends HitMeta>(ranked: readonly RankedChunk<M>[], k: number, perNoteLimit: number | undefined): RankedChunk<M>[] {
  const picked: RankedChunk<M>[] = [];
  const perNote = new Map<string, number>();
  for (let i = 0; i < ranked.length && picked.length < k; i++) {
    const hit = ranked[i];
    const count = perNote.get(hit.meta.path) ?? 0;
    if (perNoteLimit !== undefined && count >= perNoteLimit) continue;
    perNote.set(hit.meta.path, count + 1);
    picked.push(hit);
  }
  return picked;
}

/** The hits of `picked`, in order; a chunk whose note can no longer be read is left out (the delete event will remove it). */
export async function makeHits<M extends HitMeta>(vault: VaultReader, picked: readonly RankedChunk<M>[], signal?: AbortSignal): Promise<SearchHit[]> {
  const texts = new Map<string, string | null>();
  const hits: SearchHit[] = [];
  for (const hit of picked) {
    if (signal?.aborted) throw abortError();
    const { path } = hit.meta;
    if (!texts.has(path)) texts.set(path, await readNote(vault, path));
    const note = texts.get(path);
    if (note === null || note === undefined) continue;
    const text = lineRange(note, hit.meta.startLine, hit.meta.endLine);
    hits.push({
      path,
      headings: hit.meta.headings,
      heading: hit.meta.headings[hit.meta.headings.length - 1] ?? '',
      startLine: hit.meta.startLine,
      endLine: hit.meta.endLine,
      text,
      snippet: makeSnippet(withoutHeadingLine(text, hit.meta.headings.length > 0), new Set(hit.terms)),
      score: hit.score,
    });
  }
  return hits;
}

async function readNote(vault: VaultReader, path: string): Promise<string | null> {
  try {
    return await vault.read(path);
  } catch {
    return null;
  }
}

/**
 * Lines `from`…`to` (1-based, inclusive) of `text` joined by '\n': what
 * `text.split(/\r\n?|\n/).slice(from - 1, to).join('\n')` gives, without a string per line of
 * the whole note (an 80 KB note has a thousand).
 */
export function lineRange(text: string, from: number, to: number): string {
  if (!text.includes('\r')) {
    // Lines end at '\n' only: jump between them natively.
    let start = 0;
    for (let line = 1; line < from; line++) {
      const end = text.indexOf('\n', start);
      if (end < 0) return '';
      start = end + 1;
    }
    let end = start;
    for (let line = from; line <= to; line++) {
      const next = text.indexOf('\n', end);
      if (next < 0) return text.slice(start);
      end = line === to ? next : next + 1;
    }
    return text.slice(start, end);
  }
  const parts: string[] = [];
  let line = 1;
  let at = 0;
  while (line <= to) {
    let end = at;
    while (end < text.length) {
      const c = text.charCodeAt(end);
      if (c === 10 || c === 13) break;
      end++;
    }
    if (line >= from) parts.push(text.slice(at, end));
    if (end >= text.length) break;
    at = end + (text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? 2 : 1);
    line++;
  }
  return parts.join('\n');
}

function withoutHeadingLine(text: string, hasHeading: boolean): string {
  if (!hasHeading) return text;
  const first = text.split(/\r\n?|\n/, 1)[0];
  return /^ {0,3}#{1,6}(?:\s|$)/.test(first) ? text.slice(first.length).replace(/^\r?\n/, '') : text;
}

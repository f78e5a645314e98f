import type { SearchSource } from '../conversation/records/search';
import { pdfSectionAnchor } from '../context/pdf/pdfContent';

/** A piece of an answer's text: plain text, or one citation number (known: among the sources given). */
export type CitationPart = { readonly text: string } | { readonly n: number; readonly source: SearchSource | null; readonly text: string };

// `[1]`, `[1, 2]` or `[1,2,3]`; not a link's `[1](…)` nor a footnote `[^1]` (markdown has made those elements already).
const CITATION = /\[(\d{1,3}(?:\s*,\s*\d{1,3})*)\](?!\()/g;

/**
 * An answer's text split at its citations. A number outside the sources given (or any number when
 * the turn had no search) stays a citation with a null source: the view shows it as unverified.
 * `[1, 2]` becomes two citations, separated by ", ".
 */
export function citationParts(text: string, sources: readonly SearchSource[]): CitationPart[] {
  const parts: CitationPart[] = [];
  let last = 0;
  for (const match of text.matchAll(CITATION)) {
    const start = match.index ?? 0;
    if (start > last) parts.push({ text: text.slice(last, start) });
    match[1]
      .split(',')
      .map((s) => Number(s.trim()))
      .forEach((n, i) => {
        if (i > 0) parts.push({ text: ', ' });
        parts.push({ n, source: n >= 1 && n <= sources.length ? sources[n - 1] : null, text: `[${n}]` });
      });
    last = start + match[0].length;
  }
  if (last < text.length) parts.push({ text: text.slice(last) });
  return parts;
}

/** Whether a text holds a citation at all (so the view walks only answers that have some). */
export function hasCitation(text: string): boolean {
  return new RegExp(CITATION.source).test(text);
}

/** The link a citation opens: the note at the heading (Obsidian's `path#heading`), a PDF at its page (`file.pdf#page=N`). */
export function sourceLink(source: SearchSource): string {
  if (!source.heading) return source.path;
  return pdfSectionAnchor(source.path, source.heading) ?? `${source.path}#${source.heading}`;
}

/** The note's name (no folder, no .md) and heading, for the sources list. */
export function sourceTitle(source: SearchSource): string {
  const name = source.path.replace(/^.*\//, '').replace(/\.md$/i, '');
  return source.heading && source.heading !== name ? `${name} › ${source.heading}` : name;
}

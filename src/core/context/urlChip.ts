import { capPageText, FETCH_LIMIT_CHARS, PageError } from '../agent/webPage';
import type { FetchedPage } from '../ports/toolHost';
import type { ContextChip } from './items';

/**
 * A web page attached with `@` in the composer (issue 14): the address typed or pasted after `@`,
 * the fetched page as a URL chip (id = the address, title = the page's <title>, content = its
 * markdown capped as the agent's fetchUrl tool caps it), and what its chip says while it loads or
 * when it failed. Host-independent: the host fetches (src/obsidian/toolHost.ts fetchPage).
 */

export type UrlChip = Extract<ContextChip, { kind: 'url' }>;

/** How an attached page stands: being fetched, attached (its chip carries the text), or failed (not attached). */
export type PageState =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly chip: UrlChip; readonly chars: number; readonly cut: number; readonly finalUrl: string }
  | { readonly state: 'error'; readonly reason: string; readonly detail: string };

/** The http(s) address an `@` query is (normalized), or null: it is a note's name. */
export function pastedUrl(query: string): string | null {
  const text = query.trim();
  if (!/^https?:\/\/[^\s/?#]/i.test(text) || /\s/.test(text)) return null;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.hostname === '') return null;
  return url.href;
}

/** What `@` text before the caret is a URL being attached: the address and where its `@` is, or null. */
export function urlMentionAt(before: string): { start: number; url: string } | null {
  const m = /(^|\s)@(https?:\/\/\S*)$/i.exec(before);
  if (!m) return null;
  const url = pastedUrl(m[2]);
  return url === null ? null : { start: before.length - m[2].length - 1, url };
}

/** A fetched page as the composer keeps it: its chip with the capped text, or why it cannot be attached. */
export function pageOutcome(url: string, page: FetchedPage): PageState {
  if (page.status !== undefined && page.status >= 400) {
    return { state: 'error', reason: httpReason(page.status), detail: `the server answered HTTP ${page.status}` };
  }
  const markdown = page.markdown.trim();
  if (markdown === '') return { state: 'error', reason: 'The page has no text', detail: 'the page has no text to attach' };
  const { text, cut } = capPageText(markdown);
  const title = page.title?.trim();
  const chip: UrlChip = { kind: 'url', url, ...(title ? { title } : {}), content: text };
  return { state: 'ready', chip, chars: markdown.length, cut, finalUrl: page.url };
}

/** A fetch that threw (no connection, no answer in time, not a web page, too big), for its chip. */
export function fetchFailure(error: unknown): PageState {
  const detail = messageOf(error);
  if (error instanceof PageError) return { state: 'error', reason: error.short, detail };
  return { state: 'error', reason: 'Could not connect', detail };
}

function httpReason(status: number): string {
  const words: Record<number, string> = {
    400: 'Bad request',
    401: 'Needs a login',
    403: 'Access denied',
    404: 'Not found',
    410: 'Gone',
    429: 'Too many requests',
  };
  const word = words[status] ?? (status >= 500 ? 'Server error' : 'Refused');
  return `${word} (HTTP ${status})`;
}

function messageOf(error: unknown): string {
  if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string') return (error as { message: string }).message;
  return String(error);
}

/** The address without its scheme and trailing slash: "example.com/docs/page". */
export function shortUrl(url: string): string {
  return url.replace(/^https?:\/\//i, '').replace(/\/$/, '');
}

const n = (x: number) => x.toLocaleString('en-US');

/** A URL chip's label and tooltip in its state (no state: a chip that already carries its text, e.g. restored). */
export function urlChipText(chip: UrlChip, page: PageState | undefined): { label: string; tooltip: string } {
  if (!page || page.state === 'ready') {
    const ready = page?.state === 'ready' ? page : null;
    // The chip's own title first: a Web viewer tab's, as the tab shows it.
    const title = chip.title ?? ready?.chip.title;
    const lines = [title ? `${title}\n${chip.url}` : chip.url];
    if (ready && ready.finalUrl !== chip.url) lines.push(`Read from ${ready.finalUrl}`);
    if (ready) {
      lines.push(
        ready.cut > 0
          ? `Page cut to its first ${n(FETCH_LIMIT_CHARS)} characters: ${n(ready.cut)} more are not attached.`
          : `${n(ready.chars)} characters attached.`,
      );
    }
    return { label: title ?? shortUrl(chip.url), tooltip: lines.join('\n') };
  }
  if (page.state === 'loading') return { label: shortUrl(chip.url), tooltip: `Loading ${chip.url}…` };
  return {
    label: `${page.reason}: ${shortUrl(chip.url)}`,
    tooltip: `Not attached: ${chip.url} could not be read (${page.detail}). It is not sent; remove it.`,
  };
}

/**
 * A turn's chips with their page text back. A chat keeps a URL's text once, with its library item
 * (records.ts savedChip), not on the turn: the turn runs (and runs again: retry, regenerate, edit)
 * with the text the composer fetched (`known`, by URL), else the library's latest copy.
 */
export function withPageText(
  chips: readonly ContextChip[],
  known: ReadonlyMap<string, UrlChip>,
  library: readonly { readonly id: string; readonly kind: string; readonly title: string; readonly content?: string }[],
): ContextChip[] {
  return chips.map((chip) => {
    if (chip.kind !== 'url' || chip.content !== undefined) return chip;
    const fetched = known.get(chip.url);
    if (fetched?.content !== undefined) return { ...fetched, ...(chip.title !== undefined ? { title: chip.title } : {}) };
    const kept = [...library].reverse().find((item) => item.kind === 'url' && item.id === chip.url && item.content !== undefined);
    if (!kept) return chip;
    const title = chip.title ?? (kept.title !== chip.url ? kept.title : undefined);
    return { kind: 'url', url: chip.url, ...(title !== undefined ? { title } : {}), content: kept.content };
  });
}

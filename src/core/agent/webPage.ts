import { trimEndOf } from '../trim';

/**
 * The host-independent half of fetching a page for the agent's fetchUrl tool: which responses are
 * readable, the page's title, and the HTML cleaned before a host converts it to markdown (Obsidian
 * with htmlToMarkdown, Node with turndown).
 */

export type PageKind = 'html' | 'text';

/** Largest body read (bytes); the tool shows at most FETCH_LIMIT_CHARS of the markdown anyway. */
export const FETCH_MAX_BYTES = 5 * 1024 * 1024;

/** The most characters of page markdown one fetch gives (the agent's fetchUrl tool, a URL attached with `@`). */
export const FETCH_LIMIT_CHARS = 30_000;

/**
 * A page's markdown within `limit` characters: cut at a line break near the limit (no line cut in
 * the middle) with a last line saying how much was left out. `cut`: characters left out (0: whole).
 */
export function capPageText(markdown: string, limit = FETCH_LIMIT_CHARS): { text: string; cut: number } {
  if (markdown.length <= limit) return { text: markdown, cut: 0 };
  const cutAt = markdown.lastIndexOf('\n', limit);
  const kept = markdown.slice(0, cutAt > limit / 2 ? cutAt : limit).trimEnd();
  const cut = markdown.length - kept.length;
  return { text: `${kept}\n\n[… page cut: ${cut} more characters not shown (the output is limited to ${limit} characters).]`, cut };
}

/**
 * A page a host could not read (not HTML or text, too large, no answer in time): the message for the
 * model and the logs, and `short`, a few words for a chip ("Too big (over 5 MB)").
 */
export class PageError extends Error {
  constructor(
    message: string,
    readonly short: string,
  ) {
    super(message);
    this.name = 'PageError';
  }
}

/** The error a host throws for a body over FETCH_MAX_BYTES. */
export function pageTooLarge(bytes: number): PageError {
  return new PageError(`the page is too large (${bytes} bytes; at most ${FETCH_MAX_BYTES} are read)`, `Too big (over ${FETCH_MAX_BYTES / (1024 * 1024)} MB)`);
}

/** The error a host throws when a page did not answer in time. */
export function pageTimeout(timeoutMs: number): PageError {
  const seconds = Math.round(timeoutMs / 1000);
  return new PageError(`no answer after ${seconds} s`, `No answer after ${seconds} s`);
}

/**
 * What a response is, from its content type (and, without one, its first bytes): HTML, text
 * (plain, markdown, JSON, XML, CSV…), or null for what the tool cannot read (images, PDFs, binaries).
 */
export function pageKind(contentType: string | null | undefined, body: string): PageKind | null {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type === 'text/html' || type === 'application/xhtml+xml') return 'html';
  if (type.startsWith('text/') || /^application\/(?:json|xml|[\w.+-]+\+(?:json|xml)|javascript|x-markdown|markdown)$/.test(type)) {
    return binary(body) ? null : 'text';
  }
  if (type !== '' && type !== 'application/octet-stream') return null;
  if (binary(body)) return null;
  return /^\s*(?:<!doctype html|<html[\s>]|<head[\s>]|<body[\s>])/i.test(body) ? 'html' : type === '' ? 'text' : null;
}

function binary(body: string): boolean {
  const head = body.slice(0, 8192);
  if (head.includes('\u0000')) return true;
  let bad = 0;
  for (let i = 0; i < head.length; i++) if (head.charCodeAt(i) === 0xfffd) bad++;
  return head.length > 0 && bad / head.length > 0.05;
}

/** The error a host throws for a response the tool cannot read. */
export function unsupportedContent(contentType: string | null | undefined): PageError {
  const type = (contentType ?? '').split(';')[0].trim() || 'unknown';
  return new PageError(`the page is not HTML or text (content type ${type}); only web pages and text files can be read`, `Not a web page (${type})`);
}

/** The text of the <title> element, entities decoded, or undefined. */
export function htmlTitle(html: string): string | undefined {
  const m = /<title[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html);
  if (!m) return undefined;
  const title = decodeEntities(m[1].replace(/<[^>]*>/g, '')).replace(/\s+/g, ' ').trim();
  return title === '' ? undefined : title;
}

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', ndash: '–', mdash: '—', hellip: '…', rsquo: '’', lsquo: '‘', rdquo: '”', ldquo: '“', copy: '©' };

export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole, code: string) => {
    if (code[0] === '#') {
      const n = code[1] === 'x' || code[1] === 'X' ? parseInt(code.slice(2), 16) : parseInt(code.slice(1), 10);
      return Number.isFinite(n) && n > 0 && n <= 0x10ffff ? String.fromCodePoint(n) : whole;
    }
    return NAMED[code.toLowerCase()] ?? whole;
  });
}

// Elements whose text is not page content (scripts, styles, the <head> with its <title>, forms' chrome).
const NOT_CONTENT = ['head', 'title', 'script', 'style', 'noscript', 'template', 'svg', 'iframe', 'object', 'canvas', 'nav', 'button', 'select'];

/**
 * The HTML without elements that are not content, with links and images made absolute against the
 * page's address (a relative `/docs/x` is useless to the model), and data: images dropped.
 */
export function cleanHtml(html: string, baseUrl: string): string {
  let out = html.replace(/<!--[\s\S]*?-->/g, '');
  for (const tag of NOT_CONTENT) out = out.replace(new RegExp(`<${tag}\\b[^>]*>[\\s\\S]*?</${tag}\\s*>`, 'gi'), ' ');
  out = out.replace(/<img\b[^>]*\bsrc\s*=\s*["']?data:[^>]*>/gi, '');
  return out.replace(/(\s(?:href|src)\s*=\s*)(["'])([^"']*)\2/gi, (whole, attr: string, quote: string, value: string) => {
    const raw = decodeEntities(value.trim());
    if (raw === '' || raw.startsWith('#') || /^[a-z][a-z0-9+.-]*:/i.test(raw)) return whole;
    try {
      return `${attr}${quote}${new URL(raw, baseUrl).href.replace(/"/g, '%22').replace(/'/g, '%27')}${quote}`;
    } catch {
      return whole;
    }
  });
}

/** Markdown tidied for the model: no runs of blank lines, no trailing spaces. */
export function tidyMarkdown(markdown: string): string {
  return markdown
    .split(/\r\n?|\n/)
    .map((line) => trimEndOf(line, ' \t'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** Redirects followed (each hop checked) before an agent's fetch gives up. */
export const MAX_REDIRECTS = 5;

/** The statuses whose `location` a host follows itself (never the HTTP client: each hop is checked first). */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** Where redirect number `hop` (0 first) leads, or a PageError: too many hops, or a scheme other than http(s). */
export function redirectTarget(location: string, current: URL, hop: number): URL {
  if (hop >= MAX_REDIRECTS) throw new PageError(`more than ${MAX_REDIRECTS} redirects`, 'Too many redirects');
  const next = new URL(location, current);
  if (next.protocol !== 'http:' && next.protocol !== 'https:') throw new PageError(`a redirect to ${next.protocol} (only http and https are followed)`, 'Redirect refused');
  return next;
}

/** A body's text in the charset its content type names (utf-8 when it names none or one the decoder does not know). */
export function decodePage(bytes: Uint8Array, contentType: string | null | undefined): string {
  const label = /;\s*charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '')?.[1];
  let decoder: TextDecoder;
  try {
    decoder = new TextDecoder(label ?? 'utf-8', { fatal: false });
  } catch {
    decoder = new TextDecoder('utf-8', { fatal: false });
  }
  return decoder.decode(bytes);
}

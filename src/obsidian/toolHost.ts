import { htmlToMarkdown, Platform, requestUrl, type App } from 'obsidian';
import type { FetchedPage, ToolHost } from '../core/ports/toolHost';
import type { VaultReader } from '../core/ports/vault';
import type { VaultSearch } from '../core/search/types';
import { cleanHtml, decodePage, FETCH_MAX_BYTES, htmlTitle, pageKind, pageTimeout, pageTooLarge, tidyMarkdown, unsupportedContent } from '../core/agent/webPage';
import { assertPublicUrl } from '../core/net/localAddress';
import { guardedGet, NodeNetworkError, type NodeNet } from './guardedFetch';
import { ObsidianVaultReader } from './obsidianVault';

export interface ObsidianToolHostOptions {
  /** The search (null while the index is being built). */
  readonly search: () => VaultSearch | null;
  /** The reader the tools use; default Obsidian's vault (ObsidianVaultReader). */
  readonly vault?: VaultReader;
  readonly scope?: string;
  /** Folders never shown: pass the chat folder. */
  readonly hidden?: readonly string[];
  /** Give up on a page after this long (ms, default 30 s). */
  readonly fetchTimeoutMs?: number;
  /** The setting that lets the agent fetch local addresses (default: never). */
  readonly allowLocalAddresses?: () => boolean;
  /** Node's dns, http(s) and zlib for the agent's guarded fetch; default desktopNodeNet() (null on mobile: requestUrl). */
  readonly nodeNet?: () => NodeNet | null;
  /** The requestUrl path a guarded fetch falls back to on a network failure; default fetchPage (tests watch it). */
  readonly requestUrlFetch?: (url: string, signal: AbortSignal, timeoutMs: number) => Promise<FetchedPage>;
}

/**
 * Node's dns, http, https and zlib where Obsidian runs on Electron (the desktop app), else null (mobile:
 * no Node). Read at run time: the plugin bundle imports no Node module.
 */
export function desktopNodeNet(): NodeNet | null {
  if (!Platform.isDesktopApp) return null;
  // Electron's window.require (Node integration); the app sets it, a browser does not.
  const load = typeof window === 'undefined' ? undefined : (window as { require?: unknown }).require;
  if (typeof load !== 'function') return null;
  try {
    const need = load as (id: string) => unknown;
    return { dns: need('dns'), http: need('http'), https: need('https'), zlib: need('zlib') } as NodeNet;
  } catch {
    return null;
  }
}

/**
 * The agent's tool host in Obsidian: the vault through ObsidianVaultReader, the open note from the
 * workspace, backlinks from the metadata cache's resolved links, web pages through requestUrl
 * (no CORS limits) and Obsidian's own htmlToMarkdown.
 */
export function obsidianToolHost(app: App, options: ObsidianToolHostOptions): ToolHost {
  const timeoutMs = options.fetchTimeoutMs ?? 30_000;
  const allowLocal = options.allowLocalAddresses ?? (() => false);
  let net: NodeNet | null | undefined;
  const nodeNet = () => (net === undefined ? (net = (options.nodeNet ?? desktopNodeNet)()) : net);
  const viaRequestUrl = options.requestUrlFetch ?? fetchPage;
  return {
    vault: options.vault ?? new ObsidianVaultReader(app),
    search: options.search,
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
    ...(options.hidden !== undefined ? { hidden: options.hidden } : {}),
    activeNote: () => {
      const file = app.workspace.getActiveFile();
      return Promise.resolve(file && file.extension === 'md' ? file.path : null);
    },
    backlinks: (path) => Promise.resolve(backlinksOf(app, path)),
    // On desktop the agent's fetches go through Node with every name and hop checked (guardedFetch).
    // On mobile requestUrl resolves names and follows redirects out of sight: only the host as
    // written can be refused there (the README's Network use says so).
    fetchUrl: async (url, signal) => {
      const node = nodeNet();
      if (node) {
        let raw;
        try {
          raw = await guardedGet(node, url, signal, timeoutMs, allowLocal);
        } catch (error) {
          // Node's networking skips the system proxy, resolver and certificate store that
          // requestUrl (Chromium) uses: behind a corporate proxy or a company root certificate the
          // guarded GET fails where requestUrl works. On such a network failure only (the name did
          // not resolve, every checked address refused, reset or did not connect, an untrusted
          // certificate; never a refused local address, a stop, the timeout or an HTTP error) the
          // failed hop is fetched with requestUrl, as on mobile: its address as written was checked,
          // and the addresses Node resolved it to, if any; requestUrl resolves it again and follows
          // redirects out of sight. The tool's result says nothing of it (README, Network use).
          if (!(error instanceof NodeNetworkError) || signal.aborted) throw error;
          return viaRequestUrl(error.url, signal, timeoutMs);
        }
        return pageOf(raw.url, raw.status, raw.contentType, raw.body);
      }
      if (!allowLocal()) assertPublicUrl(new URL(url));
      return fetchPage(url, signal, timeoutMs);
    },
    allowLocalAddresses: allowLocal,
  };
}

/** Every note whose resolved links include path, sorted by code point. */
export function backlinksOf(app: App, path: string): string[] {
  const resolved = app.metadataCache.resolvedLinks;
  const sources: string[] = [];
  for (const source of Object.keys(resolved)) {
    if ((resolved[source]?.[path] ?? 0) > 0) sources.push(source);
  }
  return sources.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/**
 * GET an http(s) page with requestUrl (no CORS limits) and convert it to markdown with Obsidian's
 * htmlToMarkdown: the agent's fetchUrl tool and a URL attached with `@` in the composer. An HTTP
 * error comes back as its status; a network error, a timeout, a body over FETCH_MAX_BYTES or one
 * that is not HTML or text throws.
 */
export async function fetchPage(url: string, signal: AbortSignal, timeoutMs = 30_000): Promise<FetchedPage> {
  // requestUrl cannot be cancelled: a stop or a timeout stops waiting for it.
  const timeout = AbortSignal.timeout(timeoutMs);
  let onStop: (() => void) | undefined;
  let onTimeout: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onStop = () => reject(new DOMException('The reply was stopped.', 'AbortError'));
    onTimeout = () => reject(pageTimeout(timeoutMs));
    if (signal.aborted) onStop();
    signal.addEventListener('abort', onStop, { once: true });
    timeout.addEventListener('abort', onTimeout, { once: true });
  });
  try {
    const request = requestUrl({ url, method: 'GET', throw: false, headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5' } });
    request.catch(() => undefined); // Still failing after a stop: nobody waits for it any more.
    const res = await Promise.race([request, stopped]);
    if (res.status >= 400) return { url, markdown: '', status: res.status };
    const contentType = header(res.headers, 'content-type');
    // requestUrl has already downloaded the body (it cannot stream or be cancelled): a declared
    // length over the limit is refused before the body is read or decoded.
    const declared = Number(header(res.headers, 'content-length') ?? '0');
    if (declared > FETCH_MAX_BYTES) throw pageTooLarge(declared);
    const bytes = new Uint8Array(res.arrayBuffer);
    if (bytes.length > FETCH_MAX_BYTES) throw pageTooLarge(bytes.length);
    return pageOf(url, res.status, contentType, bytes);
  } finally {
    if (onStop) signal.removeEventListener('abort', onStop);
    if (onTimeout) timeout.removeEventListener('abort', onTimeout);
  }
}

/** A fetched body as the tool's page: an HTTP error as its status, text as it is, HTML through Obsidian's htmlToMarkdown. */
function pageOf(url: string, status: number, contentType: string | null, bytes: Uint8Array): FetchedPage {
  if (status >= 400) return { url, markdown: '', status };
  const body = decodePage(bytes, contentType);
  const kind = pageKind(contentType, body);
  if (kind === null) throw unsupportedContent(contentType);
  if (kind === 'text') return { url, markdown: tidyMarkdown(body), status };
  const title = htmlTitle(body);
  return { url, ...(title !== undefined ? { title } : {}), markdown: tidyMarkdown(htmlToMarkdown(cleanHtml(body, url))), status };
}

/** A response header by name, whatever its case (Obsidian's headers are not normalized on every platform). */
function header(headers: Record<string, string>, name: string): string | null {
  for (const key of Object.keys(headers)) if (key.toLowerCase() === name) return headers[key];
  return null;
}

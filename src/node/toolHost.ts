import { lookup } from 'node:dns/promises';
import TurndownService from 'turndown';
import type { FetchedPage, ToolHost } from '../core/ports/toolHost';
import type { VaultReader } from '../core/ports/vault';
import type { VaultSearch } from '../core/search/types';
import { UnreadableNoteError } from '../core/context/vaultReader';
import { backlinkMap } from '../core/agent/links';
import { messageOf } from '../core/agent/tool';
import { cleanHtml, decodePage, FETCH_MAX_BYTES, htmlTitle, MAX_REDIRECTS, pageKind, pageTimeout, pageTooLarge, REDIRECT_STATUSES, redirectTarget, tidyMarkdown, unsupportedContent } from '../core/agent/webPage';
import { assertPublicAddresses, assertPublicUrl, hostOf } from '../core/net/localAddress';

export interface FsToolHostOptions {
  readonly vault: VaultReader;
  /** The search, or a getter (null while it is being built). */
  readonly search: VaultSearch | null | (() => VaultSearch | null);
  readonly scope?: string;
  readonly hidden?: readonly string[];
  /** The note "open in the editor": a path, or a getter; absent: the host cannot tell. */
  readonly activeNote?: string | null | (() => Promise<string | null>);
  /** The fetch to use (tests inject one); default the global fetch. */
  readonly fetch?: typeof fetch;
  /** Give up on a page after this long (ms, default 30 s). */
  readonly fetchTimeoutMs?: number;
  /** Let the agent fetch local addresses (the setting; default false). */
  readonly allowLocalAddresses?: boolean | (() => boolean);
  /** Every address a host name resolves to (tests inject one); default dns.lookup with all: true. */
  readonly resolveHost?: (hostname: string) => Promise<readonly string[]>;
}

/** Redirects followed (each hop checked) before a fetch gives up (shared with the Obsidian host's guarded fetch). */
export { MAX_REDIRECTS };

async function lookupAll(hostname: string): Promise<readonly string[]> {
  return (await lookup(hostname, { all: true, verbatim: true })).map((a) => a.address);
}

/**
 * The agent's tool host for Node (tests, scripts, the benchmark): the vault on disk, backlinks from
 * scanning every note's links (resolved like Obsidian), web pages through fetch and turndown.
 */
export function fsToolHost(options: FsToolHostOptions): ToolHost {
  const { vault } = options;
  const links = new BacklinkCache(vault);
  const search = options.search;
  const active = options.activeNote;
  const fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = options.fetchTimeoutMs ?? 30_000;
  const allow = options.allowLocalAddresses ?? false;
  const allowLocal = () => (typeof allow === 'function' ? allow() : allow);
  const policy: FetchPolicy = { allowLocal, resolve: options.resolveHost ?? lookupAll };
  return {
    vault,
    search: () => (typeof search === 'function' ? search() : search),
    ...(options.scope !== undefined ? { scope: options.scope } : {}),
    ...(options.hidden !== undefined ? { hidden: options.hidden } : {}),
    ...(active !== undefined ? { activeNote: () => (typeof active === 'function' ? active() : Promise.resolve(active)) } : {}),
    backlinks: (path) => links.of(path),
    fetchUrl: (url, signal) => fetchPage(fetchImpl, url, signal, timeoutMs, policy),
    allowLocalAddresses: allowLocal,
  };
}

/**
 * Backlinks of every note, computed in one pass over the vault and kept while the vault is unchanged
 * (same listing, same modification times when the reader has stat; else for the host's lifetime).
 */
class BacklinkCache {
  private key: string | null = null;
  private map: Promise<Map<string, string[]>> | null = null;

  constructor(private readonly vault: VaultReader) {}

  async of(path: string): Promise<string[]> {
    const notes = await this.vault.listMarkdown();
    const key = await this.signature(notes);
    if (this.map === null || key !== this.key) {
      this.key = key;
      this.map = this.build(notes);
      this.map.catch(() => (this.map = null));
    }
    return [...((await this.map).get(path) ?? [])];
  }

  private async signature(notes: readonly string[]): Promise<string> {
    if (!this.vault.stat) return notes.join('\n');
    const parts: string[] = [];
    for (const path of notes) {
      const stat = await this.vault.stat(path);
      parts.push(`${path}\u0000${stat?.mtime ?? ''}\u0000${stat?.size ?? ''}`);
    }
    return parts.join('\n');
  }

  private async build(notes: readonly string[]): Promise<Map<string, string[]>> {
    const texts = new Map<string, string>();
    for (const path of notes) {
      try {
        texts.set(path, (await this.vault.read(path)) ?? '');
      } catch (error) {
        if (!(error instanceof UnreadableNoteError)) throw error;
        texts.set(path, ''); // Binary or too large: it links nowhere we can read.
      }
    }
    return backlinkMap(texts);
  }
}

let turndown: TurndownService | null = null;

/** HTML → markdown with turndown (it parses with domino in Node: no DOM needed). */
export function htmlToMarkdownNode(html: string, baseUrl: string): string {
  turndown ??= new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-', emDelimiter: '*' });
  return tidyMarkdown(turndown.turndown(cleanHtml(html, baseUrl)));
}

interface FetchPolicy {
  readonly allowLocal: () => boolean;
  readonly resolve: (hostname: string) => Promise<readonly string[]>;
}

/**
 * Refuse a local address (issue 26): the host as written (every spelling the URL parser folds), then
 * every address its name resolves to. A name that does not resolve is left to fetch to report.
 */
async function checkHop(url: URL, policy: FetchPolicy): Promise<void> {
  if (policy.allowLocal()) return;
  assertPublicUrl(url);
  const { host, literal } = hostOf(url);
  if (literal) return;
  let addresses: readonly string[];
  try {
    addresses = await policy.resolve(host);
  } catch {
    return;
  }
  assertPublicAddresses(url, addresses);
}

async function fetchPage(fetchImpl: typeof fetch, url: string, signal: AbortSignal, timeoutMs: number, policy: FetchPolicy): Promise<FetchedPage> {
  const timeout = AbortSignal.timeout(timeoutMs);
  let res: Response | undefined;
  let current = new URL(url);
  // Redirects are followed here, not by fetch, so that every hop is checked before it is requested.
  for (let hop = 0; ; hop++) {
    await checkHop(current, policy);
    try {
      res = await fetchImpl(current.href, {
        signal: AbortSignal.any([signal, timeout]),
        redirect: 'manual',
        headers: { accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5', 'user-agent': 'Mozilla/5.0 (compatible; Strata)' },
      });
    } catch (error) {
      if (signal.aborted) throw error;
      if (timeout.aborted) throw pageTimeout(timeoutMs);
      throw new Error(networkMessage(error));
    }
    const location = REDIRECT_STATUSES.has(res.status) ? res.headers.get('location') : null;
    if (location === null) break;
    await res.body?.cancel().catch(() => undefined);
    current = redirectTarget(location, current, hop);
  }
  url = current.href;
  const finalUrl = url; // The last hop: redirects were followed above.
  if (res.status >= 400) {
    await res.body?.cancel().catch(() => undefined);
    return { url: finalUrl, markdown: '', status: res.status };
  }
  const contentType = res.headers.get('content-type');
  const length = Number(res.headers.get('content-length') ?? '0');
  if (length > FETCH_MAX_BYTES) {
    await res.body?.cancel().catch(() => undefined);
    throw pageTooLarge(length);
  }
  const body = decodePage(await readCapped(res, FETCH_MAX_BYTES), contentType);
  const kind = pageKind(contentType, body);
  if (kind === null) throw unsupportedContent(contentType);
  if (kind === 'text') return { url: finalUrl, markdown: tidyMarkdown(body), status: res.status };
  const title = htmlTitle(body);
  return { url: finalUrl, ...(title !== undefined ? { title } : {}), markdown: htmlToMarkdownNode(body, finalUrl), status: res.status };
}

/** The body's first `max` bytes (a page without a content-length can be endless). */
async function readCapped(res: Response, max: number): Promise<Uint8Array> {
  if (!res.body) return new Uint8Array(await res.arrayBuffer()).subarray(0, max);
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.length;
    if (size >= max) {
      await reader.cancel().catch(() => undefined);
      break;
    }
  }
  const out = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const chunk of chunks) {
    const part = chunk.subarray(0, out.length - at);
    out.set(part, at);
    at += part.length;
    if (at >= out.length) break;
  }
  return out;
}

/** fetch's "fetch failed" hides the reason in `cause` (ECONNREFUSED, ENOTFOUND…). Duck-typed: undici's errors may come from another realm. */
function networkMessage(error: unknown): string {
  const message = messageOf(error);
  const cause = typeof error === 'object' && error !== null ? (error as { cause?: unknown }).cause : undefined;
  if (typeof cause !== 'object' || cause === null) return message;
  const code = (cause as { code?: unknown }).code;
  return `${message} (${typeof code === 'string' ? `${code}: ` : ''}${messageOf(cause)})`;
}

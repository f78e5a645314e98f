import { FETCH_MAX_BYTES, PageError, pageTimeout, pageTooLarge, REDIRECT_STATUSES, redirectTarget } from '../core/agent/webPage';
import { assertPublicAddresses, assertPublicUrl, hostOf } from '../core/net/localAddress';

/**
 * The agent's GET on Obsidian desktop (issue 26, SSRF), over Node's own dns and http(s) modules,
 * which Electron exposes at run time. requestUrl resolves names and follows redirects out of the
 * plugin's sight; here every step is the plugin's: the name is resolved (all its addresses) and
 * refused when any is local, the connection goes to the addresses that were checked (the request's
 * `lookup` answers with them, so a second DNS answer can never swap in a local one: no rebinding
 * window), redirects are followed one hop at a time (at most MAX_REDIRECTS, http and https only),
 * each checked the same way, and the body is streamed: reading stops past FETCH_MAX_BYTES, and a
 * stop or the timeout destroys the request. The modules are passed in (the plugin imports no Node
 * module; tests pass the real ones), typed here by the little this file uses.
 */

export interface LookupAddress {
  readonly address: string;
  readonly family: number;
}

/** The part of Node's `dns` used: lookup with all: true. */
export interface DnsLike {
  lookup(hostname: string, options: { all: true; verbatim: boolean }, callback: (error: Error | null, addresses: LookupAddress[]) => void): void;
}

/** The part of a Node ClientRequest used. */
export interface RequestLike {
  on(event: 'error', listener: (error: Error) => void): unknown;
  end(): unknown;
  destroy(error?: Error): unknown;
}

/** The part of a Node IncomingMessage used. */
export interface ResponseLike {
  readonly statusCode?: number;
  readonly headers: Record<string, string | string[] | undefined>;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
  destroy(error?: Error): unknown;
}

/** Node's lookup callback: one address, or all of them when the options ask for all. */
type LookupCallback = (error: Error | null, address: string | LookupAddress[], family?: number) => void;

export interface RequestOptionsLike {
  protocol: string;
  hostname: string;
  port: string;
  path: string;
  method: 'GET';
  headers: Record<string, string>;
  agent: false;
  lookup?: (hostname: string, options: { all?: boolean }, callback: LookupCallback) => void;
}

/** The part of Node's `http` and `https` used. */
export interface HttpLike {
  request(options: RequestOptionsLike, callback: (response: ResponseLike) => void): RequestLike;
}

/** Node's modules the guarded fetch runs on (Electron: `window.require('dns')`, …). */
export interface NodeNet {
  readonly dns: DnsLike;
  readonly http: HttpLike;
  readonly https: HttpLike;
}

/** What came back: the last hop's address, status, content type and body (at most FETCH_MAX_BYTES; empty for an HTTP error). */
export interface RawPage {
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly body: Uint8Array;
}

const HEADERS = {
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
  'user-agent': 'Mozilla/5.0 (compatible; Strata)',
  // Node's http does not decompress: ask for the page as it is.
  'accept-encoding': 'identity',
};

/**
 * GET `url` with every hop checked (unless allowLocal says local addresses are allowed). Refusals
 * throw LocalAddressError; too many redirects or a redirect off http(s), PageError; the timeout,
 * pageTimeout; a stop, an AbortError; a network failure, its message.
 */
export async function guardedGet(net: NodeNet, url: string, signal: AbortSignal, timeoutMs: number, allowLocal: () => boolean): Promise<RawPage> {
  const timeout = AbortSignal.timeout(timeoutMs);
  const stop = AbortSignal.any([signal, timeout]);
  const stopError = (): Error => (signal.aborted ? new DOMException('The reply was stopped.', 'AbortError') : pageTimeout(timeoutMs));
  let current = new URL(url);
  for (let hop = 0; ; hop++) {
    if (current.protocol !== 'http:' && current.protocol !== 'https:') throw new Error(`only http and https addresses can be fetched (not ${current.protocol})`);
    const allowed = allowLocal();
    if (!allowed) assertPublicUrl(current);
    const { host, literal } = hostOf(current);
    let pinned: LookupAddress[] | null = null;
    if (!literal) {
      pinned = await untilStopped(resolveAll(net.dns, host), stop, stopError);
      if (!allowed) assertPublicAddresses(current, pinned.map((a) => a.address));
    }
    const answer = await requestOnce(net, current, host, pinned, stop, stopError);
    if (answer.location === null) return { url: current.href, status: answer.status, contentType: answer.contentType, body: answer.body };
    current = redirectTarget(answer.location, current, hop);
  }
}

function resolveAll(dns: DnsLike, host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dns.lookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(new Error(error.message));
      else if (addresses.length === 0) reject(new Error(`${host} has no address`));
      else resolve(addresses);
    });
  });
}

/** A lookup cannot be cancelled: a stop stops waiting for it. */
function untilStopped<T>(work: Promise<T>, stop: AbortSignal, stopError: () => Error): Promise<T> {
  if (stop.aborted) return Promise.reject(stopError());
  return new Promise<T>((resolve, reject) => {
    const onStop = () => reject(stopError());
    stop.addEventListener('abort', onStop, { once: true });
    work.then(resolve, reject).finally(() => stop.removeEventListener('abort', onStop));
  });
}

interface Answer {
  readonly status: number;
  readonly contentType: string | null;
  readonly location: string | null;
  readonly body: Uint8Array;
}

function headerOf(headers: ResponseLike['headers'], name: string): string | null {
  const value = headers[name];
  return Array.isArray(value) ? (value[0] ?? null) : (value ?? null);
}

/** One GET, connected to the pinned addresses (null: an IP address, nothing to resolve). */
function requestOnce(net: NodeNet, url: URL, host: string, pinned: LookupAddress[] | null, stop: AbortSignal, stopError: () => Error): Promise<Answer> {
  if (stop.aborted) return Promise.reject(stopError());
  return new Promise<Answer>((resolve, reject) => {
    let settled = false;
    let request: RequestLike | null = null;
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      stop.removeEventListener('abort', onStop);
      outcome();
    };
    const onStop = () => {
      request?.destroy();
      finish(() => reject(stopError()));
    };
    stop.addEventListener('abort', onStop, { once: true });
    const lookup = pinned
      ? (_name: string, options: { all?: boolean }, callback: LookupCallback) => {
          // The addresses checked above, never a fresh answer.
          if (options.all) callback(null, pinned);
          else callback(null, pinned[0].address, pinned[0].family);
        }
      : undefined;
    const client = url.protocol === 'https:' ? net.https : net.http;
    request = client.request(
      { protocol: url.protocol, hostname: host, port: url.port, path: `${url.pathname}${url.search}`, method: 'GET', headers: HEADERS, agent: false, ...(lookup ? { lookup } : {}) },
      (res) => {
        const status = res.statusCode ?? 0;
        const contentType = headerOf(res.headers, 'content-type');
        const location = REDIRECT_STATUSES.has(status) ? headerOf(res.headers, 'location') : null;
        const done = (answer: Answer) => {
          res.destroy();
          request?.destroy();
          finish(() => resolve(answer));
        };
        if (location !== null || status >= 400) return done({ status, contentType, location, body: new Uint8Array(0) });
        const encoding = (headerOf(res.headers, 'content-encoding') ?? 'identity').trim().toLowerCase();
        if (encoding !== 'identity' && encoding !== '') {
          // Asked for identity but sent compressed anyway: say so rather than decode noise.
          res.destroy();
          request?.destroy();
          return finish(() => reject(new PageError(`the server sent the page compressed (${encoding}) though it was asked not to`, `Compressed (${encoding})`)));
        }
        const declared = Number(headerOf(res.headers, 'content-length') ?? '0');
        if (declared > FETCH_MAX_BYTES) {
          res.destroy();
          request?.destroy();
          return finish(() => reject(pageTooLarge(declared)));
        }
        const chunks: Uint8Array[] = [];
        let size = 0;
        const body = () => joinCapped(chunks, Math.min(size, FETCH_MAX_BYTES));
        res.on('data', (chunk) => {
          if (settled) return;
          chunks.push(chunk);
          size += chunk.length;
          // Past the cap nothing more is read: the first FETCH_MAX_BYTES are the page.
          if (size >= FETCH_MAX_BYTES) done({ status, contentType, location: null, body: body() });
        });
        res.on('end', () => done({ status, contentType, location: null, body: body() }));
        res.on('error', (error) => finish(() => reject(stop.aborted ? stopError() : new Error(error.message))));
        res.on('close', () => finish(() => reject(new Error('the connection closed before the page was read'))));
      },
    );
    request.on('error', (error) => finish(() => reject(stop.aborted ? stopError() : new Error(error.message))));
    request.end();
  });
}

function joinCapped(chunks: readonly Uint8Array[], length: number): Uint8Array {
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    if (at >= length) break;
    const part = chunk.subarray(0, length - at);
    out.set(part, at);
    at += part.length;
  }
  return out;
}

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
 * stop or the timeout destroys the request. A page sent compressed (gzip, deflate, br) is
 * decompressed as it streams, the cap counting the decompressed bytes (a zip bomb stops there) and
 * the compressed read bounded by the same cap. The modules are passed in (the plugin imports no
 * Node module; tests pass the real ones), typed here by the little this file uses.
 */

export interface LookupAddress {
  readonly address: string;
  readonly family: number;
}

/** The part of Node's `dns` used: lookup with all: true. */
export interface DnsLike {
  lookup(hostname: string, options: { all: true; verbatim: boolean }, callback: (error: Error | null, addresses: LookupAddress[]) => void): void;
}

/** The part of a Node socket used: when it has connected. */
export interface SocketLike {
  readonly connecting: boolean;
  once(event: 'connect', listener: () => void): unknown;
}

/** The part of a Node ClientRequest used. */
export interface RequestLike {
  on(event: 'error', listener: (error: Error) => void): unknown;
  on(event: 'socket', listener: (socket: SocketLike) => void): unknown;
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

/** The part of a zlib decompression stream used. */
export interface DecompressorLike {
  write(chunk: Uint8Array): unknown;
  end(): unknown;
  destroy(): unknown;
  on(event: 'data', listener: (chunk: Uint8Array) => void): unknown;
  on(event: 'end', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error) => void): unknown;
}

/** The part of Node's `zlib` used. */
export interface ZlibLike {
  createGunzip(): DecompressorLike;
  createInflate(): DecompressorLike;
  createBrotliDecompress(): DecompressorLike;
}

/** Node's modules the guarded fetch runs on (Electron: `window.require('dns')`, …); without zlib pages are asked for uncompressed. */
export interface NodeNet {
  readonly dns: DnsLike;
  readonly http: HttpLike;
  readonly https: HttpLike;
  readonly zlib?: ZlibLike;
}

/**
 * A failure of Node's networking, not of the page: the name did not resolve, every checked address
 * refused, reset or did not connect, or the certificate was not trusted. Obsidian's requestUrl goes
 * through Chromium, which uses the system's proxy, resolver and certificate store where Node does
 * not, so the host may try it there (obsidian/toolHost.ts). `url` is the hop that failed (already
 * checked as written); `addresses`, what Node resolved it to and checked (null: it did not resolve).
 */
export class NodeNetworkError extends Error {
  constructor(
    message: string,
    readonly url: string,
    readonly code: string,
    readonly addresses: readonly string[] | null,
  ) {
    super(message);
    this.name = 'NodeNetworkError';
  }
}

/** Give up on connecting after this long (ms): a firewall that drops direct connections answers nothing. */
export const CONNECT_TIMEOUT_MS = 10_000;

/** What came back: the last hop's address, status, content type and body (at most FETCH_MAX_BYTES; empty for an HTTP error). */
export interface RawPage {
  readonly url: string;
  readonly status: number;
  readonly contentType: string | null;
  readonly body: Uint8Array;
}

const BASE_HEADERS = {
  accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
  'user-agent': 'Mozilla/5.0 (compatible; Strata)',
};

/** Node's http does not decompress: with zlib the encodings it reads are asked for, without it the page as it is. */
function headersFor(net: NodeNet): Record<string, string> {
  return { ...BASE_HEADERS, 'accept-encoding': net.zlib ? 'gzip, deflate, br' : 'identity' };
}

/** A decompression stream for a content-encoding, or null for one that cannot be read. */
function decompressorFor(zlib: ZlibLike, encoding: string): DecompressorLike | null {
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return null;
}

/** Connection failures worth trying again through requestUrl (every address, before any answer). */
const CONNECT_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'EPIPE', 'ECONNABORTED']);
/** Lookup failures the system resolver (requestUrl's) might not have. */
const LOOKUP_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ESERVFAIL', 'ENODATA', 'ETIMEOUT', 'ECONNREFUSED']);

/** An untrusted, expired or mismatched certificate: a company root in the OS store Node does not read. */
function tlsCode(code: string): boolean {
  return /CERT|SELF_SIGNED|UNABLE_TO_(?:GET|VERIFY)/.test(code);
}

/** The code of a connection error when every attempt failed that way (Node's happy eyeballs gives an AggregateError), else null. */
function connectFailure(error: Error): string | null {
  const code = (e: unknown) => ((e as { code?: unknown }).code ?? '') as string;
  // By shape, not instanceof: in Electron the error comes from Node's realm, not the window's.
  const errors = (error as { errors?: unknown }).errors;
  const parts = Array.isArray(errors) && errors.length > 0 ? (errors as unknown[]) : [error];
  const codes = parts.map(code);
  return codes.every((c) => CONNECT_CODES.has(c) || tlsCode(c)) ? codes[0] : null;
}

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
      pinned = await untilStopped(resolveAll(net.dns, current, host), stop, stopError);
      if (!allowed) assertPublicAddresses(current, pinned.map((a) => a.address));
    }
    const answer = await requestOnce(net, current, host, pinned, stop, stopError);
    if (answer.location === null) return { url: current.href, status: answer.status, contentType: answer.contentType, body: answer.body };
    current = redirectTarget(answer.location, current, hop);
  }
}

function resolveAll(dns: DnsLike, url: URL, host: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) => {
    dns.lookup(host, { all: true, verbatim: true }, (error, addresses) => {
      const code = error ? ((error as { code?: unknown }).code ?? '') : '';
      if (error) reject(typeof code === 'string' && LOOKUP_CODES.has(code) ? new NodeNetworkError(error.message, url.href, code, null) : new Error(error.message));
      else if (addresses.length === 0) reject(new NodeNetworkError(`${host} has no address`, url.href, 'ENODATA', null));
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
    let answered = false;
    let request: RequestLike | null = null;
    let decoder: DecompressorLike | null = null;
    let unwatchConnect = () => {};
    const finish = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      unwatchConnect();
      stop.removeEventListener('abort', onStop);
      outcome();
    };
    const onStop = () => {
      decoder?.destroy();
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
      { protocol: url.protocol, hostname: host, port: url.port, path: `${url.pathname}${url.search}`, method: 'GET', headers: headersFor(net), agent: false, ...(lookup ? { lookup } : {}) },
      (res) => {
        answered = true;
        unwatchConnect();
        const status = res.statusCode ?? 0;
        const contentType = headerOf(res.headers, 'content-type');
        const location = REDIRECT_STATUSES.has(status) ? headerOf(res.headers, 'location') : null;
        const close = () => {
          decoder?.destroy();
          res.destroy();
          request?.destroy();
        };
        const done = (answer: Answer) => {
          close();
          finish(() => resolve(answer));
        };
        const fail = (error: Error) => {
          close();
          finish(() => reject(error));
        };
        if (location !== null || status >= 400) return done({ status, contentType, location, body: new Uint8Array(0) });
        const encoding = (headerOf(res.headers, 'content-encoding') ?? 'identity').trim().toLowerCase();
        if (encoding !== 'identity' && encoding !== '') {
          decoder = net.zlib ? decompressorFor(net.zlib, encoding) : null;
          // Asked for identity (or for encodings this one is not): say so rather than decode noise.
          if (!decoder) {
            const why = net.zlib ? `in an encoding that cannot be read (${encoding})` : `compressed (${encoding}) though it was asked not to`;
            return fail(new PageError(`the server sent the page ${why}`, `Compressed (${encoding})`));
          }
        }
        const declared = Number(headerOf(res.headers, 'content-length') ?? '0');
        if (declared > FETCH_MAX_BYTES) return fail(pageTooLarge(declared));
        const chunks: Uint8Array[] = [];
        let size = 0;
        const body = () => joinCapped(chunks, Math.min(size, FETCH_MAX_BYTES));
        // The page's bytes (decompressed when it came compressed). Past the cap nothing more is
        // read or decompressed: the first FETCH_MAX_BYTES are the page.
        const take = (chunk: Uint8Array) => {
          if (settled) return;
          chunks.push(chunk);
          size += chunk.length;
          if (size >= FETCH_MAX_BYTES) done({ status, contentType, location: null, body: body() });
        };
        const networkError = (error: Error) => (stop.aborted ? stopError() : new Error(error.message));
        /** The response was read to its end, or cut on purpose (compressed read at the cap): its close is no failure. */
        let readAll = false;
        const inflate = decoder;
        if (inflate === null) {
          res.on('data', take);
          res.on('end', () => done({ status, contentType, location: null, body: body() }));
        } else {
          let compressed = 0;
          inflate.on('data', take);
          inflate.on('end', () => done({ status, contentType, location: null, body: body() }));
          inflate.on('error', (error) => {
            // Input cut at the cap ends mid-stream: what was decompressed is the page.
            if (readAll && compressed >= FETCH_MAX_BYTES) done({ status, contentType, location: null, body: body() });
            else fail(stop.aborted ? stopError() : new PageError(`the page could not be decompressed (${encoding}): ${error.message}`, `Unreadable ${encoding}`));
          });
          res.on('data', (chunk) => {
            if (settled || readAll) return;
            compressed += chunk.length;
            inflate.write(chunk);
            if (compressed >= FETCH_MAX_BYTES) {
              // The compressed read is bounded too: stop reading, decompress what came.
              readAll = true;
              res.destroy();
              request?.destroy();
              inflate.end();
            }
          });
          res.on('end', () => {
            readAll = true;
            inflate.end();
          });
        }
        res.on('error', (error) => fail(networkError(error)));
        res.on('close', () => {
          if (!readAll) fail(new Error('the connection closed before the page was read'));
        });
      },
    );
    request.on('socket', (socket) => {
      if (!socket.connecting) return;
      // Not connected in time on any checked address: a network failure (see NodeNetworkError), not the page's timeout.
      const limit = AbortSignal.timeout(CONNECT_TIMEOUT_MS);
      const onLimit = () => request?.destroy(Object.assign(new Error(`could not connect to ${url.host} within ${CONNECT_TIMEOUT_MS / 1000} s`), { code: 'ETIMEDOUT' }));
      limit.addEventListener('abort', onLimit, { once: true });
      unwatchConnect = () => limit.removeEventListener('abort', onLimit);
      socket.once('connect', unwatchConnect);
    });
    request.on('error', (error) => {
      if (stop.aborted) return finish(() => reject(stopError()));
      const code = answered ? null : connectFailure(error);
      finish(() => reject(code !== null ? new NodeNetworkError(error.message, url.href, code, pinned ? pinned.map((a) => a.address) : null) : new Error(error.message)));
    });
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

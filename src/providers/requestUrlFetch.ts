/**
 * Adapts a `requestUrl`-like function (Obsidian's requestUrl, which goes around the browser's CORS
 * rules but cannot stream or be cancelled) into a fetch-compatible function the OpenAI and
 * Anthropic SDKs accept. `obsidian` is not imported: the plugin injects requestUrl, tests inject
 * a function that does plain HTTP.
 */
import { untilAborted } from '../core/untilAborted';

export interface RequestUrlLikeParams {
  readonly url: string;
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string;
  readonly contentType?: string;
  readonly throw: false;
}

export interface RequestUrlLikeResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly text: string;
}

export type RequestUrlLike = (params: RequestUrlLikeParams) => Promise<RequestUrlLikeResponse>;

/** Headers the platform computes itself; setting them by hand makes Electron's net layer refuse. */
const PLATFORM_HEADERS = new Set(['content-length', 'host', 'connection', 'accept-encoding']);

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!headers) return out;
  new Headers(headers).forEach((value, name) => {
    if (!PLATFORM_HEADERS.has(name.toLowerCase())) out[name] = value;
  });
  return out;
}

async function bodyText(body: BodyInit | null | undefined): Promise<string | undefined> {
  if (body === undefined || body === null) return undefined;
  if (typeof body === 'string') return body;
  // Anything else (bytes, blobs, URLSearchParams): let Response do the decoding.
  return await new Response(body).text();
}

/** Statuses whose responses cannot carry a body (the Response constructor throws on one). */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

function abortError(signal: AbortSignal): Error {
  const reason: unknown = signal.reason;
  return reason instanceof Error ? reason : new DOMException('The operation was aborted.', 'AbortError');
}

/**
 * Obsidian's requestUrl promise also carries `json`, `text` and `arrayBuffer` promises that reject
 * with it. Unread, a failed request (the provider down) would leave them as unhandled rejections.
 */
function handleShortcuts(pending: Promise<unknown>): void {
  const shortcuts = pending as unknown as Record<string, unknown>;
  for (const key of ['json', 'text', 'arrayBuffer']) {
    const shortcut = shortcuts[key];
    if (shortcut instanceof Promise) shortcut.catch(() => undefined);
  }
}

/**
 * A fetch over `requestUrl`. The whole response arrives at once (no streaming). An abort rejects
 * at once, as fetch does; requestUrl itself cannot be cancelled, so the underlying request runs to
 * its end and its result is dropped.
 */
export function requestUrlFetch(requestUrl: RequestUrlLike): typeof fetch {
  const fetchLike = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const request = input instanceof Request ? input : undefined;
    const url = input instanceof Request ? input.url : input instanceof URL ? input.href : input;
    const method = (init?.method ?? request?.method ?? 'GET').toUpperCase();
    const headers = headerRecord(init?.headers ?? request?.headers);
    const signal = init?.signal ?? request?.signal ?? undefined;
    const body = init?.body !== undefined ? await bodyText(init.body) : request ? await request.text() : undefined;
    if (signal?.aborted) throw abortError(signal);

    const contentTypeKey = Object.keys(headers).find((k) => k.toLowerCase() === 'content-type');
    const params: RequestUrlLikeParams = {
      url,
      method,
      headers,
      throw: false,
      ...(body !== undefined && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
      ...(contentTypeKey !== undefined ? { contentType: headers[contentTypeKey] } : {}),
    };

    const pending = requestUrl(params);
    handleShortcuts(pending);
    const reply = await (signal ? untilAborted(pending, signal, () => abortError(signal)) : pending);

    const responseHeaders = new Headers();
    for (const [name, value] of Object.entries(reply.headers)) responseHeaders.set(name, value);
    const responseBody = NULL_BODY_STATUSES.has(reply.status) || method === 'HEAD' ? null : reply.text;
    return new Response(responseBody, { status: reply.status, headers: responseHeaders });
  };
  return fetchLike;
}

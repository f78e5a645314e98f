import { ProviderError, providerLabel, redactSecrets, type Description } from './errors';
import { parseRetryAfter } from './retry';
import type { ProviderKind } from '../core/ports/chatModel';

/** The stream ended (or broke) before the provider said the reply was complete. */
export class IncompleteStreamError extends Error {
  constructor(readonly receivedChars: number, cause?: unknown) {
    super('The stream ended before the reply was complete', cause === undefined ? undefined : { cause });
    this.name = 'IncompleteStreamError';
  }
}

/** What the attempt knew when it failed; decides between aborted, timeout and the rest. */
export interface FailureContext {
  readonly kind: ProviderKind;
  readonly providerId: string;
  /** The configured display name (ProviderConfig.name), what the messages call the provider. */
  readonly providerName?: string;
  readonly baseUrl?: string;
  readonly secrets: readonly (string | null | undefined)[];
  readonly now: () => number;
  readonly userAborted: boolean;
  readonly timedOut: boolean;
  /** Set when the timeout hit a stream that had started sending text (a stall): its limit. */
  readonly stalledMs?: number;
  readonly timeoutMs: number;
  /** The request resumed a provider session (previous_response_id). */
  readonly resumedSession: boolean;
}

type Obj = Record<string, unknown>;

function isObj(value: unknown): value is Obj {
  return typeof value === 'object' && value !== null;
}

/** The error and its causes, outermost first (bounded: cause chains can be cyclic). */
function chain(error: unknown): Obj[] {
  const out: Obj[] = [];
  let current: unknown = error;
  while (isObj(current) && out.length < 8 && !out.includes(current)) {
    out.push(current);
    current = current.cause;
  }
  return out;
}

function statusOf(errors: readonly Obj[]): number | undefined {
  for (const e of errors) {
    if (typeof e.status === 'number') return e.status;
    if (isObj(e.response) && typeof e.response.status === 'number') return e.response.status;
  }
  return undefined;
}

function headersOf(errors: readonly Obj[]): { get(name: string): string | null } | Record<string, string> | undefined {
  for (const e of errors) {
    const headers = e.headers ?? (isObj(e.response) ? e.response.headers : undefined);
    if (isObj(headers)) return headers as { get(name: string): string | null } | Record<string, string>;
  }
  return undefined;
}

/** Google's RetryInfo retryDelay ("30s") among the error details the Gemini SDK keeps, in ms. */
function retryInfoMs(errors: readonly Obj[]): number | undefined {
  for (const e of errors) {
    if (!Array.isArray(e.errorDetails)) continue;
    for (const detail of e.errorDetails as unknown[]) {
      const delay = isObj(detail) && String(detail['@type']).endsWith('RetryInfo') ? detail.retryDelay : undefined;
      const match = typeof delay === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(delay) : null;
      if (match) return Math.round(Number(match[1]) * 1000);
    }
  }
  return undefined;
}

/** The provider's error type/code ("insufficient_quota", "overloaded_error", ...). */
function codesOf(errors: readonly Obj[]): string[] {
  const codes: string[] = [];
  for (const e of errors) {
    for (const source of [e, isObj(e.error) ? e.error : undefined, isObj(e.error) && isObj(e.error.error) ? e.error.error : undefined]) {
      if (!source) continue;
      if (typeof source.code === 'string') codes.push(source.code);
      if (typeof source.type === 'string') codes.push(source.type);
    }
  }
  return codes;
}

/** The provider's own error message from the parsed body the SDKs keep (OpenAI, Anthropic shapes). */
function bodyMessage(error: unknown): string | undefined {
  for (const e of chain(error)) {
    const body = e.error;
    if (!isObj(body)) continue;
    if (typeof body.message === 'string') return body.message;
    if (isObj(body.error) && typeof body.error.message === 'string') return body.error.message;
  }
  return undefined;
}

function messageOf(error: unknown): string {
  const raw = bodyMessage(error) ?? (error instanceof Error ? error.message : typeof error === 'string' ? error : '');
  // LangChain appends a troubleshooting link; the provider's own words come first.
  const first = raw.split('\n\nTroubleshooting URL')[0].trim();
  return first.length > 300 ? `${first.slice(0, 300)}…` : first;
}

/**
 * True when the error is the provider speaking (an HTTP status, or an error event with a type such
 * as overloaded_error), as opposed to the transport failing.
 */
export function isProviderReported(error: unknown): boolean {
  const errors = chain(error);
  return statusOf(errors) !== undefined || codesOf(errors).some((c) => /error|rate_limit|overloaded/.test(c));
}

/** "Connection error.: fetch failed: connect ECONNREFUSED ...": the SDK's words and the causes under them. */
function withCauses(errors: readonly Obj[]): string {
  const parts: string[] = [];
  for (const e of errors) {
    const text = messageOf(e);
    if (text && !parts.includes(text)) parts.push(text);
  }
  const joined = parts.join(': ');
  return joined.length > 300 ? `${joined.slice(0, 300)}…` : joined;
}

/** True for the TypeError a browser raises when CORS (or the network) blocks fetch. */
export function isFetchBlocked(error: unknown): boolean {
  return chain(error).some(
    (e) => e instanceof TypeError && /failed to fetch|networkerror|load failed|fetch failed|cors/i.test(String(e.message)),
  );
}

function isConnectionError(errors: readonly Obj[]): boolean {
  return errors.some((e) => {
    const name = typeof e.name === 'string' ? e.name : '';
    const code = typeof e.code === 'string' ? e.code : '';
    return (
      e instanceof TypeError ||
      /APIConnectionError|FetchError/.test(name) ||
      /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|UND_ERR|EPIPE|ETIMEDOUT/.test(code) ||
      /Connection error|socket hang up|terminated|other side closed/i.test(String(e.message))
    );
  });
}

function isTimeoutError(errors: readonly Obj[]): boolean {
  return errors.some((e) => e.name === 'TimeoutError' || e.constructor?.name === 'APIConnectionTimeoutError');
}

/** Turns anything an attempt threw into a ProviderError (attempts = 1; see finalizeError). */
export function classifyError(error: unknown, ctx: FailureContext): ProviderError {
  if (error instanceof ProviderError) return error;
  return buildError(describe(error, ctx), ctx, 1);
}

function describe(error: unknown, ctx: FailureContext): Description {
  if (ctx.userAborted) return { kind: 'aborted' };
  const errors = chain(error);
  if (ctx.timedOut && ctx.stalledMs !== undefined) return { kind: 'timeout', reason: 'stalled', stalledMs: ctx.stalledMs };
  if (ctx.timedOut || isTimeoutError(errors)) return { kind: 'timeout' };
  const detail = messageOf(error);
  const status = statusOf(errors);
  const codes = codesOf(errors);
  if (status === undefined) {
    // Retrying is safe only while nothing reached the user; withRetries' mayRetry checks that.
    if (error instanceof IncompleteStreamError) return { kind: 'network', reason: 'stream-cut', retryable: true, detail: messageOf(error.cause) };
    // Errors sent inside a stream (SSE "error" events) carry no HTTP status, only a type.
    if (codes.some((c) => /overloaded|api_error|server_error/.test(c))) return { kind: 'server', detail };
    if (codes.some((c) => /rate_limit/.test(c))) return { kind: 'rate-limited', detail };
    if (isConnectionError(errors)) return { kind: 'network', detail: withCauses(errors) };
    return { kind: 'bad-request', detail };
  }
  if (status === 401 || status === 403) return { kind: 'auth', status, detail };
  if (status === 429) {
    // Gemini names its wait in the body (RetryInfo), and its per-minute limits speak of "quota" too.
    const retryInfo = retryInfoMs(errors);
    if (retryInfo !== undefined) return { kind: 'rate-limited', status, detail, retryAfterMs: retryInfo };
    if (codes.includes('insufficient_quota') || /quota|billing|credit balance/i.test(detail)) {
      return { kind: 'rate-limited', status, detail, retryable: false, reason: 'quota' };
    }
    return { kind: 'rate-limited', status, detail, retryAfterMs: parseRetryAfter(headersOf(errors), ctx.now) };
  }
  if (status === 408) return { kind: 'timeout', status };
  if (status >= 500) return { kind: 'server', status, detail, retryAfterMs: parseRetryAfter(headersOf(errors), ctx.now) };
  if (ctx.resumedSession && (status === 404 || status === 400) && /previous[_ ]response|not found/i.test(detail)) {
    return { kind: 'bad-request', status, detail, sessionInvalid: true };
  }
  if (/context[_ ]length|too long|context window|maximum context/i.test(detail) || status === 413) {
    return { kind: 'bad-request', status, detail, reason: 'context-overflow' };
  }
  if (status === 404) return { kind: 'bad-request', status, detail, reason: 'not-found' };
  return { kind: 'bad-request', status, detail };
}

function plural(n: number): string {
  return n === 1 ? 'once' : n === 2 ? 'twice' : n === 3 ? 'three times' : `${n} times`;
}

function seconds(ms: number): string {
  const s = ms / 1000;
  return Number.isInteger(s) ? `${s} s` : `${s.toFixed(1)} s`;
}

function hostOf(baseUrl: string | undefined): string {
  if (!baseUrl) return 'its default address';
  try {
    return new URL(baseUrl).host;
  } catch {
    return baseUrl;
  }
}

/** Message and advice for a failure after `attempts` attempts. */
function words(d: Description, ctx: FailureContext, attempts: number): { message: string; advice: string } {
  const who = providerLabel(ctx.kind, ctx.providerId, ctx.providerName);
  const detail = d.detail ? ` (${d.detail})` : '';
  switch (d.kind) {
    case 'aborted':
      return { message: `The request to ${who} was stopped.`, advice: 'Send again when ready; your message is kept.' };
    case 'timeout': {
      if (d.reason === 'stalled') {
        const advice = 'Retry to ask again.';
        return { message: `${who} stopped sending for ${seconds(d.stalledMs ?? ctx.timeoutMs)}; what arrived is kept. ${advice}`, advice };
      }
      const advice = 'Check the connection and the endpoint, or try again later.';
      const status = d.status ? `returned ${d.status} (request timeout)` : `did not answer within ${seconds(ctx.timeoutMs)}`;
      return { message: `${who} ${status}${attempts > 1 ? ` ${plural(attempts)}` : ''}; ${advice.toLowerCase()}`, advice };
    }
    case 'rate-limited': {
      if (d.reason === 'quota') {
        const advice = 'Your quota or credit is used up: check your plan and billing.';
        return { message: `${who} returned 429 (quota exhausted)${detail}. ${advice}`, advice };
      }
      if (d.retryAfterMs !== undefined && d.reason === 'wait-too-long') {
        const advice = `Wait ${seconds(d.retryAfterMs)} before trying again, or check your plan.`;
        return { message: `${who} returned 429 (rate limited) and asked to wait ${seconds(d.retryAfterMs)}. ${advice}`, advice };
      }
      const advice = 'Wait a minute or check your plan and rate limits.';
      const status = d.status ?? 429;
      return { message: `${who} returned ${status} (rate limited) ${plural(attempts)}; wait a minute or check your plan and rate limits.`, advice };
    }
    case 'server': {
      const advice = 'The service may be overloaded or down: try again in a few minutes.';
      const status = d.status ? `returned ${d.status} (server error)` : 'reported a server error';
      return { message: `${who} ${status} ${plural(attempts)}${detail}; the service may be overloaded or down: try again in a few minutes.`, advice };
    }
    case 'auth': {
      if (d.reason === 'no-key') {
        const advice = 'Add the API key in Strata settings.';
        return { message: `No API key is set for ${who}. ${advice}`, advice };
      }
      const advice = 'Check the API key in Strata settings.';
      return { message: `${who} rejected the API key (${d.status ?? 'auth'})${detail}. ${advice}`, advice };
    }
    case 'network': {
      if (d.reason === 'stream-cut') {
        const advice = 'Try again; your message is kept.';
        return { message: `The connection to ${who} dropped before the reply was complete; what arrived is shown but not kept as an answer. ${advice}`, advice };
      }
      const advice = 'Check the base URL and that the server is running and reachable.';
      return { message: `Could not reach ${who} at ${hostOf(ctx.baseUrl)}${detail}. ${advice}`, advice };
    }
    case 'unsupported': {
      const advice = d.detail ?? 'Choose another provider.';
      return { message: `${who} is not available here. ${advice}`, advice };
    }
    case 'bad-request': {
      if (d.sessionInvalid) {
        const advice = 'The conversation will be sent in full next time.';
        return { message: `${who} no longer knows this conversation's session (${d.status}: ${d.detail ?? 'not found'}). ${advice}`, advice };
      }
      if (d.reason === 'context-overflow') {
        const advice = 'Condense the chat or remove context, or pick a model with a larger window.';
        return { message: `${who} says the request is too long for the model (${d.status ?? 'error'})${detail}. ${advice}`, advice };
      }
      if (d.reason === 'not-found') {
        const advice = 'Check the model name and the base URL (OpenAI-style endpoints usually end in /v1).';
        return { message: `${who} returned 404 (not found)${detail}. ${advice}`, advice };
      }
      const advice = 'Check the model name and provider settings; if it persists, report it.';
      const status = d.status ? `rejected the request (${d.status})` : 'failed';
      return { message: `${who} ${status}${detail}. ${advice}`, advice };
    }
  }
}

export function buildError(raw: Description, ctx: FailureContext, attempts: number): ProviderError {
  // The detail is the server's own words: it may echo a key, and it is kept on the error.
  const d: Description = raw.detail === undefined ? raw : { ...raw, detail: redactSecrets(raw.detail, ctx.secrets) };
  const { message, advice } = words(d, ctx, attempts);
  return new ProviderError({
    kind: d.kind,
    providerId: ctx.providerId,
    message: redactSecrets(message, ctx.secrets),
    advice,
    status: d.status,
    attempts,
    retryAfterMs: d.retryAfterMs,
    retryable: d.retryable,
    sessionInvalid: d.sessionInvalid,
    description: d,
  });
}

/** The final error after `attempts` attempts (the wording counts them). */
export function finalizeError(error: ProviderError, ctx: FailureContext, attempts: number, maxRetryAfterMs: number): ProviderError {
  const d = error.description;
  if (!d) return error;
  const waitTooLong = d.kind === 'rate-limited' && d.retryAfterMs !== undefined && d.retryAfterMs > maxRetryAfterMs;
  return buildError(waitTooLong ? { ...d, reason: 'wait-too-long' } : d, ctx, attempts);
}

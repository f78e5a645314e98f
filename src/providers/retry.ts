import { ProviderError } from './errors';
import type { Sleep } from '../core/timers';
import type { RetryNotice, RetryReason } from '../core/ports/chatModel';

/**
 * The one retry policy for provider calls (LangChain's and the SDKs' own retries are turned off,
 * so a failing call is never retried by two layers at once).
 */
export interface RetryPolicy {
  /** Total attempts, the first included. */
  readonly attempts: number;
  /** Delay before the second attempt; doubles after each failure. */
  readonly baseDelayMs: number;
  /** Upper bound of the exponential delay. */
  readonly maxDelayMs: number;
  /**
   * The longest `retry-after` honoured. A server asking for more gets no retry: the user is told
   * to come back later instead of watching a spinner for minutes.
   */
  readonly maxRetryAfterMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { attempts: 3, baseDelayMs: 500, maxDelayMs: 8_000, maxRetryAfterMs: 60_000 };

/** Exponential delay before attempt `nextAttempt` (2, 3, ...): base, 2×base, 4×base, ... capped. */
export function backoffDelayMs(nextAttempt: number, policy: RetryPolicy): number {
  const exponent = Math.max(0, nextAttempt - 2);
  return Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** exponent);
}

/**
 * Parses `retry-after` (delay in seconds, or an HTTP date) or OpenAI's `retry-after-ms`. Returns
 * milliseconds, or undefined when absent or unreadable.
 */
export function parseRetryAfter(
  headers: { get(name: string): string | null } | Readonly<Record<string, string | undefined>> | undefined,
  now: () => number,
): number | undefined {
  if (!headers) return undefined;
  const read = (name: string): string | undefined => {
    if (typeof (headers as { get?: unknown }).get === 'function') {
      return (headers as { get(name: string): string | null }).get(name) ?? undefined;
    }
    const record = headers as Readonly<Record<string, string | undefined>>;
    const key = Object.keys(record).find((k) => k.toLowerCase() === name);
    return key === undefined ? undefined : record[key];
  };
  const ms = read('retry-after-ms');
  if (ms !== undefined && ms.trim() !== '' && Number.isFinite(Number(ms)) && Number(ms) >= 0) return Number(ms);
  const value = read('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Math.round(Number(value) * 1000);
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now());
}

/** Worth another attempt: the same request may well succeed a moment later. */
export function isRetryable(error: ProviderError): boolean {
  return error.retryable;
}

export interface RetryOptions {
  readonly policy: RetryPolicy;
  readonly sleep: Sleep;
  readonly signal?: AbortSignal;
  /**
   * False once the caller can no longer retry transparently (e.g. tokens were already shown to the
   * user): the error is then final.
   */
  readonly mayRetry?: () => boolean;
  /** Turns the last error into the final one (the message states how many attempts were made). */
  readonly finalize: (error: ProviderError, attempts: number) => ProviderError;
  /** Told before each wait: the attempt that follows it (2, 3, ...), of how many, the wait, and why. */
  readonly onRetry?: (retry: PendingRetry) => void;
}

/** A retry about to happen after a wait. */
export interface PendingRetry {
  readonly attempt: number;
  readonly of: number;
  readonly delayMs: number;
  /** The failure that is being retried. */
  readonly error: ProviderError;
}

/**
 * Runs `attempt` until it succeeds, fails with a non-retryable error, or the policy runs out.
 * Waits `retry-after` when the server gave one (within the cap), otherwise the exponential delay.
 * `attempt` must throw ProviderError only (classify before rethrowing).
 */
export async function withRetries<T>(attempt: (n: number) => Promise<T>, options: RetryOptions): Promise<T> {
  const { policy } = options;
  for (let n = 1; ; n++) {
    try {
      return await attempt(n);
    } catch (error) {
      if (!(error instanceof ProviderError)) throw error;
      const canRetry = isRetryable(error) && n < policy.attempts && (options.mayRetry?.() ?? true);
      const tooLong = error.retryAfterMs !== undefined && error.retryAfterMs > policy.maxRetryAfterMs;
      if (!canRetry || tooLong) throw options.finalize(error, n);
      const delay = error.retryAfterMs ?? backoffDelayMs(n + 1, policy);
      options.onRetry?.({ attempt: n + 1, of: policy.attempts, delayMs: delay, error });
      // An abort during the wait rejects here; the caller turns it into an 'aborted' error.
      await options.sleep(delay, options.signal);
    }
  }
}

/** What the chat is told about a retry (the error's kind in the chat's words). */
export function retryNotice(retry: PendingRetry): RetryNotice {
  const reasons: Partial<Record<ProviderError['kind'], RetryReason>> = { 'rate-limited': 'rate-limited', server: 'server', timeout: 'timeout' };
  return {
    attempt: retry.attempt,
    of: retry.of,
    delayMs: retry.delayMs,
    reason: reasons[retry.error.kind] ?? 'network',
    serverAsked: retry.error.retryAfterMs !== undefined,
  };
}

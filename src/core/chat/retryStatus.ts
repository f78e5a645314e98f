import type { RetryNotice, RetryReason } from '../ports/chatModel';

const REASONS: Readonly<Record<RetryReason, string>> = {
  'rate-limited': 'Rate limited',
  server: 'Server error',
  timeout: 'No answer in time',
  network: 'Connection dropped',
};

/**
 * The status line of a request waiting to be retried: "Rate limited: retrying (2/3) in 20 s", and
 * "Rate limited: retrying (2/3)…" once the wait is over. The view counts the seconds down (the core
 * reads no clock): it passes what is left of the wait.
 */
export function retryStatusText(notice: RetryNotice, secondsLeft: number): string {
  const head = `${REASONS[notice.reason]}: retrying (${notice.attempt}/${notice.of})`;
  return secondsLeft > 0 ? `${head} in ${secondsLeft} s` : `${head}…`;
}

/** Whole seconds left until `endsAt` (rounded up, so "1 s" shows until the wait is over). */
export function secondsUntil(endsAt: number, now: number): number {
  return Math.max(0, Math.ceil((endsAt - now) / 1000));
}

/** The title of the status line: whose wait it is. */
export function retryWaitDetail(notice: RetryNotice): string {
  const seconds = Math.round(notice.delayMs / 100) / 10;
  return notice.serverAsked
    ? `The provider asked to wait ${seconds} s before trying again.`
    : `Strata waits ${seconds} s before trying again (longer after each failure).`;
}

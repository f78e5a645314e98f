import { ProviderError, redactSecrets } from '../../src/providers/errors';
import { backoffDelayMs, DEFAULT_RETRY_POLICY, parseRetryAfter, withRetries } from '../../src/providers/retry';
import { makeSleep } from '../../src/core/timers';

const NOW = Date.parse('2026-11-22T10:00:00Z');

describe('parseRetryAfter', () => {
  test('seconds, fractional seconds, HTTP date, and OpenAI retry-after-ms', () => {
    expect(parseRetryAfter(new Headers({ 'retry-after': '7' }), () => NOW)).toBe(7000);
    expect(parseRetryAfter(new Headers({ 'retry-after': '1.5' }), () => NOW)).toBe(1500);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 10:00:30 GMT' }), () => NOW)).toBe(30_000);
    expect(parseRetryAfter(new Headers({ 'retry-after': 'Sun, 22 Nov 2026 09:59:00 GMT' }), () => NOW)).toBe(0);
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '250', 'retry-after': '1' }), () => NOW)).toBe(250);
    expect(parseRetryAfter({ 'Retry-After': '3' }, () => NOW)).toBe(3000);
  });

  test('absent or unreadable: undefined', () => {
    expect(parseRetryAfter(undefined, () => NOW)).toBeUndefined();
    expect(parseRetryAfter(new Headers(), () => NOW)).toBeUndefined();
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), () => NOW)).toBeUndefined();
  });
});

describe('backoff', () => {
  test('doubles from the base and stops at the cap', () => {
    const policy = { ...DEFAULT_RETRY_POLICY, attempts: 10 };
    expect([2, 3, 4, 5, 6, 7, 8].map((n) => backoffDelayMs(n, policy))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
});

const error = (kind: ProviderError['kind'], extra: Partial<ConstructorParameters<typeof ProviderError>[0]> = {}): ProviderError =>
  new ProviderError({ kind, providerId: 'p', message: kind, advice: '', ...extra });

describe('withRetries', () => {
  const finalize = (e: ProviderError, attempts: number): ProviderError => error(e.kind, { message: `${e.kind} x${attempts}`, attempts });

  test('retryable kinds are retried up to the policy; others fail at once', async () => {
    for (const [kind, expectedAttempts] of [
      ['server', 3],
      ['rate-limited', 3],
      ['timeout', 3],
      ['auth', 1],
      ['bad-request', 1],
      ['network', 1],
    ] as const) {
      let attempts = 0;
      const waits: number[] = [];
      const outcome = await withRetries(
        () => {
          attempts++;
          return Promise.reject(error(kind));
        },
        { policy: DEFAULT_RETRY_POLICY, sleep: (ms) => (waits.push(ms), Promise.resolve()), finalize },
      ).catch((e: unknown) => e);
      expect(attempts).toBe(expectedAttempts);
      expect((outcome as ProviderError).message).toBe(`${kind} x${expectedAttempts}`);
      expect(waits).toHaveLength(expectedAttempts - 1);
    }
  });

  test('quota exhaustion (a 429 that will not heal) is not retried', async () => {
    let attempts = 0;
    await withRetries(
      () => {
        attempts++;
        return Promise.reject(error('rate-limited', { retryable: false }));
      },
      { policy: DEFAULT_RETRY_POLICY, sleep: () => Promise.resolve(), finalize },
    ).catch(() => undefined);
    expect(attempts).toBe(1);
  });

  test('mayRetry false (tokens already shown) makes the first failure final', async () => {
    let attempts = 0;
    await withRetries(
      () => {
        attempts++;
        return Promise.reject(error('server'));
      },
      { policy: DEFAULT_RETRY_POLICY, sleep: () => Promise.resolve(), mayRetry: () => false, finalize },
    ).catch(() => undefined);
    expect(attempts).toBe(1);
  });

  test('the default sleep rejects as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const waiting = makeSleep()(60_000, controller.signal);
    controller.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow('stop');
  });
});

describe('redactSecrets', () => {
  test('removes the given keys and anything shaped like one', () => {
    const text = 'Incorrect API key provided: sk-proj-abcdefghijklmnop. Header was Bearer abc.def-ghi_jkl; key my-custom-key-1234';
    const out = redactSecrets(text, ['my-custom-key-1234']);
    expect(out).not.toMatch(/sk-proj-abcdefghijklmnop|abc\.def-ghi_jkl|my-custom-key-1234/);
    expect(out).toContain('[redacted]');
    expect(redactSecrets('sk-ant-api03-XYZXYZXYZ')).toBe('[redacted]');
  });
});

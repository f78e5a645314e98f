import type { ProviderServer } from '../../testing/providerServer';
import { ProviderError } from '../../src/providers/errors';
import { createProvider } from '../../src/providers/createProvider';
import { makeSleep } from '../../src/core/timers';
import { API_KEY, NOTE_PATH, configFor, firstTurn, providerFor, recordingSleep } from './helpers';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

// Injected faults on the local server, through the real LangChain clients over real HTTP.

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const QUESTION = 'What is a recurring task?';
const EXPECTED = `Seen context: ${NOTE_PATH}. Question: ${QUESTION}.`;

async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  const outcome = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(ProviderError);
  const error = outcome as ProviderError;
  expect(error.message).not.toContain(API_KEY);
  expect(error.message).not.toContain('STRATA-SECRET');
  return error;
}

/** A fetch that records every request's signal and whether its response finished, to find dangling requests. */
function trackingFetch(): { fetch: typeof fetch; signals: AbortSignal[] } {
  const signals: AbortSignal[] = [];
  return {
    signals,
    fetch: (input, init) => {
      if (init?.signal) signals.push(init.signal);
      return fetch(input, init);
    },
  };
}

describe('429 with retry-after', () => {
  test.each(['openai', 'anthropic'] as const)('%s: waits what the server asked, then succeeds', async (kind) => {
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 7 });
    const { sleep, waits } = recordingSleep();
    const deltas: string[] = [];
    const result = await providerFor(server, kind, { sleep }).send({ messages: firstTurn(QUESTION), onToken: (d) => deltas.push(d) });
    expect(result.text).toBe(EXPECTED);
    expect(deltas.join('')).toBe(EXPECTED);
    expect(waits).toEqual([7000]);
    expect(server.requests).toHaveLength(2);
  });

  test('a retry-after beyond the cap is not waited for: the user is told how long to wait', async () => {
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 600 });
    const { sleep, waits } = recordingSleep();
    const error = await failure(providerFor(server, 'openai', { sleep }).send({ messages: firstTurn(QUESTION) }));
    expect(error.kind).toBe('rate-limited');
    expect(error.status).toBe(429);
    expect(error.retryAfterMs).toBe(600_000);
    expect(error.message).toBe('OpenAI (test-openai) returned 429 (rate limited) and asked to wait 600 s. Wait 600 s before trying again, or check your plan.');
    expect(waits).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  test('429 three times: rate-limited error after bounded exponential backoff', async () => {
    server.injectFault({ kind: 'status', status: 429, times: 3 });
    const { sleep, waits } = recordingSleep();
    const error = await failure(providerFor(server, 'openai', { sleep }).send({ messages: firstTurn(QUESTION) }));
    expect(error.kind).toBe('rate-limited');
    expect(error.message).toBe(
      'OpenAI (test-openai) returned 429 (rate limited) three times; wait a minute or check your plan and rate limits.',
    );
    expect(waits).toEqual([500, 1000]);
  });
});

describe('server errors', () => {
  test.each(['openai', 'openai-responses', 'anthropic'] as const)('%s: 500 three times is a clear error naming provider, status and what to do', async (kind) => {
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    const { sleep, waits } = recordingSleep();
    const provider = providerFor(server, kind, { sleep });
    const error = await failure(provider.send({ messages: firstTurn(QUESTION), onToken: () => undefined }));
    expect(error).toMatchObject({ kind: 'server', status: 500, attempts: 3, providerId: `test-${kind}` });
    expect(error.message).toMatch(/^(OpenAI|Anthropic)\b.*\(test-[a-z-]+\) returned 500 \(server error\) three times/);
    expect(error.message).toMatch(/try again in a few minutes\.$/);
    expect(error.advice).toMatch(/try again/);
    expect(waits).toEqual([500, 1000]);
    expect(server.requests).toHaveLength(3);
  });

  test('503 twice then success: the third attempt answers', async () => {
    server.injectFault({ kind: 'status', status: 503, times: 2 });
    const { sleep, waits } = recordingSleep();
    const result = await providerFor(server, 'anthropic', { sleep }).send({ messages: firstTurn(QUESTION) });
    expect(result.text).toBe(EXPECTED);
    expect(waits).toEqual([500, 1000]);
  });
});

describe('timeouts', () => {
  test.each([true, false])('a hang past the client timeout is a timeout error, every request aborted (streaming %s)', async (streaming) => {
    server.injectFault({ kind: 'hang', times: 3 });
    const tracked = trackingFetch();
    const { sleep, waits } = recordingSleep();
    const provider = providerFor(server, 'openai', { sleep, fetch: tracked.fetch, timeoutMs: 300, nonStreamingTimeoutMs: 300 });
    const error = await failure(provider.send({ messages: firstTurn(QUESTION), onToken: streaming ? () => undefined : undefined }));
    expect(error.kind).toBe('timeout');
    expect(error.message).toBe('OpenAI (test-openai) did not answer within 0.3 s three times; check the connection and the endpoint, or try again later.');
    expect(waits).toEqual([500, 1000]);
    expect(tracked.signals).toHaveLength(3);
    expect(tracked.signals.every((s) => s.aborted)).toBe(true);

    // Nothing left hanging: the next call goes through (default timeouts: the machine may be busy).
    const result = await providerFor(server, 'openai', { fetch: tracked.fetch }).send({ messages: firstTurn(QUESTION) });
    expect(result.text).toBe(EXPECTED);
  });

  test('a hang once, then an answer: the retry succeeds', async () => {
    server.injectFault({ kind: 'hang', times: 1 });
    const result = await providerFor(server, 'anthropic', { timeoutMs: 1000 }).send({ messages: firstTurn(QUESTION), onToken: () => undefined });
    expect(result.text).toBe(EXPECTED);
  });
});

describe('a stream that stalls midway', () => {
  test.each(['openai', 'openai-compatible', 'openai-responses', 'anthropic'] as const)(
    '%s: given up after the stall timeout (not the first-answer timeout), the request aborted, a clear error saying the text is kept',
    async (kind) => {
      server.injectFault({ kind: 'stall-stream', afterChunks: 6 });
      const tracked = trackingFetch();
      const deltas: string[] = [];
      // The first-answer timeout is far longer than the stall timeout: only the stall timer can end this.
      const provider = providerFor(server, kind, { fetch: tracked.fetch, timeoutMs: 30_000, stallTimeoutMs: 300 });
      const error = await failure(provider.send({ messages: firstTurn(QUESTION), onToken: (d) => deltas.push(d) }));
      expect(error.kind).toBe('timeout');
      expect(error.retryable).toBe(true);
      expect(error.message).toMatch(/^(OpenAI|Anthropic)\b.*\(test-[a-z-]+\) stopped sending for 0\.3 s; what arrived is kept\. Retry to ask again\.$/);
      expect(deltas.join('').length).toBeGreaterThan(0);
      expect(deltas.join('')).not.toBe(EXPECTED);
      // Text was shown: no silent retry; the stalled request itself was aborted (nothing left open).
      expect(server.requests).toHaveLength(1);
      expect(tracked.signals).toHaveLength(1);
      expect(tracked.signals[0].aborted).toBe(true);
    },
  );

  test('the stall timer only starts with the text: a slow first answer still gets the first-answer timeout', async () => {
    server.injectFault({ kind: 'hang', ms: 600 });
    const result = await providerFor(server, 'openai', { timeoutMs: 30_000, stallTimeoutMs: 300 }).send({ messages: firstTurn(QUESTION), onToken: () => undefined });
    expect(result.text).toBe(EXPECTED);
  });
});

describe('a stream cut midway', () => {
  test.each(['openai', 'openai-compatible', 'openai-responses', 'anthropic'] as const)(
    '%s: an error, and the partial text is not reported as a success',
    async (kind) => {
      server.injectFault({ kind: 'cut-stream', afterChunks: 6 });
      const deltas: string[] = [];
      const error = await failure(providerFor(server, kind).send({ messages: firstTurn(QUESTION), onToken: (d) => deltas.push(d) }));
      expect(error.kind).toBe('network');
      expect(error.message).toMatch(/dropped before the reply was complete; what arrived is shown but not kept as an answer/);
      // Some text was shown, so no silent retry could take it back.
      expect(deltas.join('').length).toBeGreaterThan(0);
      expect(deltas.join('')).not.toBe(EXPECTED);
      expect(server.requests).toHaveLength(1);
    },
  );

  test('cut before any text: retried, and the retry succeeds', async () => {
    server.injectFault({ kind: 'cut-stream', afterChunks: 0 });
    const deltas: string[] = [];
    const { sleep, waits } = recordingSleep();
    const result = await providerFor(server, 'openai', { sleep }).send({ messages: firstTurn(QUESTION), onToken: (d) => deltas.push(d) });
    expect(result.text).toBe(EXPECTED);
    expect(deltas.join('')).toBe(EXPECTED);
    expect(waits).toEqual([500]);
  });
});

describe('abort', () => {
  test.each(['openai', 'openai-responses', 'anthropic'] as const)('%s: abort mid-stream rejects with aborted', async (kind) => {
    const controller = new AbortController();
    const tracked = trackingFetch();
    const deltas: string[] = [];
    const provider = providerFor(server, kind, { fetch: tracked.fetch });
    const error = await failure(
      provider.send({
        messages: firstTurn(QUESTION),
        signal: controller.signal,
        onToken: (d) => {
          deltas.push(d);
          if (deltas.length === 2) controller.abort();
        },
      }),
    );
    expect(error.kind).toBe('aborted');
    expect(error.message).toBe(`The request to ${kind === 'anthropic' ? 'Anthropic' : kind === 'openai' ? 'OpenAI' : 'OpenAI (Responses API)'} (test-${kind}) was stopped.`);
    expect(deltas.length).toBeLessThan(6);
    expect(tracked.signals.every((s) => s.aborted)).toBe(true);
  });

  test('abort while the server hangs (before any byte) rejects with aborted and cancels the request', async () => {
    server.injectFault({ kind: 'hang' });
    const controller = new AbortController();
    const tracked = trackingFetch();
    const fetchStarted = new Promise<void>((resolve) => {
      const inner = tracked.fetch;
      tracked.fetch = (input, init) => {
        const response = inner(input, init);
        resolve();
        return response;
      };
    });
    const provider = providerFor(server, 'anthropic', { fetch: (input, init) => tracked.fetch(input, init) });
    const pending = provider.send({ messages: firstTurn(QUESTION), signal: controller.signal, onToken: () => undefined });
    await fetchStarted;
    controller.abort();
    const error = await failure(pending);
    expect(error.kind).toBe('aborted');
    expect(tracked.signals).toHaveLength(1);
    expect(tracked.signals[0].aborted).toBe(true);
  });

  test('abort during a retry wait rejects with aborted, without another request', async () => {
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 30 });
    const controller = new AbortController();
    const realSleep = makeSleep();
    const provider = createProvider(configFor(server, 'openai'), {
      getSecret: () => API_KEY,
      sleep: (ms, signal) => {
        const waiting = realSleep(ms, signal);
        controller.abort();
        return waiting;
      },
    });
    const error = await failure(provider.send({ messages: firstTurn(QUESTION), signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(1);
  });

  test('an already aborted signal makes no request', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await failure(providerFor(server, 'openai').send({ messages: firstTurn(QUESTION), signal: controller.signal }));
    expect(error.kind).toBe('aborted');
    expect(server.requests).toHaveLength(0);
  });
});

describe('secrets', () => {
  test('a 401 whose body echoes the key (as OpenAI does) is an auth error that never carries the key', async () => {
    // The local server does not check keys; this fetch answers the way api.openai.com does.
    const echoing: typeof fetch = (_input, init) => {
      const auth = new Headers(init?.headers).get('authorization') ?? '';
      const body = { error: { message: `Incorrect API key provided: ${auth.replace('Bearer ', '')}.`, type: 'invalid_request_error', code: 'invalid_api_key' } };
      return Promise.resolve(new Response(JSON.stringify(body), { status: 401, headers: { 'content-type': 'application/json' } }));
    };
    const error = await failure(providerFor(server, 'openai', { fetch: echoing }).send({ messages: firstTurn(QUESTION) }));
    expect(error).toMatchObject({ kind: 'auth', status: 401, attempts: 1 });
    expect(error.message).toMatch(/^OpenAI \(test-openai\) rejected the API key \(401\).*Check the API key in Strata settings\.$/);
    expect(error.message).toContain('[redacted]');
    expect(JSON.stringify(error)).not.toContain('STRATA-SECRET');
    expect(String(error.stack)).not.toContain('STRATA-SECRET');
  });
});

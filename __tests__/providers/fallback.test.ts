import http from 'node:http';
import type { ProviderServer } from '../../testing/providerServer';
import { ProviderError } from '../../src/providers/errors';
import { requestUrlFetch, type RequestUrlLike, type RequestUrlLikeParams } from '../../src/providers/requestUrlFetch';
import { API_KEY, NOTE_PATH, firstTurn, providerFor, recordingSleep } from './helpers';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

// Obsidian's requestUrl cannot exist here; the fake below does what it does (one plain HTTP request,
// the whole body back as text, never throwing on a status) against the local server.

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const QUESTION = 'Which emoji marks a due date?';
const EXPECTED = `Seen context: ${NOTE_PATH}. Question: ${QUESTION}.`;

function fakeRequestUrl(): { requestUrl: RequestUrlLike; calls: RequestUrlLikeParams[] } {
  const calls: RequestUrlLikeParams[] = [];
  const requestUrl: RequestUrlLike = (params) => {
    calls.push(params);
    return new Promise((resolve, reject) => {
      const request = http.request(params.url, { method: params.method, headers: params.headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const headers: Record<string, string> = {};
          for (const [name, value] of Object.entries(response.headers)) {
            if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(', ') : value;
          }
          resolve({ status: response.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString('utf8') });
        });
      });
      request.on('error', reject);
      if (params.body !== undefined) request.write(params.body);
      request.end();
    });
  };
  return { requestUrl, calls };
}

/** What fetch does in Obsidian when the endpoint does not allow CORS: a TypeError, no response. */
function corsBlockedFetch(): { fetch: typeof fetch; calls: number } {
  const state = {
    calls: 0,
    fetch: (() => {
      state.calls++;
      return Promise.reject(new TypeError('Failed to fetch'));
    }) as typeof fetch,
  };
  return state;
}

describe('requestUrl fallback when fetch is blocked by CORS', () => {
  test.each(['openai', 'openai-responses', 'anthropic'] as const)(
    '%s: the same request goes once through requestUrl, non-streaming; later calls go straight there',
    async (kind) => {
      const blocked = corsBlockedFetch();
      const fake = fakeRequestUrl();
      const provider = providerFor(server, kind, { fetch: blocked.fetch, fallbackFetch: requestUrlFetch(fake.requestUrl) });

      const deltas: string[] = [];
      const result = await provider.send({ messages: firstTurn(QUESTION), onToken: (d) => deltas.push(d) });
      expect(result.text).toBe(EXPECTED);
      expect(deltas).toEqual([EXPECTED]); // the whole reply as one delta
      expect(result.usage.inputTokens).toBeGreaterThan(1024);
      expect(blocked.calls).toBe(1);
      expect(fake.calls).toHaveLength(1);
      expect(fake.calls[0].method).toBe('POST');
      expect(server.requests).toHaveLength(1);
      expect(server.requests[0].body.stream ?? false).toBe(false);
      if (kind === 'anthropic') expect(fake.calls[0].headers['anthropic-dangerous-direct-browser-access']).toBe('true');

      const again = await provider.send({ messages: firstTurn(QUESTION), onToken: () => undefined });
      expect(again.text).toBe(EXPECTED);
      expect(blocked.calls).toBe(1);
      expect(fake.calls).toHaveLength(2);
    },
  );

  test('retries work through the fallback too: 429 + retry-after read from requestUrl headers', async () => {
    const blocked = corsBlockedFetch();
    const fake = fakeRequestUrl();
    const { sleep, waits } = recordingSleep();
    const provider = providerFor(server, 'openai', { fetch: blocked.fetch, fallbackFetch: requestUrlFetch(fake.requestUrl), sleep });
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 3 });
    const result = await provider.send({ messages: firstTurn(QUESTION), onToken: () => undefined });
    expect(result.text).toBe(EXPECTED);
    expect(waits).toEqual([3000]);
    expect(fake.calls).toHaveLength(2);
  });

  test('without a fallback, a blocked fetch is a network error that names the endpoint and never the key', async () => {
    const provider = providerFor(server, 'openai', { fetch: () => Promise.reject(new TypeError(`Failed to fetch (Bearer ${API_KEY})`)) });
    const error = await provider.send({ messages: firstTurn(QUESTION), onToken: () => undefined }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'network', providerId: 'test-openai' });
    const message = (error as ProviderError).message;
    expect(message).toContain(new URL(server.url).host);
    expect(message).not.toContain(API_KEY);
    expect(message).toContain('[redacted]');
  });

  test('an abort while requestUrl is in flight rejects at once with aborted', async () => {
    let release: () => void = () => undefined;
    const never: RequestUrlLike = () =>
      new Promise((resolve) => {
        release = () => resolve({ status: 500, headers: {}, text: '' });
      });
    const provider = providerFor(server, 'openai', { fetch: corsBlockedFetch().fetch, fallbackFetch: requestUrlFetch(never) });
    const controller = new AbortController();
    const pending = provider.send({ messages: firstTurn(QUESTION), signal: controller.signal, onToken: () => undefined });
    // Let the provider reach requestUrl, then abort.
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    controller.abort();
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
    release();
  });
});

describe('requestUrlFetch', () => {
  test('adapts method, headers, body and status; the SDK-facing Response reads like fetch', async () => {
    const fake = fakeRequestUrl();
    const fetchLike = requestUrlFetch(fake.requestUrl);
    const response = await fetchLike(`${server.url}/v1/chat/completions`, {
      method: 'post',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${API_KEY}`, 'Content-Length': '999' },
      body: JSON.stringify({ model: 'gpt-4o-mini', messages: [{ role: 'user', content: 'Hello?' }] }),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/application\/json/);
    const json = (await response.json()) as { choices: Array<{ message: { content: string } }> };
    expect(json.choices[0].message.content).toBe('Seen context: none. Question: Hello?.');
    expect(fake.calls[0]).toMatchObject({ method: 'POST', throw: false, contentType: 'application/json' });
    // The platform computes content-length itself.
    expect(Object.keys(fake.calls[0].headers).map((h) => h.toLowerCase())).not.toContain('content-length');
  });

  test('error statuses come back as responses, not exceptions', async () => {
    const fake = fakeRequestUrl();
    const response = await requestUrlFetch(fake.requestUrl)(`${server.url}/v1/nowhere`, { method: 'POST', body: '{}' });
    expect(response.status).toBe(404);
    expect(response.ok).toBe(false);
  });

  test('accepts a Request object and a URL', async () => {
    const fake = fakeRequestUrl();
    const fetchLike = requestUrlFetch(fake.requestUrl);
    const viaRequest = await fetchLike(new Request(`${server.url}/v1/models`));
    expect(viaRequest.status).toBe(200);
    const viaUrl = await fetchLike(new URL(`${server.url}/v1/models`));
    expect(((await viaUrl.json()) as { object: string }).object).toBe('list');
    expect(fake.calls.map((c) => c.method)).toEqual(['GET', 'GET']);
  });
});

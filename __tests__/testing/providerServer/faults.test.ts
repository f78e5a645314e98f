import { startProviderServer, type ProviderServer } from '../../../testing/providerServer';
import { payloads, postJson, readSse } from './helpers';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s));

const chat = (stream = false): Promise<Response> =>
  postJson(`${server.url}/v1/chat/completions`, { model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi?' }], stream });
const anthropic = (stream = false): Promise<Response> =>
  postJson(
    `${server.url}/v1/messages`,
    { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'Hi?' }], stream },
    { 'anthropic-version': '2023-06-01' },
  );
const responses = (stream = false): Promise<Response> => postJson(`${server.url}/v1/responses`, { model: 'gpt-4o', input: 'Hi?', stream });

describe('status faults', () => {
  it('answers 429 with retry-after in the OpenAI shape, then recovers', async () => {
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 7 });
    const limited = await chat();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect((await limited.json()).error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
    expect((await chat()).status).toBe(200);
    expect(server.requests).toHaveLength(2);
  });

  it('answers 429 in the Anthropic shape', async () => {
    server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 1 });
    const limited = await anthropic();
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
    expect(await limited.json()).toMatchObject({ type: 'error', error: { type: 'rate_limit_error' } });
  });

  it('fails `times` requests with 500, 502 and 503, in queue order', async () => {
    server.injectFault({ kind: 'status', status: 500, times: 2 });
    server.injectFault({ kind: 'status', status: 502 });
    server.injectFault({ kind: 'status', status: 503 });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await responses()).status);
    expect(statuses).toEqual([500, 500, 502, 503, 200]);
    server.injectFault({ kind: 'status', status: 500 });
    const failed = await anthropic();
    expect(await failed.json()).toMatchObject({ type: 'error', error: { type: 'api_error' } });
  });

  it('clearFaults drops pending faults', async () => {
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    server.clearFaults();
    expect((await chat()).status).toBe(200);
  });
});

describe('hang faults', () => {
  it('never answers a hung request; the client times out and the next request works', async () => {
    server.injectFault({ kind: 'hang' });
    await expect(fetch(`${server.url}/v1/chat/completions`, {
      method: 'POST',
      body: JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
      signal: AbortSignal.timeout(300),
    })).rejects.toThrow();
    expect((await chat()).status).toBe(200);
  });

  it('answers after the given delay', async () => {
    server.injectFault({ kind: 'hang', ms: 50 });
    const response = await anthropic();
    expect(response.status).toBe(200);
    expect((await response.json()).content[0].text).toBe('Seen context: none. Question: Hi?.');
  });

  it('close() terminates hanging requests promptly', async () => {
    const own = await startProviderServer();
    own.injectFault({ kind: 'hang', times: 2 });
    const pending = [
      postJson(`${own.url}/v1/chat/completions`, { model: 'gpt-4o', messages: [{ role: 'user', content: 'x' }] }),
      postJson(`${own.url}/v1/messages`, { model: 'claude-sonnet-4-5', max_tokens: 5, messages: [{ role: 'user', content: 'x' }], stream: true }),
    ];
    // Wait until both requests have arrived, then close with them still open.
    while (own.requests.length < 2) await new Promise((resolve) => setTimeout(resolve, 5));
    await own.close();
    const settled = await Promise.allSettled(pending);
    expect(settled.map((s) => s.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('cut-stream faults', () => {
  it('sends N chunks then destroys the socket (chat completions)', async () => {
    server.injectFault({ kind: 'cut-stream', afterChunks: 3 });
    const read = await readSse(await chat(true));
    expect(read.error).toBeDefined();
    expect(read.events).toHaveLength(3);
    expect(read.events.some((e) => e.data === '[DONE]')).toBe(false);
    const whole = await readSse(await chat(true));
    expect(whole.error).toBeUndefined();
    expect(whole.events[whole.events.length - 1].data).toBe('[DONE]');
  });

  it('cuts Anthropic and Responses streams midway, `times` times', async () => {
    server.injectFault({ kind: 'cut-stream', afterChunks: 2, times: 2 });
    const first = await readSse(await anthropic(true));
    expect(first.error).toBeDefined();
    expect(payloads(first).map((e) => String(e.type))).toEqual(['message_start', 'content_block_start']);
    const second = await readSse(await responses(true));
    expect(second.error).toBeDefined();
    expect(payloads(second).map((e) => String(e.type))).toEqual(['response.created', 'response.in_progress']);
    const third = await readSse(await responses(true));
    expect(payloads(third).pop().type).toBe('response.completed');
  });

  it('cuts right after the headers with afterChunks 0', async () => {
    server.injectFault({ kind: 'cut-stream', afterChunks: 0 });
    const response = await anthropic(true);
    expect(response.status).toBe(200);
    const read = await readSse(response);
    expect(read.error).toBeDefined();
    expect(read.events).toHaveLength(0);
  });

  it('is not consumed by non-streaming requests', async () => {
    server.injectFault({ kind: 'cut-stream', afterChunks: 1 });
    expect((await chat(false)).status).toBe(200);
    const read = await readSse(await chat(true));
    expect(read.error).toBeDefined();
    expect(read.events).toHaveLength(1);
  });
});

import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import type { ProviderServer } from '../../../testing/providerServer';
import { filler, payloads, postJson, readSse } from './helpers';
import { useProviderServer } from '../../helpers/providerServer';

const MODEL = 'claude-sonnet-4-5';
const counter = tokenCounterFor(MODEL);
const count = (text: string): number => counter.encode(text).length;

let now = 1_000_000;
let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: () => now });

const HEADERS = { 'x-api-key': 'sk-ant-secret', 'anthropic-version': '2023-06-01' };
const messages = (body: Record<string, unknown>): Promise<Response> =>
  postJson(`${server.url}/v1/messages`, { model: MODEL, max_tokens: 1024, ...body }, HEADERS);

const SYSTEM = `You are Strata.\n${filler(2000)}`;
const system = [{ type: 'text', text: SYSTEM, cache_control: { type: 'ephemeral' } }];
const user = (text: string, cached = false): Record<string, unknown> => ({
  role: 'user',
  content: [{ type: 'text', text, ...(cached ? { cache_control: { type: 'ephemeral' } } : {}) }],
});
const Q1 = '<note_context id="notes/a.md" title="A">\nalpha\n</note_context>\nFirst?';

describe('POST /v1/messages', () => {
  it('answers with a text block and usage split into plain input and cache counts', async () => {
    const response = await messages({ system, messages: [user(Q1)] });
    expect(response.status).toBe(200);
    const body = await response.json();
    const reply = 'Seen context: notes/a.md. Question: First?.';
    expect(body).toMatchObject({ type: 'message', role: 'assistant', model: MODEL, stop_reason: 'end_turn', content: [{ type: 'text', text: reply }] });
    const systemTokens = count(`<|system|>\n${SYSTEM}`);
    expect(body.usage).toMatchObject({
      cache_creation_input_tokens: systemTokens,
      cache_read_input_tokens: 0,
      input_tokens: count(`<|user|>\n${Q1}`),
      output_tokens: count(reply),
    });
    expect(server.requests[0].headers['x-api-key']).toBe('[redacted]');
  });

  it('reads what earlier turns wrote at breakpoints, within 5 minutes by the injected clock', async () => {
    now = 5_000_000;
    const turn1 = [user(Q1, true)];
    const r1 = (await (await messages({ system, messages: turn1 })).json()).usage;
    const total1 = count(`<|system|>\n${SYSTEM}`) + count(`<|user|>\n${Q1}`);
    expect(r1).toMatchObject({ input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: total1 });

    now += 4 * 60_000;
    const turn2 = [user(Q1), { role: 'assistant', content: 'Seen context: notes/a.md. Question: First?.' }, user('Second?', true)];
    const r2 = (await (await messages({ system, messages: turn2 })).json()).usage;
    const added = count('<|assistant|>\nSeen context: notes/a.md. Question: First?.') + count('<|user|>\nSecond?');
    expect(r2).toMatchObject({ input_tokens: 0, cache_read_input_tokens: total1, cache_creation_input_tokens: added });

    // Five minutes after turn 2's write and read, every entry has expired.
    now += 5 * 60_000;
    const r3 = (await (await messages({ system, messages: turn2 })).json()).usage;
    expect(r3).toMatchObject({ input_tokens: 0, cache_read_input_tokens: 0, cache_creation_input_tokens: total1 + added });
  });

  it('caches nothing below the minimum length or without breakpoints', async () => {
    const short = [{ type: 'text', text: 'Short system.', cache_control: { type: 'ephemeral' } }];
    await messages({ system: short, messages: [user('hi')] });
    const again = (await (await messages({ system: short, messages: [user('hi')] })).json()).usage;
    expect(again).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0 });
    const plain = (await (await messages({ system: SYSTEM, messages: [user('hi')] })).json()).usage;
    expect(plain).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: 0, input_tokens: count(`<|system|>\n${SYSTEM}`) + count('<|user|>\nhi') });
  });

  it('streams message_start, text deltas, message_delta with usage and message_stop', async () => {
    const read = await readSse(await messages({ system, messages: [user(Q1)], stream: true }));
    expect(read.error).toBeUndefined();
    const events = payloads(read);
    const types = events.map((e) => String(e.type));
    expect(types.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(types.slice(-3)).toEqual(['content_block_stop', 'message_delta', 'message_stop']);
    expect(read.events.every((e, i) => e.event === types[i])).toBe(true);
    const deltas = events.filter((e) => e.type === 'content_block_delta');
    expect(deltas.every((d) => d.delta.type === 'text_delta' && d.index === 0)).toBe(true);
    const text = deltas.map((d) => String(d.delta.text)).join('');
    expect(text).toBe('Seen context: notes/a.md. Question: First?.');
    expect(events[0].message.usage).toMatchObject({ cache_creation_input_tokens: count(`<|system|>\n${SYSTEM}`), output_tokens: 0 });
    const delta = events[events.length - 2];
    expect(delta.delta.stop_reason).toBe('end_turn');
    expect(delta.usage.output_tokens).toBe(count(text));
  });

  it('counts tokens without touching the cache', async () => {
    const body = { model: MODEL, system, messages: [user(Q1)] };
    const counted = await (await postJson(`${server.url}/v1/messages/count_tokens`, body, HEADERS)).json();
    expect(counted).toEqual({ input_tokens: count(`<|system|>\n${SYSTEM}`) + count(`<|user|>\n${Q1}`) });
    const usage = (await (await messages({ system, messages: [user(Q1)] })).json()).usage;
    expect(usage.cache_read_input_tokens).toBe(0);
    expect(usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens).toBe(counted.input_tokens);
  });

  it('rejects bad requests in the Anthropic error shape', async () => {
    const noMax = await postJson(`${server.url}/v1/messages`, { model: MODEL, messages: [user('x')] }, HEADERS);
    expect(noMax.status).toBe(400);
    expect(await noMax.json()).toMatchObject({ type: 'error', error: { type: 'invalid_request_error', message: 'max_tokens: Field required' } });
    const five = Array.from({ length: 5 }, (_, i) => user(`m${i}`, true));
    const tooMany = await messages({ messages: five });
    expect(tooMany.status).toBe(400);
    expect((await tooMany.json()).error.message).toBe('A maximum of 4 blocks with cache_control may be provided. Found 5.');
    const systemRole = await messages({ messages: [{ role: 'system', content: 'x' }] });
    expect(systemRole.status).toBe(400);
  });
});

import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import type { ProviderServer } from '../../../testing/providerServer';
import { filler, payloads, postJson, readSse } from './helpers';
import { useProviderServer } from '../../helpers/providerServer';

const MODEL = 'gpt-4.1-mini';
const counter = tokenCounterFor(MODEL);

let server: ProviderServer;
useProviderServer((s) => (server = s));

const note = `<note_context id="notes/long.md" title="Long">\n${filler(1500)}\n</note_context>`;
const responses = (body: Record<string, unknown>): Promise<Response> => postJson(`${server.url}/v1/responses`, { model: MODEL, ...body });

describe('POST /v1/responses', () => {
  it('answers with an output message and usage', async () => {
    const response = await responses({ instructions: 'Be brief.', input: [{ role: 'user', content: `${note}\nWhat is long?` }] });
    expect(response.status).toBe(200);
    const body = await response.json();
    const reply = 'Seen context: notes/long.md. Question: What is long?.';
    expect(body).toMatchObject({ object: 'response', status: 'completed', model: MODEL, previous_response_id: null });
    expect(body.id).toMatch(/^resp_/);
    expect(body.output).toHaveLength(1);
    expect(body.output[0]).toMatchObject({ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: reply }] });
    const input = counter.encode('<|system|>\nBe brief.').length + counter.encode(`<|user|>\n${note}\nWhat is long?`).length;
    expect(body.usage).toMatchObject({
      input_tokens: input,
      input_tokens_details: { cached_tokens: 0 },
      output_tokens: counter.encode(reply).length,
      total_tokens: input + counter.encode(reply).length,
    });
  });

  it('continues a conversation through previous_response_id, seeing and caching the earlier turns', async () => {
    const first = await (await responses({ input: [{ role: 'user', content: `${note}\nFirst?` }], prompt_cache_key: 'c1' })).json();
    const second = await (await responses({ previous_response_id: first.id, input: [{ role: 'user', content: 'Second?' }], prompt_cache_key: 'c1' })).json();
    expect(second.previous_response_id).toBe(first.id);
    // The note was only in the first request: the server remembers it.
    expect(second.output[0].content[0].text).toBe('Seen context: notes/long.md. Question: Second?.');
    const replyTokens = counter.encode('<|assistant|>\n' + first.output[0].content[0].text).length;
    const secondTokens = counter.encode('<|user|>\nSecond?').length;
    expect(second.usage.input_tokens).toBe(first.usage.input_tokens + replyTokens + secondTokens);
    expect(second.usage.input_tokens_details.cached_tokens).toBe(Math.floor(first.usage.input_tokens / 128) * 128);
    expect(server.requests.map((r): unknown => r.body.previous_response_id ?? null)).toEqual([null, first.id]);
  });

  it('refuses an unknown previous_response_id with previous_response_not_found', async () => {
    const response = await responses({ previous_response_id: 'resp_unknown', input: 'hi' });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({
      error: {
        message: "Previous response with id 'resp_unknown' not found.",
        type: 'invalid_request_error',
        param: 'previous_response_id',
        code: 'previous_response_not_found',
      },
    });
  });

  it('forgets responses on reset and does not keep store:false responses', async () => {
    const unstored = await (await responses({ input: 'hi', store: false })).json();
    expect((await responses({ previous_response_id: unstored.id, input: 'again' })).status).toBe(400);
    const stored = await (await responses({ input: 'hi' })).json();
    const fetched = await fetch(`${server.url}/v1/responses/${stored.id}`);
    expect((await fetched.json()).id).toBe(stored.id);
    server.reset();
    expect(server.requests).toHaveLength(0);
    const after = await responses({ previous_response_id: stored.id, input: 'again' });
    expect((await after.json()).error.code).toBe('previous_response_not_found');
  });

  it('streams typed events ending with response.completed', async () => {
    const read = await readSse(await responses({ input: [{ role: 'user', content: `${note}\nStreamed?` }], stream: true }));
    expect(read.error).toBeUndefined();
    const events = payloads(read);
    const types = events.map((e) => String(e.type));
    expect(types.slice(0, 4)).toEqual(['response.created', 'response.in_progress', 'response.output_item.added', 'response.content_part.added']);
    expect(types.slice(-4)).toEqual(['response.output_text.done', 'response.content_part.done', 'response.output_item.done', 'response.completed']);
    expect(read.events.every((e, i) => e.event === types[i])).toBe(true);
    expect(events.map((e) => Number(e.sequence_number))).toEqual(events.map((_, i) => i));
    const text = events.filter((e) => e.type === 'response.output_text.delta').map((e) => String(e.delta)).join('');
    expect(text).toBe('Seen context: notes/long.md. Question: Streamed?.');
    const completed = events[events.length - 1].response;
    expect(completed.status).toBe('completed');
    expect(completed.usage.output_tokens).toBe(counter.encode(text).length);
    expect(events[0].response.id).toBe(completed.id);
    // A streamed response can be continued like any other.
    const next = await (await responses({ previous_response_id: completed.id, input: 'More?' })).json();
    expect(next.output[0].content[0].text).toBe('Seen context: notes/long.md. Question: More?.');
  });
});

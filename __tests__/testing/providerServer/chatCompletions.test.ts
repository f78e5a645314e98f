import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import type { ProviderServer } from '../../../testing/providerServer';
import { openaiCachedTokens, sharedPrefixLength } from '../../../testing/providerServer/openaiCacheRule';
import { filler, payloads, postJson, readSse } from './helpers';
import { useProviderServer } from '../../helpers/providerServer';

const MODEL = 'gpt-4o';
const counter = tokenCounterFor(MODEL);
/** The server's documented serialization: a role marker, then the content, per message. */
const serialize = (messages: Array<{ role: string; content: string }>): number[] =>
  messages.flatMap((m) => counter.encode(`<|${m.role}|>\n${m.content}`));

let server: ProviderServer;
useProviderServer((s) => (server = s));

const system = { role: 'system', content: `You are Strata.\n${filler(1600)}` };
const ask = (q: string): { role: string; content: string } => ({
  role: 'user',
  content: `<note_context id="notes/a.md" title="A">\nalpha\n</note_context>\n<context_refs>\nAttached again:\n- notes/b.md\n</context_refs>\n${q}`,
});

describe('POST /v1/chat/completions', () => {
  it('answers deterministically with usage from the real tokenizer', async () => {
    const messages = [system, ask('What links A and B?')];
    const response = await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages });
    expect(response.status).toBe(200);
    const body = await response.json();
    const reply = 'Seen context: notes/a.md, notes/b.md. Question: What links A and B?.';
    expect(body.object).toBe('chat.completion');
    expect(body.choices[0]).toMatchObject({ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: reply } });
    expect(body.usage).toMatchObject({
      prompt_tokens: serialize(messages).length,
      completion_tokens: counter.encode(reply).length,
      prompt_tokens_details: { cached_tokens: 0 },
    });
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({ api: 'openai-chat', path: '/v1/chat/completions', body: { model: MODEL } });
  });

  it('reports the shared prefix with an earlier request as cached, in 128-token steps', async () => {
    const first = [system, ask('First?')];
    const second = [system, ask('First?'), { role: 'assistant', content: 'ok' }, ask('Second?')];
    await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages: first });
    const body = await (await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages: second })).json();
    const shared = sharedPrefixLength(serialize(first), serialize(second));
    expect(shared).toBeGreaterThan(1024);
    expect(body.usage.prompt_tokens_details.cached_tokens).toBe(openaiCachedTokens(shared));
    expect(body.usage.prompt_tokens_details.cached_tokens % 128).toBe(0);
  });

  it('caches nothing for short prompts or under another prompt_cache_key', async () => {
    const short = [{ role: 'user', content: 'hi' }];
    await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages: short });
    const again = await (await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages: short })).json();
    expect(again.usage.prompt_tokens_details.cached_tokens).toBe(0);

    const messages = [system, ask('Q?')];
    await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages, prompt_cache_key: 'chat-1' });
    const other = await (await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages, prompt_cache_key: 'chat-2' })).json();
    expect(other.usage.prompt_tokens_details.cached_tokens).toBe(0);
    const same = await (await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages, prompt_cache_key: 'chat-1' })).json();
    expect(same.usage.prompt_tokens_details.cached_tokens).toBe(openaiCachedTokens(serialize(messages).length));
  });

  it('streams content deltas, a usage chunk when asked, then [DONE]', async () => {
    const messages = [system, ask('Stream it?')];
    const response = await postJson(`${server.url}/v1/chat/completions`, {
      model: MODEL,
      messages,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const read = await readSse(response);
    expect(read.error).toBeUndefined();
    expect(read.events[read.events.length - 1].data).toBe('[DONE]');
    const chunks = payloads(read);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    const text = chunks.map((c) => String(c.choices[0]?.delta?.content ?? '')).join('');
    expect(text).toBe('Seen context: notes/a.md, notes/b.md. Question: Stream it?.');
    expect(chunks.filter((c) => c.choices[0]?.delta?.content).length).toBeGreaterThan(3);
    expect(chunks[chunks.length - 2].choices[0].finish_reason).toBe('stop');
    const last = chunks[chunks.length - 1];
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: serialize(messages).length, completion_tokens: counter.encode(text).length });
  });

  it('sends no usage chunk without stream_options.include_usage', async () => {
    const read = await readSse(await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages: [ask('x')], stream: true }));
    expect(payloads(read).every((c) => c.usage === undefined && c.choices.length === 1)).toBe(true);
  });

  it('rejects bad requests in the OpenAI error shape', async () => {
    const noModel = await postJson(`${server.url}/v1/chat/completions`, { messages: [ask('x')] });
    expect(noModel.status).toBe(400);
    expect((await noModel.json()).error).toMatchObject({ type: 'invalid_request_error', param: 'model' });
    const badJson = await fetch(`${server.url}/v1/chat/completions`, { method: 'POST', body: '{nope' });
    expect(badJson.status).toBe(400);
    expect((await badJson.json()).error.type).toBe('invalid_request_error');
    const unknown = await postJson(`${server.url}/v1/audio/speech`, { input: 'x' });
    expect(unknown.status).toBe(404);
    expect((await unknown.json()).error.code).toBe('unknown_url');
  });

  it('redacts credentials in recorded headers', async () => {
    await postJson(`${server.url}/v1/chat/completions`, { model: MODEL, messages: [ask('x')] }, { authorization: 'Bearer sk-secret' });
    expect(server.requests[0].headers.authorization).toBe('[redacted]');
    expect(JSON.stringify(server.requests)).not.toContain('sk-secret');
  });
});

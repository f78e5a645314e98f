import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage, ToolMessage, type AIMessageChunk, type BaseMessage } from '@langchain/core/messages';
import { concat } from '@langchain/core/utils/stream';
import { ChatOpenAI } from '@langchain/openai';
import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import type { ProviderServer, WireJson } from '../../../testing/providerServer';
import { openaiCachedTokens } from '../../../testing/providerServer/openaiCacheRule';
import { filler, payloads, postJson, readSse } from './helpers';
import { anthropicDriver, chatDriver, readResponses, responsesDriver, responsesStepItems, ANTHROPIC_HEADERS, type Driver, type Step } from './toolWire';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s));

const count = (text: string, model = 'gpt-4o'): number => tokenCounterFor(model).encode(text).length;
const READ_A = '[[tool readNote {"path":"a.md"}]]';
const CATALOG = '[1] notes/a.md: A\n[2] notes/b.md: B';

const DRIVERS: Array<[string, (url: string) => Driver]> = [
  ['chat completions', (url) => chatDriver(url)],
  ['responses', (url) => responsesDriver(url)],
  ['anthropic messages', (url) => anthropicDriver(url)],
];
const CASES = DRIVERS.flatMap(([name, make]) => [false, true].map((stream) => [name, stream, make] as const));

describe.each(CASES)('%s, stream %s', (_name, stream, make) => {
  let driver: Driver;
  beforeEach(() => {
    driver = make(server.url);
  });
  const id = (step: number, i: number): string => `${driver.idPrefix}_${step}_${i}`;
  const callStop = (): string => (driver.api === 'anthropic' ? 'tool_use' : 'tool_calls');

  it('runs a one-step script: the calls, then the text naming the tools used', async () => {
    const user = `Read a\n${READ_A}`;
    const first = await driver.send({ user, stream });
    expect(first.calls).toEqual([{ id: id(1, 1), name: 'readNote', args: { path: 'a.md' } }]);
    expect(first).toMatchObject({ text: '', stop: callStop() });
    expect(first.outputTokens).toBe(count('[{"name":"readNote","arguments":{"path":"a.md"}}]', driver.model));
    const second = await driver.send({ user, stream, steps: [{ calls: first.calls, results: ['# A\nalpha'] }] });
    expect(second.calls).toEqual([]);
    expect(second.text).toBe('Seen context: none. Question: Read a. Tools used: readNote.');
    expect(second.outputTokens).toBe(count(second.text, driver.model));
  });

  it('runs a two-step script step by step, citing a numbered source catalog', async () => {
    const user = `Find alpha\n[[tool localSearch {"query":"alpha"}]]\n${READ_A}`;
    const first = await driver.send({ user, stream });
    expect(first.calls).toEqual([{ id: id(1, 1), name: 'localSearch', args: { query: 'alpha' } }]);
    const steps: Step[] = [{ calls: first.calls, results: [CATALOG] }];
    const second = await driver.send({ user, stream, steps });
    expect(second.calls).toEqual([{ id: id(2, 1), name: 'readNote', args: { path: 'a.md' } }]);
    steps.push({ calls: second.calls, results: ['# A\nalpha'] });
    const third = await driver.send({ user, stream, steps });
    expect(third.text).toBe('Seen context: none. Question: Find alpha. Tools used: localSearch, readNote. Sources: [1].');
  });

  it('makes the directives of one line parallel calls, in order', async () => {
    const user = `Compare\n${READ_A} [[tool readNote {"path":"b.md"}]]`;
    const first = await driver.send({ user, stream });
    expect(first.calls).toEqual([
      { id: id(1, 1), name: 'readNote', args: { path: 'a.md' } },
      { id: id(1, 2), name: 'readNote', args: { path: 'b.md' } },
    ]);
    const second = await driver.send({ user, stream, steps: [{ calls: first.calls, results: ['A', 'B'] }] });
    expect(second.text).toBe('Seen context: none. Question: Compare. Tools used: readNote, readNote.');
  });

  it('skips calls to undeclared tools, and steps left empty', async () => {
    const user = `Go\n[[tool deleteVault {}]] ${READ_A}\n[[tool deleteVault {"all":true}]]`;
    const first = await driver.send({ user, stream });
    expect(first.calls).toEqual([{ id: id(1, 1), name: 'readNote', args: { path: 'a.md' } }]);
    const second = await driver.send({ user, stream, steps: [{ calls: first.calls, results: ['A'] }] });
    expect(second).toMatchObject({ calls: [], text: 'Seen context: none. Question: Go. Tools used: readNote.' });
  });

  it('answers with text when the request declares no tools, directives removed from the question', async () => {
    const reply = await driver.send({ user: `Read a ${READ_A} now`, stream, tools: [] });
    expect(reply).toMatchObject({ calls: [], text: 'Seen context: none. Question: Read a now.', stop: driver.api === 'anthropic' ? 'end_turn' : 'stop' });
  });

  it('counts calls and results in the prompt, and reads the earlier steps from the cache', async () => {
    const system = `You are Strata.\n${filler(1600)}`;
    const user = `Find alpha\n[[tool localSearch {"query":"alpha"}]]\n${READ_A}`;
    const result = filler(200, 'beta');
    const first = await driver.send({ user, stream, system });
    const steps: Step[] = [{ calls: first.calls, results: [result] }];
    const second = await driver.send({ user, stream, system, steps });
    steps.push({ calls: second.calls, results: [result] });
    const third = await driver.send({ user, stream, system, steps });
    expect(third.text).toContain('Tools used: localSearch, readNote.');
    expect(second.promptTokens - first.promptTokens).toBeGreaterThan(count(result, driver.model));
    expect(third.promptTokens - second.promptTokens).toBeGreaterThan(count(result, driver.model));
    // Each request extends the previous one byte for byte: its whole prompt is the cached prefix,
    // whole for Anthropic (the previous breakpoint is within the lookback), in 128-token steps for OpenAI.
    const cachedOf = (earlier: number): number => (driver.api === 'anthropic' ? earlier : openaiCachedTokens(earlier));
    expect(second.cachedTokens).toBeGreaterThan(0);
    expect(second.cachedTokens).toBe(cachedOf(first.promptTokens));
    expect(third.cachedTokens).toBe(cachedOf(second.promptTokens));
  });
});

describe('wire shapes', () => {
  const user = `Compare\n${READ_A} [[tool readNote {"path":"b.md"}]]`;
  const tool = { type: 'function', function: { name: 'readNote', description: 'Read a note', parameters: { type: 'object' } } };

  it('Chat Completions: a tool_calls message; streamed as id+name, then argument fragments, per call', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: user }], tools: [tool] };
    const json = await (await postJson(`${server.url}/v1/chat/completions`, body)).json();
    expect(json.choices[0].finish_reason).toBe('tool_calls');
    expect(json.choices[0].message).toEqual({
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1_1', type: 'function', function: { name: 'readNote', arguments: '{"path":"a.md"}' } },
        { id: 'call_1_2', type: 'function', function: { name: 'readNote', arguments: '{"path":"b.md"}' } },
      ],
      refusal: null,
      annotations: [],
    });

    const read = await readSse(await postJson(`${server.url}/v1/chat/completions`, { ...body, stream: true, stream_options: { include_usage: true } }));
    expect(read.events[read.events.length - 1].data).toBe('[DONE]');
    const chunks = payloads(read);
    expect(chunks[0].choices[0].delta).toEqual({ role: 'assistant', content: null, refusal: null });
    const deltas = chunks.slice(1, -2).map((c): WireJson => c.choices[0].delta.tool_calls[0]);
    expect(deltas[0]).toEqual({ index: 0, id: 'call_1_1', type: 'function', function: { name: 'readNote', arguments: '' } });
    const second = deltas.findIndex((d) => d.index === 1);
    expect(second).toBeGreaterThan(2); // 2+ argument fragments for the first call
    const fragments = deltas.slice(1, second);
    expect(fragments.every((d) => Object.keys(d as object).join() === 'index,function' && Object.keys(d.function as object).join() === 'arguments')).toBe(true);
    expect(fragments.map((d) => String(d.function.arguments)).join('')).toBe('{"path":"a.md"}');
    expect(chunks[chunks.length - 2].choices[0]).toMatchObject({ delta: {}, finish_reason: 'tool_calls' });
    expect(chunks[chunks.length - 1]).toMatchObject({ choices: [], usage: { completion_tokens: json.usage.completion_tokens } });
  });

  it('Responses: function_call items; streamed as added, argument deltas, done, item done', async () => {
    const body = { model: 'gpt-4o', input: user, tools: [{ type: 'function', name: 'readNote', parameters: { type: 'object' } }] };
    const json = await (await postJson(`${server.url}/v1/responses`, body)).json();
    expect(json.output).toEqual([
      { id: 'fc_1_1', type: 'function_call', status: 'completed', arguments: '{"path":"a.md"}', call_id: 'call_1_1', name: 'readNote' },
      { id: 'fc_1_2', type: 'function_call', status: 'completed', arguments: '{"path":"b.md"}', call_id: 'call_1_2', name: 'readNote' },
    ]);

    const read = await readSse(await postJson(`${server.url}/v1/responses`, { ...body, stream: true }));
    const events = payloads(read);
    expect(read.events.every((e, i) => e.event === events[i].type)).toBe(true);
    expect(events.map((e) => Number(e.sequence_number))).toEqual(events.map((_e, i) => i));
    const perCall = (n: number): string[] => [
      'response.output_item.added',
      ...Array<string>(n).fill('response.function_call_arguments.delta'),
      'response.function_call_arguments.done',
      'response.output_item.done',
    ];
    const pieces = events.filter((e) => e.type === 'response.function_call_arguments.delta' && e.output_index === 0).length;
    expect(pieces).toBeGreaterThanOrEqual(2);
    expect(events.map((e) => String(e.type))).toEqual(['response.created', 'response.in_progress', ...perCall(pieces), ...perCall(pieces), 'response.completed']);
    expect(events[2]).toMatchObject({ output_index: 0, item: { id: 'fc_1_1', type: 'function_call', status: 'in_progress', arguments: '', call_id: 'call_1_1', name: 'readNote' } });
    expect(events[3]).toMatchObject({ item_id: 'fc_1_1', output_index: 0 });
    expect(events[2 + pieces + 1]).toMatchObject({ item_id: 'fc_1_1', output_index: 0, name: 'readNote', arguments: '{"path":"a.md"}' });
    expect((events[events.length - 1].response.output as WireJson[]).map((o) => String(o.id))).toEqual(['fc_1_1', 'fc_1_2']);
  });

  it('Anthropic: tool_use blocks; streamed as a block start with empty input, then input_json_delta pieces', async () => {
    const body = { model: 'claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: user }], tools: [{ name: 'readNote', input_schema: { type: 'object' } }] };
    const json = await (await postJson(`${server.url}/v1/messages`, body, ANTHROPIC_HEADERS)).json();
    expect(json).toMatchObject({ stop_reason: 'tool_use', stop_sequence: null });
    expect(json.content).toEqual([
      { type: 'tool_use', id: 'toolu_1_1', name: 'readNote', input: { path: 'a.md' } },
      { type: 'tool_use', id: 'toolu_1_2', name: 'readNote', input: { path: 'b.md' } },
    ]);

    const read = await readSse(await postJson(`${server.url}/v1/messages`, { ...body, stream: true }, ANTHROPIC_HEADERS));
    const events = payloads(read);
    const types = events.map((e) => String(e.type));
    expect(read.events.every((e, i) => e.event === types[i])).toBe(true);
    expect(types.slice(0, 3)).toEqual(['message_start', 'content_block_start', 'ping']);
    expect(types.slice(-2)).toEqual(['message_delta', 'message_stop']);
    expect(events[1]).toEqual({ type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: 'toolu_1_1', name: 'readNote', input: {} } });
    for (const index of [0, 1]) {
      const deltas = events.filter((e) => e.type === 'content_block_delta' && e.index === index);
      expect(deltas.length).toBeGreaterThanOrEqual(2);
      expect(deltas.every((d) => d.delta.type === 'input_json_delta')).toBe(true);
      expect(JSON.parse(deltas.map((d) => String(d.delta.partial_json)).join(''))).toEqual({ path: index === 0 ? 'a.md' : 'b.md' });
    }
    expect(events.filter((e) => e.type === 'content_block_stop').map((e) => Number(e.index))).toEqual([0, 1]);
    expect(events[events.length - 2]).toMatchObject({ delta: { stop_reason: 'tool_use', stop_sequence: null }, usage: { output_tokens: json.usage.output_tokens } });
  });
});

describe('Responses with previous_response_id', () => {
  it.each([false, true])('continues a script from stored function calls (stream %s), caching the earlier turns', async (stream) => {
    const user = `Find alpha\n[[tool localSearch {"query":"alpha"}]]\n${READ_A}`;
    const base = {
      model: 'gpt-4.1-mini',
      instructions: `You are Strata.\n${filler(1600)}`,
      tools: ['readNote', 'localSearch'].map((name) => ({ type: 'function', name, parameters: { type: 'object' } })),
      stream,
    };
    const post = (body: Record<string, unknown>): Promise<Response> => postJson(`${server.url}/v1/responses`, { ...base, ...body });
    const first = await readResponses(await post({ input: user }), stream);
    expect(first.calls).toEqual([{ id: 'call_1_1', name: 'localSearch', args: { query: 'alpha' } }]);
    const stored = await (await fetch(`${server.url}/v1/responses/${first.response.id}`)).json();
    expect((stored.output as WireJson[]).map((o) => String(o.type))).toEqual(['function_call']);

    // Only the outputs are sent: the calls come from the stored response.
    const outputs = (step: Step): unknown[] => responsesStepItems([step]).filter((i) => (i as WireJson).type === 'function_call_output');
    const second = await readResponses(await post({ previous_response_id: first.response.id, input: outputs({ calls: first.calls, results: [CATALOG] }) }), stream);
    expect(second.calls).toEqual([{ id: 'call_2_1', name: 'readNote', args: { path: 'a.md' } }]);
    expect(second.cachedTokens).toBe(openaiCachedTokens(first.promptTokens));
    const third = await readResponses(await post({ previous_response_id: second.response.id, input: outputs({ calls: second.calls, results: ['# A'] }) }), stream);
    expect(third.text).toBe('Seen context: none. Question: Find alpha. Tools used: localSearch, readNote. Sources: [1].');
    expect(third.cachedTokens).toBe(openaiCachedTokens(second.promptTokens));
  });
});

describe('faults on tool-call replies', () => {
  const chatBody = (stream: boolean): Record<string, unknown> => ({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: READ_A }],
    tools: [{ type: 'function', function: { name: 'readNote', parameters: {} } }],
    stream,
  });

  it('fails with an injected status, then calls the tool', async () => {
    server.injectFault({ kind: 'status', status: 503 });
    expect((await postJson(`${server.url}/v1/chat/completions`, chatBody(false))).status).toBe(503);
    const json = await (await postJson(`${server.url}/v1/chat/completions`, chatBody(false))).json();
    expect(json.choices[0].message.tool_calls[0].id).toBe('call_1_1');
  });

  it('cuts tool-call streams midway on every API', async () => {
    server.injectFault({ kind: 'cut-stream', afterChunks: 3, times: 3 });
    const chat = await readSse(await postJson(`${server.url}/v1/chat/completions`, chatBody(true)));
    const responses = await readSse(
      await postJson(`${server.url}/v1/responses`, { model: 'gpt-4o', input: READ_A, tools: [{ type: 'function', name: 'readNote' }], stream: true }),
    );
    const anthropic = await readSse(
      await postJson(
        `${server.url}/v1/messages`,
        { model: 'claude-sonnet-4-5', max_tokens: 10, messages: [{ role: 'user', content: READ_A }], tools: [{ name: 'readNote', input_schema: {} }], stream: true },
        ANTHROPIC_HEADERS,
      ),
    );
    for (const read of [chat, responses, anthropic]) {
      expect(read.error).toBeDefined();
      expect(read.events).toHaveLength(3);
    }
    expect(payloads(chat)[1].choices[0].delta.tool_calls[0].id).toBe('call_1_1');
    expect(payloads(responses).map((e) => String(e.type))[2]).toBe('response.output_item.added');
    expect(payloads(anthropic)[1].content_block.type).toBe('tool_use');
  });
});

describe('LangChain clients', () => {
  const readNote = {
    type: 'function' as const,
    function: { name: 'readNote', description: 'Read a note', parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } },
  };
  const question = new HumanMessage(`Read a\n${READ_A}`);

  interface Runnable {
    invoke(messages: BaseMessage[]): Promise<AIMessageChunk>;
    stream(messages: BaseMessage[]): Promise<AsyncIterable<AIMessageChunk>>;
  }

  async function streamed(model: Runnable, messages: BaseMessage[]): Promise<AIMessageChunk> {
    let whole: AIMessageChunk | undefined;
    for await (const chunk of await model.stream(messages)) whole = whole ? concat(whole, chunk) : chunk;
    if (!whole) throw new Error('empty stream');
    return whole;
  }

  /** One agent round: the call (invoked and streamed), then the text after the tool's result. */
  async function agentRound(model: Runnable, callId: string): Promise<void> {
    const expected = [expect.objectContaining({ name: 'readNote', args: { path: 'a.md' }, id: callId })];
    const invoked = await model.invoke([question]);
    expect(invoked.tool_calls).toEqual(expected);
    expect((await streamed(model, [question])).tool_calls).toEqual(expected);
    const history = [question, new AIMessage({ content: '', tool_calls: invoked.tool_calls }), new ToolMessage({ tool_call_id: callId, content: '# A\nalpha' })];
    const text = 'Seen context: none. Question: Read a. Tools used: readNote.';
    expect((await model.invoke(history)).text).toBe(text);
    expect((await streamed(model, history)).text).toBe(text);
    expect(server.requests.map((r) => r.body.stream === true)).toEqual([false, true, false, true]);
  }

  it('ChatOpenAI (Chat Completions)', async () => {
    const model = new ChatOpenAI({ model: 'gpt-4o', apiKey: 'x', maxRetries: 0, configuration: { baseURL: `${server.url}/v1` } });
    await agentRound(model.bindTools([readNote]), 'call_1_1');
    expect(server.requests.every((r) => r.path === '/v1/chat/completions')).toBe(true);
  });

  it('ChatOpenAI (Responses)', async () => {
    const model = new ChatOpenAI({ model: 'gpt-4o', apiKey: 'x', maxRetries: 0, useResponsesApi: true, configuration: { baseURL: `${server.url}/v1` } });
    await agentRound(model.bindTools([readNote]), 'call_1_1');
    expect(server.requests.every((r) => r.path === '/v1/responses')).toBe(true);
  });

  it('ChatAnthropic', async () => {
    const model = new ChatAnthropic({ model: 'claude-sonnet-4-5', apiKey: 'x', maxRetries: 0, anthropicApiUrl: server.url, clientOptions: { baseURL: server.url } });
    await agentRound(model.bindTools([readNote]), 'toolu_1_1');
    expect(server.requests.every((r) => r.path === '/v1/messages')).toBe(true);
  });
});

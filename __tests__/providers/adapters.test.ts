import { placeCacheBreakpoints } from '../../src/core/compiler/cacheBreakpoints';
import type { ChatMessage } from '../../src/core/engine/messages';
import type { ProviderServer } from '../../testing/providerServer';
import { costOf } from '../../src/providers/pricing';
import type { ChatResult } from '../../src/core/ports/chatModel';
import { API_KEY, NOTE_PATH, SECOND_NOTE_PATH, firstTurn, providerFor, secondTurn } from './helpers';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

// Every provider kind through the real LangChain client (ChatOpenAI / ChatAnthropic) and real HTTP
// to the local provider server.

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const KINDS = ['openai', 'openai-compatible', 'openai-responses', 'anthropic'] as const;
const QUESTION = 'How do I set a due date?';
const EXPECTED = `Seen context: ${NOTE_PATH}. Question: ${QUESTION}.`;

describe.each(KINDS)('%s', (kind) => {
  test('non-streaming: one request, the reply reflects what was sent, usage reported', async () => {
    const result = await providerFor(server, kind).send({ messages: firstTurn(QUESTION) });
    expect(result.text).toBe(EXPECTED);
    expect(result.usageReported).toBe(true);
    expect(result.usage.inputTokens).toBeGreaterThan(1024);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.stream ?? false).toBe(false);
  });

  test('streaming: deltas arrive one by one and join to the final text', async () => {
    const deltas: string[] = [];
    const result = await providerFor(server, kind).send({ messages: firstTurn(QUESTION), onToken: (d) => deltas.push(d) });
    expect(result.text).toBe(EXPECTED);
    expect(deltas.length).toBeGreaterThan(5);
    expect(deltas.join('')).toBe(result.text);
    expect(result.usage.inputTokens).toBeGreaterThan(1024);
    expect(result.usage.outputTokens).toBeGreaterThan(0);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body.stream).toBe(true);
  });

  test('the API key goes in the auth header only (the server records it redacted)', async () => {
    await providerFor(server, kind).send({ messages: firstTurn(QUESTION) });
    const recorded = server.requests[0];
    const auth = kind === 'anthropic' ? recorded.headers['x-api-key'] : recorded.headers.authorization;
    expect(auth).toBeDefined();
    expect(JSON.stringify(recorded.body)).not.toContain(API_KEY);
  });
});

describe('OpenAI Chat Completions caching', () => {
  test('prompt_cache_key is sent, and the second turn reads the shared prefix from cache', async () => {
    const provider = providerFor(server, 'openai');
    const deltas: string[] = [];
    const first = firstTurn('What is a task?');
    const r1 = await provider.send({ messages: first, cacheKey: 'chat-42', onToken: (d) => deltas.push(d) });
    const r2 = await provider.send({ messages: secondTurn(first, r1.text, 'And priorities?'), cacheKey: 'chat-42', onToken: (d) => deltas.push(d) });

    expect(server.requests.map((r): unknown => r.body.prompt_cache_key)).toEqual(['chat-42', 'chat-42']);
    expect(r1.usage.cachedReadTokens).toBe(0);
    // OpenAI's rule: a shared prefix of at least 1024 tokens, counted in 128-token steps.
    expect(r2.usage.cachedReadTokens).toBeGreaterThanOrEqual(1024);
    expect(r2.usage.cachedReadTokens % 128).toBe(0);
    expect(r2.usage.cachedReadTokens).toBeLessThanOrEqual(r2.usage.inputTokens);
    expect(r2.usage.cachedReadTokens).toBeGreaterThanOrEqual(r1.usage.inputTokens - 128);
    expect(r2.text).toBe(`Seen context: ${NOTE_PATH}, ${SECOND_NOTE_PATH}. Question: And priorities?.`);

    // Cached reads are billed at the cached price, so the second turn's input costs less per token.
    const c1 = costOf('gpt-4o-mini', r1.usage)!;
    const c2 = costOf('gpt-4o-mini', r2.usage)!;
    expect(c2.cachedReadUsd).toBeCloseTo((r2.usage.cachedReadTokens * 0.075) / 1e6, 12);
    expect(c2.inputUsd + c2.cachedReadUsd).toBeLessThan(((r2.usage.inputTokens * 0.15) / 1e6) * 0.75);
    expect(c1.cachedReadUsd).toBe(0);
  });

  test('an unknown OpenAI-compatible endpoint gets no prompt_cache_key (it may reject unknown fields)', async () => {
    await providerFor(server, 'openai-compatible').send({ messages: firstTurn(QUESTION), cacheKey: 'chat-42' });
    expect(server.requests[0].body).not.toHaveProperty('prompt_cache_key');
  });
});

describe('OpenAI Responses (stateful)', () => {
  test('previous_response_id chains turns: only the new message is sent, the session id is returned', async () => {
    const provider = providerFor(server, 'openai-responses');
    const first = firstTurn('What is a task?');
    const r1 = await provider.send({ messages: first, cacheKey: 'chat-7' });
    expect(r1.sessionId).toMatch(/\S/);
    expect(server.requests[0].body).not.toHaveProperty('previous_response_id');

    const delta: ChatMessage[] = secondTurn(first, r1.text, 'And priorities?').slice(first.length + 1);
    const deltas: string[] = [];
    const r2: ChatResult = await provider.send({ messages: delta, sessionId: r1.sessionId, cacheKey: 'chat-7', onToken: (d) => deltas.push(d) });

    const body = server.requests[1].body;
    expect(body.previous_response_id).toBe(r1.sessionId);
    expect(body.prompt_cache_key).toBe('chat-7');
    expect(JSON.stringify(body.input)).not.toContain('You are Strata');
    // The server answers from the whole conversation reached through previous_response_id.
    expect(r2.text).toBe(`Seen context: ${NOTE_PATH}, ${SECOND_NOTE_PATH}. Question: And priorities?.`);
    expect(deltas.join('')).toBe(r2.text);
    expect(r2.sessionId).toMatch(/\S/);
    expect(r2.sessionId).not.toBe(r1.sessionId);
    expect(r2.usage.cachedReadTokens).toBeGreaterThanOrEqual(1024);
  });

  test('an unknown previous_response_id is a clear error that invalidates the session', async () => {
    const provider = providerFor(server, 'openai-responses');
    const error = await provider.send({ messages: firstTurn('Hi'), sessionId: 'resp_does_not_exist' }).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'ProviderError', kind: 'bad-request', sessionInvalid: true, providerId: 'test-openai-responses' });
    expect(String((error as Error).message)).toMatch(/OpenAI \(Responses API\) \(test-openai-responses\).*session/);
  });
});

describe('Anthropic caching', () => {
  test('cache_control sits on the blocks named by placeCacheBreakpoints; the second turn reads the cache', async () => {
    const provider = providerFor(server, 'anthropic');
    const first = firstTurn('What is a task?');
    const r1 = await provider.send({ messages: first, breakpoints: placeCacheBreakpoints(first) });
    const second = secondTurn(first, r1.text, 'And priorities?');
    const breakpoints = placeCacheBreakpoints(second);
    const deltas: string[] = [];
    const r2 = await provider.send({ messages: second, breakpoints, onToken: (d) => deltas.push(d) });

    // Turn 1: system block and the user block marked (system + turn).
    const body1 = server.requests[0].body;
    expect(body1.system).toEqual([{ type: 'text', text: first[0].content, cache_control: { type: 'ephemeral' } }]);
    expect(body1.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: first[1].content, cache_control: { type: 'ephemeral' } }] }]);

    // Turn 2: system, end of reused history (the previous reply), and the new user message.
    expect(breakpoints.map((b) => b.messageIndex)).toEqual([0, 2, 3]);
    type Block = { cache_control?: unknown };
    const body2 = server.requests[1].body as { system: Block[]; messages: Array<{ role: string; content: Block[] }> };
    const marked = (blocks: Block[]): boolean[] => blocks.map((b) => b.cache_control !== undefined);
    expect(marked(body2.system)).toEqual([true]);
    expect(body2.messages.map((m) => [m.role, marked(m.content)])).toEqual([
      ['user', [false]],
      ['assistant', [true]],
      ['user', [true]],
    ]);

    expect(r1.usage.cacheWriteTokens).toBeGreaterThan(1024);
    expect(r1.usage.cachedReadTokens).toBe(0);
    expect(r2.usage.cachedReadTokens).toBeGreaterThanOrEqual(r1.usage.cacheWriteTokens);
    expect(r2.usage.inputTokens).toBeGreaterThan(r2.usage.cachedReadTokens);
    expect(deltas.join('')).toBe(r2.text);

    // Writes at 1.25 × input, reads at 0.1 × input (claude-sonnet: $3 / MTok input).
    const c1 = costOf('claude-sonnet-4-20250514', r1.usage)!;
    expect(c1.cacheWriteUsd).toBeCloseTo((r1.usage.cacheWriteTokens * 3.75) / 1e6, 12);
    const c2 = costOf('claude-sonnet-4-20250514', r2.usage)!;
    expect(c2.cachedReadUsd).toBeCloseTo((r2.usage.cachedReadTokens * 0.3) / 1e6, 12);
  });

  test('never more than four cache_control blocks, whatever the caller asks', async () => {
    const messages: ChatMessage[] = [
      { role: 'system', content: 'System one.' },
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
      { role: 'assistant', content: 'd' },
      { role: 'user', content: 'Question?' },
    ];
    const all = messages.map((_, i) => ({ messageIndex: i, reason: 'history' as const }));
    await providerFor(server, 'anthropic').send({ messages, breakpoints: all });
    const body = server.requests[0].body;
    const count = JSON.stringify(body).split('"cache_control"').length - 1;
    expect(count).toBe(4);
  });

  test('the browser-access header Anthropic requires is sent', async () => {
    await providerFor(server, 'anthropic').send({ messages: firstTurn(QUESTION) });
    expect(server.requests[0].headers['anthropic-dangerous-direct-browser-access']).toBe('true');
  });

  test('a base URL pasted with /v1 still works', async () => {
    const result = await providerFor(server, 'anthropic', {}, { baseUrl: `${server.url}/v1/` }).send({ messages: firstTurn(QUESTION) });
    expect(result.text).toBe(EXPECTED);
    expect(server.requests[0].path).toBe('/v1/messages');
  });
});

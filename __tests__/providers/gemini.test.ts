import { z } from 'zod';
import type { ProviderServer } from '../../testing/providerServer';
import { costOf } from '../../src/providers/pricing';
import { listModels, chatModelsOnly } from '../../src/providers/modelList';
import { testConnection } from '../../src/providers/connectionTest';
import { providerConfigOf } from '../../src/providers/providerConfig';
import { createProvider } from '../../src/providers/createProvider';
import type { ProviderSettings } from '../../src/core/settings/settings';
import type { ChatMessage } from '../../src/core/engine/messages';
import { API_KEY, NOTE_PATH, NOTE_TEXT, firstTurn, noteBlock, providerFor, recordingSleep, secondTurn } from './helpers';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

// Gemini through LangChain's ChatGoogleGenerativeAI over real HTTP to the local server's v1beta API.

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK, apiKey: API_KEY });

const QUESTION = 'How do I set a due date?';
const EXPECTED = `Seen context: ${NOTE_PATH}. Question: ${QUESTION}.`;

/** A system message past Flash's 1024-token minimum: the library block carries the note. */
function libraryTurn(question: string): ChatMessage[] {
  return [
    { role: 'system', content: `You are Strata, a careful assistant for an Obsidian vault.\n\n<context_library>\n${noteBlock(NOTE_PATH, NOTE_TEXT)}\n</context_library>` },
    { role: 'user', content: question },
  ];
}

const generates = (): typeof server.requests => server.requests.filter((r) => r.path.includes(':generateContent') || r.path.includes(':streamGenerateContent'));

test('non-streaming and streaming: the reply reflects what was sent, usage from usageMetadata, the key in x-goog-api-key only', async () => {
  const provider = providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash-lite' });
  const plain = await provider.send({ messages: firstTurn(QUESTION) });
  expect(plain.text).toBe(EXPECTED);
  expect(plain.usage.inputTokens).toBeGreaterThan(1024);
  expect(plain.usage.outputTokens).toBeGreaterThan(0);
  const deltas: string[] = [];
  const streamed = await provider.send({ messages: firstTurn(QUESTION), onToken: (d) => deltas.push(d) });
  expect(streamed.text).toBe(EXPECTED);
  expect(deltas.length).toBeGreaterThan(3);
  expect(deltas.join('')).toBe(EXPECTED);
  // Streamed counts arrive as growth: the sums equal the non-streamed call's figures.
  expect(streamed.usage.inputTokens).toBe(plain.usage.inputTokens);
  expect(streamed.usage.outputTokens).toBe(plain.usage.outputTokens);
  // Implicit caching: the second request shares the whole prompt with the first.
  expect(streamed.usage.cachedReadTokens).toBe(plain.usage.inputTokens);
  const [first, second] = generates();
  expect(first.path).toBe('/v1beta/models/gemini-2.5-flash-lite:generateContent');
  expect(second.path).toBe('/v1beta/models/gemini-2.5-flash-lite:streamGenerateContent');
  expect(first.headers['x-goog-api-key']).toBe('[redacted]');
  expect(JSON.stringify(first.body)).not.toContain(API_KEY);
  expect(first.body.systemInstruction.parts[0].text).toContain('You are Strata');
  expect(first.body.contents[0].role).toBe('user');
});

test('explicit caching: the stable prefix becomes a cachedContents entry, reused while unchanged, replaced at a break, its storage counted', async () => {
  const provider = providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash' });
  const turn1 = libraryTurn(QUESTION);
  const a = await provider.send({ messages: turn1, cacheKey: 'strata-chat-1', onToken: () => undefined });
  const creates = server.requests.filter((r) => r.path === '/v1beta/cachedContents');
  expect(creates).toHaveLength(1);
  expect(creates[0].body.ttl).toBe('600s');
  expect(creates[0].body.systemInstruction.parts[0].text).toBe(turn1[0].content);
  const [g1] = generates();
  expect(g1.body.cachedContent).toMatch(/^cachedContents\//);
  expect(g1.body.systemInstruction).toBeUndefined();
  // The entry's tokens are read from cache, written once (at the input price) and stored for the TTL.
  expect(a.usage.cachedReadTokens).toBeGreaterThan(1024);
  expect(a.usage.cacheWriteTokens).toBe(a.usage.cachedReadTokens);
  expect(a.usage.cacheStorageTokenHours).toBeCloseTo(a.usage.cacheWriteTokens / 6, 6);
  const cost = costOf('gemini-2.5-flash', a.usage);
  expect(cost?.cacheStorageUsd).toBeCloseTo((a.usage.cacheWriteTokens / 6) * 1e-6, 12);

  const turn2 = [...turn1, { role: 'assistant' as const, content: a.text }, { role: 'user' as const, content: 'And a start date?' }];
  const b = await provider.send({ messages: turn2, cacheKey: 'strata-chat-1' });
  expect(server.requests.filter((r) => r.path === '/v1beta/cachedContents')).toHaveLength(1);
  expect(b.usage.cachedReadTokens).toBe(a.usage.cachedReadTokens);
  expect(b.usage.cacheWriteTokens).toBe(0);
  expect(b.usage.cacheStorageTokenHours).toBeUndefined();

  // A named break (here: the library block changed) deletes the old entry and makes a new one.
  const broken: ChatMessage[] = [{ role: 'system', content: `${turn1[0].content}\n\n(condensed)` }, ...turn2.slice(1)];
  const c = await provider.send({ messages: broken, cacheKey: 'strata-chat-1' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  const deletes = server.requests.filter((r) => r.path.startsWith('/v1beta/cachedContents/'));
  expect(deletes).toHaveLength(1);
  expect(deletes[0].path).toBe(`/v1beta/${g1.body.cachedContent}`);
  expect(c.usage.cacheWriteTokens).toBeGreaterThan(0);
});

test('a prefix below the minimum and a price where storage does not pay stay implicit', async () => {
  await providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash' }).send({ messages: firstTurn(QUESTION), cacheKey: 'small' });
  await providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash-lite' }).send({ messages: libraryTurn(QUESTION), cacheKey: 'lite' });
  expect(server.requests.filter((r) => r.path === '/v1beta/cachedContents')).toHaveLength(0);
});

test('agent mode: a scripted tool call comes back as a call, its result goes back as a functionResponse; with an entry the tools live in it', async () => {
  const provider = providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash' });
  const tools = [{ name: 'search_vault', description: 'Search the vault', parameters: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'], additionalProperties: false } }];
  const messages = libraryTurn('Find my tasks [[tool search_vault {"query":"tasks"}]]');
  const step1 = await provider.send({ messages, tools, cacheKey: 'agent', onToken: () => undefined });
  expect(step1.toolCalls).toEqual([expect.objectContaining({ name: 'search_vault', args: { query: 'tasks' } })]);
  const create = server.requests.find((r) => r.path === '/v1beta/cachedContents');
  expect(create?.body.tools[0].functionDeclarations[0].name).toBe('search_vault');
  expect(JSON.stringify(create?.body.tools)).not.toContain('additionalProperties');
  const calls = step1.toolCalls ?? [];
  const steps = [{ text: step1.text, calls, results: calls.map((c) => ({ callId: c.id, name: c.name, content: 'Tasks/Writing a task.md', isError: false })) }];
  const step2 = await provider.send({ messages, tools, steps, cacheKey: 'agent' });
  expect(step2.toolCalls ?? []).toHaveLength(0);
  expect(step2.text).toContain('search_vault');
  const last = generates().at(-1);
  expect(last?.body.tools).toBeUndefined();
  expect(JSON.stringify(last?.body.contents)).toContain('functionResponse');
});

test('structured output for the planner: a forced function call', async () => {
  const provider = providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash' });
  const schema = z.object({ answer: z.string() });
  const result = await provider.structured?.({ messages: [{ role: 'user', content: 'Say hi [[plan {"answer":"hi"}]]' }], schema, name: 'answer_plan' });
  expect(result?.method).toBe('functionCalling');
  const [request] = generates();
  expect(request.body.toolConfig.functionCallingConfig.mode).toBe('ANY');
  expect(request.body.toolConfig.functionCallingConfig.allowedFunctionNames).toEqual(['answer_plan']);
});

test('faults: a 429 is retried, a cut stream is an incomplete reply', async () => {
  const provider = providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash-lite' });
  server.injectFault({ kind: 'status', status: 429 });
  const ok = await provider.send({ messages: firstTurn(QUESTION) });
  expect(ok.text).toBe(EXPECTED);
  server.injectFault({ kind: 'cut-stream', afterChunks: 2 });
  await expect(provider.send({ messages: firstTurn(QUESTION), onToken: () => undefined })).rejects.toMatchObject({ kind: expect.any(String) });
});

test('a 429 with Google\'s RetryInfo waits what it names', async () => {
  const { sleep, waits } = recordingSleep();
  const provider = providerFor(server, 'gemini', { sleep }, { model: 'gemini-2.5-flash-lite' });
  server.injectFault({ kind: 'status', status: 429, retryAfterSeconds: 3 });
  expect((await provider.send({ messages: firstTurn(QUESTION) })).text).toBe(EXPECTED);
  expect(waits).toEqual([3000]);
});

test('the model list comes from GET /v1beta/models, chat models only', async () => {
  const ids = await listModels({ kind: 'gemini', baseUrl: server.url, apiKey: API_KEY, fetch });
  expect(chatModelsOnly(ids)).toEqual(['gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.5-pro', 'gemini-3-pro-preview']);
});

test('second turn of a chat without a library block: implicit cache hit on the first turn', async () => {
  const provider = providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash-lite' });
  const first = firstTurn(QUESTION);
  const a = await provider.send({ messages: first });
  const b = await provider.send({ messages: secondTurn(first, a.text, 'What next?') });
  expect(b.usage.cachedReadTokens).toBeGreaterThan(1024);
});

test('stop: aborting mid-stream ends the call as aborted, the text so far delivered', async () => {
  const provider = providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash-lite' });
  server.injectFault({ kind: 'stall-stream', afterChunks: 2 });
  const controller = new AbortController();
  const deltas: string[] = [];
  const sent = provider.send({
    messages: firstTurn(QUESTION),
    signal: controller.signal,
    onToken: (d) => {
      deltas.push(d);
      controller.abort();
    },
  });
  await expect(sent).rejects.toMatchObject({ kind: 'aborted' });
  expect(deltas.length).toBeGreaterThan(0);
});

test('Test connection: a working key answers, a wrong one is a bad key', async () => {
  const settings: ProviderSettings = { id: 'g', kind: 'gemini', name: 'Gemini', baseUrl: server.url, models: ['gemini-2.5-flash'], secretId: 'key' };
  const deps = (key: string) => ({
    build: (p: ProviderSettings, model: string) => createProvider(providerConfigOf(p, model), { getSecret: () => key, fetch, retry: { attempts: 1 } }),
    secret: () => key,
    now: () => 0,
  });
  expect(await testConnection(settings, deps(API_KEY))).toMatchObject({ ok: true });
  expect(await testConnection(settings, deps('wrong'))).toMatchObject({ ok: false, problem: 'bad-key' });
  // The test's reply is capped: maxOutputTokens reaches Gemini's generationConfig.
  expect(generates()[0].body.generationConfig.maxOutputTokens).toBe(16);
});

test('an entry past half its life is extended (PATCH ttl), its added storage counted; an expired one is made again', async () => {
  let clock = 1_700_000_000_000;
  const provider = providerFor(server, 'gemini', { now: () => clock }, { model: 'gemini-2.5-flash' });
  const turn = libraryTurn(QUESTION);
  const a = await provider.send({ messages: turn, cacheKey: 'long-chat' });
  const tokens = a.usage.cacheWriteTokens;
  clock += 6 * 60_000;
  const b = await provider.send({ messages: turn, cacheKey: 'long-chat' });
  const patch = server.requests.find((r) => r.path.startsWith('/v1beta/cachedContents/'));
  expect(patch?.body).toEqual({ ttl: '600s' });
  expect(b.usage.cacheWriteTokens).toBe(0);
  expect(b.usage.cacheStorageTokenHours).toBeCloseTo(tokens * 0.1, 6);
  clock += 11 * 60_000;
  const c = await provider.send({ messages: turn, cacheKey: 'long-chat' });
  expect(server.requests.filter((r) => r.path === '/v1beta/cachedContents')).toHaveLength(2);
  expect(c.usage.cacheWriteTokens).toBe(tokens);
});

test('an entry gone on the server (expired early, deleted elsewhere) is made again within the same turn, once', async () => {
  const turn = libraryTurn(QUESTION);
  await providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash' }).send({ messages: turn, cacheKey: 'gone' });
  server.reset();
  // A new provider object (the chat makes one per turn) still knows the entry: the server answers 403 for it.
  const again = await providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash' }).send({ messages: turn, cacheKey: 'gone' });
  expect(again.text).toBe(`Seen context: ${NOTE_PATH}. Question: ${QUESTION}.`);
  expect(again.usage.cacheWriteTokens).toBeGreaterThan(0);
  expect(server.requests.filter((r) => r.path === '/v1beta/cachedContents')).toHaveLength(1);
  expect(generates()).toHaveLength(2);
});

test('a new provider object per turn reuses the entry (the book outlives it)', async () => {
  const turn = libraryTurn(QUESTION);
  await providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash' }).send({ messages: turn, cacheKey: 'per-turn' });
  const b = await providerFor(server, 'gemini', {}, { model: 'gemini-2.5-flash' }).send({ messages: turn, cacheKey: 'per-turn' });
  expect(server.requests.filter((r) => r.path === '/v1beta/cachedContents')).toHaveLength(1);
  expect(b.usage.cacheWriteTokens).toBe(0);
  expect(b.usage.cachedReadTokens).toBeGreaterThan(1024);
});

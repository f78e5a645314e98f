/**
 * Vault QA end to end through the controller: real HTTP (LangChain to the local provider server)
 * for the chat model, the rewrite on the summary model (an in-memory model with scripted queries,
 * recorded), the test-only term-overlap search over the example vault. Each turn's localSearch
 * block is a tool output of its turn: every request extends the previous one byte for byte, the
 * block stays in history, the saved note reproduces the same bytes after reopening (even with a
 * source note edited meanwhile), and a missing index says so without sending anything.
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/core/chat/chatController';
import { type ProviderFactory } from '../../../src/core/ports/providerFactory';
import { REWRITE_INSTRUCTIONS, searchQuery } from '../../../src/core/vaultQa/queryRewrite';
import { INDEX_NOT_READY } from '../../../src/core/vaultQa/vaultQa';
import type { ChatRequest } from '../../../src/core/ports/chatModel';
import type { StrataSettings } from '../../../src/core/settings/settings';
import type { VaultSearch } from '../../../src/core/search/types';
import { FsVault } from '../../../src/node/fsVault';
import type { ProviderServer } from '../../../testing/providerServer';
import { MemoryChatModel } from '../../helpers/memoryChatModel';
import { TermOverlapSearch } from '../../helpers/termSearch';
import { httpProviders, makeController, NoteFiles, settingsFor, VAULT } from '../chat/controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
let dir: string;
useProviderServer((s) => (server = s));
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-qa-'));
  cpSync(VAULT, dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Scripted standalone queries: what a summary model would fold in from the conversation. */
const REWRITES: Record<string, string> = {
  'How much did they cost?': 'automatic vent openers cost budget',
  'And the rain barrels?': 'rain barrels cost budget',
  'What about storms?': 'vent openers wind storms',
};

function qaSettings(): StrataSettings {
  const base = settingsFor(server.url);
  return { ...base, summaryModel: 'gpt-4o-mini', defaultMode: 'vault-qa', providers: base.providers.map((p) => ({ ...p, models: ['gpt-4o', 'gpt-4o-mini'] })) };
}

/** The chat model over HTTP; the summary model in memory, answering rewrite requests from REWRITES. */
function providersWith(summary: MemoryChatModel): ProviderFactory {
  return (p, model) => (model === 'gpt-4o-mini' ? summary : httpProviders(p, model));
}

function summaryModel(): MemoryChatModel {
  return new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o-mini' }, 128_000, (request: ChatRequest) => {
    const user = request.messages[1]?.content ?? '';
    const follow = /Follow-up message:\n([\s\S]*?)\n\nStandalone search query:$/.exec(user)?.[1];
    return follow ? REWRITES[follow] ?? follow : undefined;
  });
}

type Wire = { role: string; content: string };
const chatRequests = (): Wire[][] =>
  server.requests.filter((r) => r.path.includes('chat/completions')).map((r) => (r.body as { messages: Wire[] }).messages);

test('three Vault QA turns: each request extends the previous byte for byte; the blocks stay in history; rewrites from the second turn', async () => {
  const summary = summaryModel();
  const search = new TermOverlapSearch(dir);
  const h = makeController(qaSettings(), { providers: providersWith(summary), vault: new FsVault(dir) });
  const controller = new ChatController({ ...h.deps, search: () => search });
  expect(controller.state.conversation.mode).toBe('vault-qa');

  await controller.send('Which vent openers work without electricity?');
  await controller.send('How much did they cost?');
  await controller.send('What about storms?');

  const requests = chatRequests();
  expect(requests).toHaveLength(3);
  const turns = controller.state.answered;
  for (let k = 1; k < requests.length; k++) {
    // The previous request, plus its reply, is the start of this one, byte for byte.
    const before = [...requests[k - 1], { role: 'assistant', content: turns[k - 1].reply! }];
    expect(JSON.stringify(requests[k].slice(0, before.length))).toBe(JSON.stringify(before));
    expect(turns[k].envelope?.prefixChange).toBeNull();
  }
  // The first turn searched the message itself; the others a rewrite on the summary model.
  expect(turns.map((t) => t.search?.query)).toEqual(['Which vent openers work without electricity?', 'automatic vent openers cost budget', 'vent openers wind storms']);
  expect(turns[0].search?.rewrite).toBeUndefined();
  expect(turns[1].search?.rewrite).toMatchObject({ status: 'rewritten', provider: 'local', model: 'gpt-4o-mini' });
  expect(turns[1].search?.rewrite?.usage?.inputTokens).toBeGreaterThan(0);
  expect(summary.requests).toHaveLength(2);
  expect(summary.requests[0].messages[0]).toEqual({ role: 'system', content: REWRITE_INSTRUCTIONS });
  // The rewrite's prompt holds the conversation before the message.
  expect(summary.requests[1].messages[1].content).toContain('User: How much did they cost?\nAssistant: ');

  // Each turn's block is a tool output of that turn, in its user message, before the question; it stays in history.
  const last = requests[2];
  const blocks = last.filter((m) => m.role === 'user').map((m) => m.content.match(/<tool_output tool="localSearch" input="([^"]*)">/)?.[1]);
  expect(blocks).toEqual(['Which vent openers work without electricity?', 'automatic vent openers cost budget', 'vent openers wind storms']);
  expect(last[0].role).toBe('system');
  expect(last[0].content).not.toContain('localSearch');
  expect(turns[0].search?.sources).toContainEqual({ path: 'Projects/Greenhouse/Ventilation.md', heading: 'Ventilation' });
  expect(turns[1].search?.sources.map((s) => s.heading)).toContain('Budget');
  expect(last[last.length - 1].content).toMatch(/\n\[\d\] Projects\/Greenhouse\/Ventilation\.md › Ventilation\n[\s\S]*Citation rules:[\s\S]*<\/tool_output>\n\nWhat about storms\?$/);
  // Counted in the budget like any block: the L3 layer of the turn measures it.
  expect(turns[2].envelope!.layers.L3.tokens).toBeGreaterThan(50);

  const usage = turns.map((t) => t.usage!);
  const cached = usage.reduce((s, u) => s + u.cachedReadTokens, 0);
  const input = usage.reduce((s, u) => s + u.inputTokens, 0);
  // The provider server's OpenAI rule (a cached prefix of 1024+ tokens, in 128-token steps): turns
  // 2 and 3 read everything before their own user message from the cache.
  expect(usage[0].cachedReadTokens).toBe(0);
  for (const k of [1, 2]) expect(usage[k].cachedReadTokens).toBe(Math.floor(turns[k - 1].usage!.inputTokens / 128) * 128);
  expect(cached / input).toBeGreaterThan(0.5);
  // The rewrites are part of what the chat cost: in its totals, and saved with their turn.
  const rewrites = turns.map((t) => t.search?.rewrite?.usage?.inputTokens ?? 0);
  expect(controller.state.totalUsage.inputTokens).toBe(input + rewrites[1] + rewrites[2]);
  expect(typeof turns[1].search?.rewrite?.cost).toBe('number');
  expect(controller.state.totalCost).toBeCloseTo(turns.reduce((s, t) => s + (t.cost ?? 0) + (t.search?.rewrite?.cost ?? 0), 0), 10);
  await controller.flush();
  const saved = h.files.chat(controller.state.conversation.id)!;
  expect(saved.turns.map((t) => t.search)).toEqual(turns.map((t) => t.search));
  await controller.flush();
});

test('the same over Anthropic Messages: turns 2 and 3 read the earlier turns, search blocks included, from the cache', async () => {
  const base = settingsFor(server.url, 'anthropic');
  const settings = { ...base, summaryModel: 'gpt-4o-mini', defaultMode: 'vault-qa' as const };
  const search = new TermOverlapSearch(dir);
  const h = makeController(settings, { providers: providersWith(summaryModel()), vault: new FsVault(dir) });
  const controller = new ChatController({ ...h.deps, search: () => search });
  await controller.send('Which vent openers work without electricity?');
  await controller.send('How much did they cost?');
  await controller.send('What about storms?');
  const turns = controller.state.answered;
  expect(turns.map((t) => t.envelope?.prefixChange ?? null)).toEqual([null, null, null]);
  const usage = turns.map((t) => t.usage!);
  expect(usage[0].cachedReadTokens).toBe(0);
  expect(usage[1].cachedReadTokens).toBeGreaterThan(0);
  expect(usage[2].cachedReadTokens).toBeGreaterThan(usage[1].cachedReadTokens);
  await controller.flush();
});

test('a retry or a regenerate does not pay for the same rewrite again, nor after reopening', async () => {
  const summary = summaryModel();
  const search = new TermOverlapSearch(dir);
  const files = new NoteFiles();
  const base = makeController(qaSettings(), { providers: providersWith(summary), vault: new FsVault(dir), files });
  const controller = new ChatController({ ...base.deps, search: () => search });
  await controller.send('Which vent openers work without electricity?');
  await controller.send('How much did they cost?');
  expect(summary.requests).toHaveLength(1);
  await controller.regenerate();
  expect(summary.requests).toHaveLength(1);
  expect(controller.state.answered[1].search).toMatchObject({ query: 'automatic vent openers cost budget', rewrite: { status: 'cached' } });
  // Failure then retry: the cache holds.
  server.injectFault({ kind: 'status', status: 500, times: 5 });
  await controller.send('And the rain barrels?');
  expect(controller.state.pending?.status).toBe('failed');
  expect(summary.requests).toHaveLength(2);
  server.clearFaults();
  await controller.retry();
  expect(summary.requests).toHaveLength(2);
  expect(controller.state.answered[2].search?.query).toBe('rain barrels cost budget');
  await controller.flush();

  const reopened = new ChatController({ ...base.deps, search: () => search });
  await reopened.open(controller.state.conversation.id);
  await reopened.regenerate();
  expect(summary.requests).toHaveLength(2);
  expect(reopened.state.answered[2].search?.rewrite?.status).toBe('cached');
});

test('the rewrite failing or timing out searches the message as it is, said only in the turn record', async () => {
  const summary = summaryModel();
  summary.inject({ kind: 'hang' });
  const search = new TermOverlapSearch(dir);
  const base = makeController(qaSettings(), { providers: providersWith(summary), vault: new FsVault(dir) });
  const controller = new ChatController({ ...base.deps, search: () => search });
  await controller.send('Which vent openers work without electricity?');
  // The controller's rewrite times out after REWRITE_TIMEOUT_MS: the same path, with a short timeout, directly.
  const timedOut = await searchQuery(qaSettings(), { provider: 'local', model: 'gpt-4o' }, 'How much did they cost?', [{ userText: 'a', reply: 'b' }], new Map(), {
    providers: providersWith(summary),
    signal: new AbortController().signal,
    timeoutMs: 20,
  });
  expect(timedOut).toMatchObject({ query: 'How much did they cost?', rewrite: { status: 'failed', detail: 'timed out after 20 ms' } });
  summary.inject({ kind: 'fail', message: 'model overloaded' });
  await controller.send('How much did they cost?');
  const turn = controller.state.answered[1];
  expect(turn.status).toBe('complete');
  expect(turn.search).toMatchObject({ query: 'How much did they cost?', rewrite: { status: 'failed', detail: 'model overloaded' } });
  expect(controller.state.warnings).toEqual([]);
});

test('reopening reproduces the next request byte for byte, even after a source note was edited', async () => {
  const summary = summaryModel();
  const files = new NoteFiles();
  const base = makeController(qaSettings(), { providers: providersWith(summary), vault: new FsVault(dir), files });
  const search = new TermOverlapSearch(dir);
  const a = new ChatController({ ...base.deps, search: () => search });
  await a.send('Which vent openers work without electricity?');
  await a.send('How much did they cost?');
  await a.flush();
  const id = a.state.conversation.id;

  // The same chat, reopened from its note in another controller, after the Ventilation note changed.
  const copy = new NoteFiles();
  for (const [p, t] of files.files) copy.files.set(p, t);
  const vent = path.join(dir, 'Projects/Greenhouse/Ventilation.md');
  const h2 = makeController(qaSettings(), { providers: providersWith(summaryModel()), vault: new FsVault(dir), files: copy, ids: ['chat-q'] });
  await a.send('What about storms?');
  const original = chatRequests().at(-1)!;
  writeFileSync(vent, readFileSync(vent, 'utf8').replace('wax expands', 'wax swells'));
  const b = new ChatController({ ...h2.deps, search: () => search });
  await b.open(id);
  expect(b.state.warnings).toEqual([]);
  await b.send('What about storms?');
  const reopened = chatRequests().at(-1)!;
  const turnB = b.state.answered[2];
  // History (the earlier blocks as they were sent) is the same bytes; the prefix did not break.
  expect(JSON.stringify(reopened.slice(0, -1))).toBe(JSON.stringify(original.slice(0, -1)));
  expect(turnB.envelope?.prefixChange).toBeNull();
  // The new search reads the note as it is now.
  expect(reopened.at(-1)!.content).toContain('wax swells');
  expect(original.at(-1)!.content).toContain('wax expands');
  expect(reopened[1].content).toContain('wax expands');
});

test('no index yet: Vault QA says so and sends nothing; the message is kept for a retry', async () => {
  let search: VaultSearch | null = null;
  const base = makeController(qaSettings(), { providers: providersWith(summaryModel()), vault: new FsVault(dir) });
  const controller = new ChatController({ ...base.deps, search: () => search });
  await controller.send('Which vent openers work without electricity?');
  expect(chatRequests()).toHaveLength(0);
  expect(controller.state.pending).toMatchObject({ status: 'failed', error: INDEX_NOT_READY });
  search = new TermOverlapSearch(dir);
  await controller.retry();
  expect(controller.state.answered).toHaveLength(1);
  expect(chatRequests()).toHaveLength(1);
});

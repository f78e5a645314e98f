/**
 * The chain runner end to end in Node: real resolver and engine over real markdown files, real
 * provider adapters (LangChain clients) over real HTTP to the local provider server.
 */
import path from 'node:path';
import { ChatSession, type ChatSessionDeps, type ProviderFactory } from '../../src/core/chat/chatSession';
import type { ChatStore } from '../../src/core/chat/types';
import { loadSettings, type StrataSettings } from '../../src/core/settings';
import { FsVault } from '../../src/node/fsVault';
import { startProviderServer, type ProviderServer } from '../../src/node/providerServer';
import { costOf, createProvider } from '../../src/providers';
import { JsonChatStore } from './memoryStore';
import { ArchiveChatStore } from '../../src/core/chat/archiveStore';
import { ChatArchive } from '../../src/core/conversation/archive';
import { MemoryChatStore as MemoryFileStore } from '../../src/core/conversation/store';

const VAULT = path.join(__dirname, '..', '..', 'examples', 'vault');
const PLAN = 'Projects/Greenhouse/Plan.md';
const VENT = 'Projects/Greenhouse/Ventilation.md';
const KEY = 'sk-test-local-0123456789';

let server: ProviderServer;

beforeAll(async () => {
  server = await startProviderServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => server.reset());

function settingsFor(kind: 'openai' | 'anthropic' | 'openai-responses' = 'openai', secretId = 'local-key'): StrataSettings {
  const { settings, warnings } = loadSettings({
    providers: [
      {
        id: 'local',
        kind,
        name: 'Local',
        baseUrl: kind === 'anthropic' ? server.url : `${server.url}/v1`,
        models: [kind === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o'],
        secretId,
      },
    ],
    defaultProviderId: 'local',
    defaultModel: kind === 'anthropic' ? 'claude-sonnet-4-5' : 'gpt-4o',
  });
  expect(warnings).toEqual([]);
  return settings;
}

function makeSession<S extends ChatStore = JsonChatStore>(
  settings: StrataSettings,
  store: S = new JsonChatStore() as unknown as S,
  ids = ['chat-a', 'chat-b', 'chat-c'],
): { session: ChatSession; store: S; deps: ChatSessionDeps } {
  let clock = 1_700_000_000_000;
  const queue = [...ids];
  const providers: ProviderFactory = (p, model) =>
    createProvider(
      { id: p.id, kind: p.kind, model, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), ...(p.secretId ? { secretId: p.secretId } : {}) },
      { getSecret: (id) => (id === 'local-key' ? KEY : null), retry: { baseDelayMs: 1, maxDelayMs: 2 } },
    );
  const deps: ChatSessionDeps = {
    vault: new FsVault(VAULT),
    store,
    providers,
    settings: () => settings,
    now: () => (clock += 1000),
    newId: () => queue.shift() ?? 'chat-z',
    costOf: (model, usage) => costOf(model, usage)?.usd ?? null,
  };
  return { session: new ChatSession(deps), store, deps };
}

function lastBody(): { messages?: { role: string; content: unknown }[]; stream?: boolean } {
  const generations = server.requests.filter((r) => r.api !== undefined && r.path.includes('completions'));
  return generations[generations.length - 1].body as { messages?: { role: string; content: unknown }[]; stream?: boolean };
}

describe('ChatSession (chain runner)', () => {
  test('send: resolves chips, streams the reply, commits, reports usage and saves', async () => {
    const { session, store } = makeSession(settingsFor());
    let streamEvents = 0;
    let sawStreamingText = '';
    session.subscribe((change) => {
      if (change === 'stream') {
        streamEvents++;
        sawStreamingText = session.state.streamingText ?? '';
      }
    });
    await session.send('What is the plan?', [{ kind: 'note', path: PLAN }]);
    await session.flush();
    const state = session.state;
    expect(state.pending).toBeNull();
    expect(state.turns).toHaveLength(1);
    expect(state.turns[0].reply).toBe(`Seen context: ${PLAN}. Question: What is the plan?.`);
    expect(streamEvents).toBeGreaterThan(1);
    expect(sawStreamingText.length).toBeGreaterThan(0);
    expect(lastBody().stream).toBe(true);
    // Usage as the server reported it, a known price, and the request's size by layer.
    expect(state.lastTurn?.usage.inputTokens).toBeGreaterThan(0);
    expect(state.lastTurn?.usage.outputTokens).toBeGreaterThan(0);
    expect(state.totalCost).not.toBeNull();
    expect(state.contextUsage?.window).toBe(128_000);
    expect(state.contextUsage?.layers.turn).toBeGreaterThan(state.contextUsage?.layers.message ?? 0);
    expect(state.contextUsage?.layers.system).toBeGreaterThan(0);
    expect(state.library.map((i) => i.id)).toEqual([PLAN]);
    expect(state.library[0].tokens).toBeGreaterThan(10);
    expect(state.title).toBe('What is the plan?');
    // Saved, with no secret anywhere in it.
    const saved = store.files.get('chat-a') ?? '';
    expect(saved).toContain('What is the plan?');
    expect(saved).not.toContain(KEY);
    expect(state.saved).toBe(true);
  });

  test('a second turn references the library note and adds a new one; the prefix extends', async () => {
    const { session } = makeSession(settingsFor());
    await session.send('What is the plan?', [{ kind: 'note', path: PLAN }]);
    await session.send('And ventilation?', [{ kind: 'note', path: PLAN }, { kind: 'note', path: VENT }]);
    const state = session.state;
    expect(state.turns[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: And ventilation?.`);
    expect(state.turns[1].meta.prefixChange).toBeNull();
    expect(state.library.map((i) => i.id)).toEqual([PLAN, VENT]);
    // The history went out as it was sent: request 2 starts with request 1's messages and reply.
    const [first, second] = server.requests.filter((r) => r.path.includes('completions')).map((r) => r.body as { messages: unknown[] });
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect(state.totalUsage.inputTokens).toBe(state.turns[0].meta.usage.inputTokens + state.turns[1].meta.usage.inputTokens);
  });

  test('an injected 500 keeps the message, saved and marked failed, with a clear error; retry sends it again', async () => {
    const { session, store } = makeSession(settingsFor());
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    await session.send('Summarise the plan', [{ kind: 'note', path: PLAN }]);
    await session.flush();
    let state = session.state;
    expect(state.turns).toHaveLength(0);
    expect(state.pending?.status).toBe('failed');
    expect(state.pending?.userText).toBe('Summarise the plan');
    expect(state.pending?.error).toMatch(/500/);
    expect(state.pending?.error).not.toContain(KEY);
    expect(state.library).toEqual([]); // nothing committed
    const saved = JSON.parse(store.files.get('chat-a') ?? '{}') as { pending?: { userText: string; status: string } };
    expect(saved.pending).toMatchObject({ userText: 'Summarise the plan', status: 'failed' });

    await session.retry();
    state = session.state;
    expect(state.pending).toBeNull();
    expect(state.turns.map((t) => t.userText)).toEqual(['Summarise the plan']);
    expect(state.turns[0].reply).toBe(`Seen context: ${PLAN}. Question: Summarise the plan.`);
  });

  test('stop while streaming: the message is kept, nothing is committed, retry completes the turn', async () => {
    const { session } = makeSession(settingsFor());
    const unsubscribe = session.subscribe((change) => {
      if (change === 'stream' && (session.state.streamingText ?? '').length > 0) session.stop();
    });
    await session.send('Stop me', [{ kind: 'note', path: PLAN }]);
    unsubscribe();
    let state = session.state;
    expect(state.busy).toBe(false);
    expect(state.turns).toHaveLength(0);
    expect(state.pending?.status).toBe('stopped');
    expect(state.pending?.partialReply?.length ?? 0).toBeGreaterThan(0);
    expect(state.library).toEqual([]);
    await session.retry();
    state = session.state;
    expect(state.turns.map((t) => t.reply)).toEqual([`Seen context: ${PLAN}. Question: Stop me.`]);
  });

  test('regenerate and edit-and-resend replace the last turn (history change said as such)', async () => {
    const { session } = makeSession(settingsFor());
    await session.send('First question', [{ kind: 'note', path: PLAN }]);
    await session.send('Second question', [{ kind: 'note', path: VENT }]);
    await session.regenerate();
    let state = session.state;
    expect(state.turns.map((t) => t.userText)).toEqual(['First question', 'Second question']);
    expect(state.turns[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Second question.`);
    expect(state.turns[1].meta.prefixChange?.reason).toBe('history-edited');

    await session.editLast('Second question, rephrased');
    state = session.state;
    expect(state.turns.map((t) => t.userText)).toEqual(['First question', 'Second question, rephrased']);
    expect(state.turns[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Second question, rephrased.`);
    expect(state.library.map((i) => i.id)).toEqual([PLAN, VENT]);
  });

  test('a regeneration that fails keeps the previous answer, and the chat continues from it', async () => {
    const { session } = makeSession(settingsFor());
    await session.send('One', [{ kind: 'note', path: PLAN }]);
    await session.send('Two', []);
    const before = session.state.turns.map((t) => t.reply);
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    await session.regenerate();
    let state = session.state;
    expect(state.pending).toBeNull();
    expect(state.turns.map((t) => t.reply)).toEqual(before);
    expect(state.warnings.some((w) => w.startsWith('Regenerate failed: ') && w.endsWith('the previous answer is kept.'))).toBe(true);
    await session.send('Three', []);
    state = session.state;
    expect(state.turns).toHaveLength(3);
    expect(state.turns[2].meta.prefixChange).toBeNull(); // the restored history is the one the provider saw
  });

  test('removing a library item is a named prefix break and the model no longer sees it', async () => {
    const { session } = makeSession(settingsFor());
    await session.send('One', [{ kind: 'note', path: PLAN }, { kind: 'note', path: VENT }]);
    const message = session.removeLibraryItem(VENT);
    expect(message).toMatch(/removed from the Context Library/);
    expect(session.state.warnings.join('\n')).toMatch(/Ventilation/);
    expect(session.state.library.map((i) => i.id)).toEqual([PLAN]);
    await session.send('Two', []);
    const state = session.state;
    expect(state.turns[1].meta.prefixChange?.reason).toBe('library-item-removed');
    expect(state.turns[1].reply).toBe(`Seen context: ${PLAN}. Question: Two.`);
    expect(state.warnings).toEqual([]);
  });

  test('a reopened chat continues with the same request an unbroken session would send', async () => {
    const settings = settingsFor();
    const store = new JsonChatStore();
    const a = makeSession(settings, store, ['chat-a']).session;
    await a.send('One', [{ kind: 'note', path: PLAN }]);
    await a.send('Two', [{ kind: 'note', path: VENT }]);
    await a.flush();
    const unbroken = makeSession(settings, new JsonChatStore(), ['chat-u']).session;
    await unbroken.send('One', [{ kind: 'note', path: PLAN }]);
    await unbroken.send('Two', [{ kind: 'note', path: VENT }]);
    await unbroken.send('Three', [{ kind: 'note', path: PLAN }]);
    const expected = lastBody().messages;

    const b = makeSession(settings, store, ['unused']).session;
    expect((await b.list()).map((e) => e.id)).toEqual(['chat-a']);
    await b.open('chat-a');
    expect(b.state.turns.map((t) => t.userText)).toEqual(['One', 'Two']);
    expect(b.state.library.map((i) => i.id)).toEqual([PLAN, VENT]);
    await b.send('Three', [{ kind: 'note', path: PLAN }]);
    expect(b.state.turns[2].meta.prefixChange).toBeNull();
    expect(lastBody().messages).toEqual(expected);
  });

  test('rename, list and delete go through the store; deleting the open chat starts a new one', async () => {
    const { session, store } = makeSession(settingsFor());
    await session.send('Hello there', []);
    await session.rename('Greenhouse talk');
    expect((await session.list()).map((e) => e.title)).toEqual(['Greenhouse talk']);
    await session.remove('chat-a');
    expect(store.files.size).toBe(0);
    expect(session.state.id).toBe('chat-b');
    expect(session.state.turns).toEqual([]);
  });

  test('a missing API key fails with a clear message and keeps the words', async () => {
    const { session } = makeSession(settingsFor('openai', 'missing-key'));
    await session.send('Anyone there?', []);
    const state = session.state;
    expect(state.pending?.status).toBe('failed');
    expect(state.pending?.error).toMatch(/key/i);
    expect(server.requests.filter((r) => r.path.includes('completions'))).toHaveLength(0);
  });

  test('a request over the model window is not sent: the words are kept and the error says what to do', async () => {
    const settings: StrataSettings = { ...settingsFor(), contextWindows: { 'gpt-4o': 3_000 } };
    const { session } = makeSession(settings);
    await session.send('What is in the climate log?', [{ kind: 'note', path: 'Projects/Greenhouse/Climate log.md' }, { kind: 'note', path: PLAN }]);
    const state = session.state;
    expect(state.pending?.status).toBe('failed');
    expect(state.pending?.userText).toBe('What is in the climate log?');
    expect(state.pending?.error).toMatch(/^This request is [\d,]+ tokens; gpt-4o takes 3,000, of which 750 are kept for the reply\./);
    expect(server.requests.filter((r) => r.path.includes('completions'))).toHaveLength(0);
    // With a larger window the same message goes through on retry.
    settings.contextWindows = {};
    await session.retry();
    expect(session.state.pending).toBeNull();
    expect(session.state.turns).toHaveLength(1);
  });

  test('a failed save is a visible warning, not a lost turn', async () => {
    const { session, store } = makeSession(settingsFor());
    store.failNext = 2; // the save before sending and the one after the reply
    await session.send('Save me', []);
    await session.flush();
    expect(session.state.turns).toHaveLength(1);
    expect(session.state.warnings.join('\n')).toMatch(/could not be saved: disk full/);
    await session.send('Again', []);
    await session.flush();
    expect(session.state.warnings).toEqual([]);
    expect(store.files.get('chat-a')).toContain('Save me');
  });

  test('Anthropic over HTTP: streaming with cache breakpoints, usage on every turn', async () => {
    const { session } = makeSession(settingsFor('anthropic'));
    await session.send('One', [{ kind: 'note', path: PLAN }, { kind: 'note', path: VENT }]);
    await session.send('Two', [{ kind: 'note', path: PLAN }]);
    const state = session.state;
    expect(state.turns[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Two.`);
    expect(state.turns.every((t) => t.meta.usage.inputTokens > 0)).toBe(true);
    expect(state.contextUsage?.window).toBe(200_000);
  });

  test('OpenAI Responses (session-stateful): the second turn resumes the session and sends only the delta', async () => {
    const { session } = makeSession(settingsFor('openai-responses'));
    await session.send('One', [{ kind: 'note', path: PLAN }]);
    await session.send('Two', [{ kind: 'note', path: VENT }]);
    const state = session.state;
    expect(state.turns.map((t) => t.meta.compileMode)).toEqual(['full', 'delta']);
    expect(state.turns[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Two.`);
    const bodies = server.requests.filter((r) => r.path.includes('responses')).map((r) => r.body as { previous_response_id?: string; input: unknown });
    expect(bodies).toHaveLength(2);
    expect(bodies[1].previous_response_id).toBeTruthy();
    expect(JSON.stringify(bodies[1].input)).not.toContain('One');
  });

  test('mode is a dynamic fragment: switching it does not break the prefix', async () => {
    const { session } = makeSession(settingsFor());
    await session.send('One', [{ kind: 'note', path: PLAN }]);
    session.setMode('notes-only');
    await session.send('Two', []);
    expect(session.state.turns[1].meta.prefixChange).toBeNull();
    const body = lastBody();
    const last = body.messages?.[body.messages.length - 1];
    expect(JSON.stringify(last?.content)).toContain('notes only');
  });
});

describe('ChatSession over chat notes (ChatArchive + codec + rehydrate)', () => {
  test('an edit made in the note while the chat is open is kept by every later save and shown in the chat', async () => {
    const settings = settingsFor();
    const files = new MemoryFileStore();
    let now = 1_700_000_000_000;
    const archive = new ChatArchive(files, { now: () => (now += 1000) }, settings.chatFolder);
    const store = new ArchiveChatStore(() => archive, new FsVault(VAULT));
    const { session } = makeSession(settings, store, ['chat-edit']);
    await session.send('One', [{ kind: 'note', path: PLAN }]);
    await session.flush();
    const [notePath] = [...files.files.keys()];
    const reply = session.state.turns[0].reply;
    files.files.set(notePath, (files.files.get(notePath) ?? '').replace(reply, 'My own corrected answer.'));
    await session.send('Two', []);
    await session.flush();
    expect(files.files.get(notePath)).toContain('My own corrected answer.');
    expect(session.state.turns[0].reply).toBe('My own corrected answer.');
    expect(session.state.warnings.some((w) => w.includes('edited while the chat was open'))).toBe(true);
    await session.send('Three', []);
    await session.flush();
    expect(files.files.get(notePath)).toContain('My own corrected answer.');
    expect(files.files.get(notePath)).not.toContain(reply);
  });

  test('saved as a chat note after each turn; reopened, it continues with the unbroken request; a failed message survives the reload', async () => {
    const settings = settingsFor();
    const files = new MemoryFileStore();
    let now = 1_700_000_000_000;
    const archive = new ChatArchive(files, { now: () => (now += 1000) }, settings.chatFolder);
    const vault = new FsVault(VAULT);
    const store = new ArchiveChatStore(() => archive, vault);
    const a = makeSession(settings, store, ['chat-a']).session;
    await a.send('One', [{ kind: 'note', path: PLAN }]);
    await a.send('Two', [{ kind: 'note', path: VENT }]);
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    await a.send('Three', [{ kind: 'note', path: PLAN }]);
    await a.flush();
    expect(a.state.pending?.status).toBe('failed');
    const [notePath] = [...files.files.keys()];
    expect(notePath).toMatch(/^Strata\/Chats\/.*One\.md$/);
    const note = files.files.get(notePath) ?? '';
    expect(note).toContain('Three');
    expect(note).not.toContain(KEY);
    // No note text in the chat note: the library is kept as refs.
    expect(note).not.toContain('<note_context');

    const unbroken = makeSession(settings, new JsonChatStore(), ['chat-u']).session;
    await unbroken.send('One', [{ kind: 'note', path: PLAN }]);
    await unbroken.send('Two', [{ kind: 'note', path: VENT }]);
    await unbroken.send('Three', [{ kind: 'note', path: PLAN }]);
    const expected = lastBody().messages;

    const reopenedArchive = new ChatArchive(files, { now: () => (now += 1000) }, settings.chatFolder);
    const b = makeSession(settings, new ArchiveChatStore(() => reopenedArchive, vault), ['unused']).session;
    const list = await b.list();
    expect(list.map((e) => e.title)).toEqual(['One']);
    await b.open(list[0].id);
    expect(b.state.warnings).toEqual([]);
    expect(b.state.turns.map((t) => t.userText)).toEqual(['One', 'Two']);
    expect(b.state.pending).toMatchObject({ userText: 'Three', status: 'failed', chips: [{ kind: 'note', path: PLAN }] });
    expect(b.state.library.map((i) => i.id)).toEqual([PLAN, VENT]);
    await b.retry();
    expect(b.state.turns[2].meta.prefixChange).toBeNull();
    expect(lastBody().messages).toEqual(expected);
    await b.flush();
    expect(files.files.size).toBe(1);

    await b.rename('Greenhouse chat');
    expect((await b.list()).map((e) => e.title)).toEqual(['Greenhouse chat']);
    expect((await store.search('zeppelin')).length).toBe(0);
    expect((await store.search('two')).map((e) => e.title)).toEqual(['Greenhouse chat']);
    await b.remove(b.state.id);
    expect(await b.list()).toEqual([]);
  });
});

describe('unanswered messages', () => {
  test('writing something else after a failure keeps the failed words (shown, saved, reopened), never resent', async () => {
    const settings = settingsFor();
    const files = new MemoryFileStore();
    let now = 1_700_000_000_000;
    const archive = new ChatArchive(files, { now: () => (now += 1000) }, settings.chatFolder);
    const vault = new FsVault(VAULT);
    const { session } = makeSession(settings, new ArchiveChatStore(() => archive, vault), ['chat-a']);
    await session.send('One', [{ kind: 'note', path: PLAN }]);
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    await session.send('Lost words?', []);
    expect(session.state.pending?.status).toBe('failed');
    await session.send('Something else', []);
    await session.flush();
    expect(session.state.pending).toBeNull();
    expect(session.state.unanswered).toEqual([expect.objectContaining({ afterTurn: 1, userText: 'Lost words?' })]);
    expect(session.state.turns.map((t) => t.userText)).toEqual(['One', 'Something else']);
    expect(JSON.stringify(lastBody().messages)).not.toContain('Lost words?');
    const note = [...files.files.values()][0];
    expect(note.indexOf('One')).toBeLessThan(note.indexOf('Lost words?'));
    expect(note.indexOf('Lost words?')).toBeLessThan(note.indexOf('Something else'));

    const reopened = makeSession(settings, new ArchiveChatStore(() => new ChatArchive(files, { now: () => (now += 1000) }, settings.chatFolder), vault), ['x']).session;
    await reopened.open('chat-a');
    expect(reopened.state.unanswered).toEqual([expect.objectContaining({ afterTurn: 1, userText: 'Lost words?' })]);
    expect(reopened.state.turns.map((t) => t.userText)).toEqual(['One', 'Something else']);
    await reopened.send('Three', []);
    expect(JSON.stringify(lastBody().messages)).not.toContain('Lost words?');
    expect(reopened.state.turns[2].meta.prefixChange).toBeNull();
  });
});

describe('provider sessions', () => {
  test('a session the provider forgot: the error says so, and the retry starts over in full', async () => {
    const { session } = makeSession(settingsFor('openai-responses'));
    await session.send('One', [{ kind: 'note', path: PLAN }]);
    server.reset(); // the server forgets every stored response: previous_response_id is now unknown
    await session.send('Two', []);
    expect(session.state.pending?.status).toBe('failed');
    expect(session.state.pending?.error).toMatch(/Retry sends the whole conversation again/);
    const body = server.requests.at(-1)?.body as { previous_response_id?: string };
    expect(body.previous_response_id).toBeTruthy();
    await session.retry();
    const state = session.state;
    expect(state.pending).toBeNull();
    expect(state.turns.map((t) => t.meta.compileMode)).toEqual(['full', 'full']);
    expect(state.turns[1].reply).toBe(`Seen context: ${PLAN}. Question: Two.`);
    const retried = server.requests.at(-1)?.body as { previous_response_id?: string };
    expect(retried.previous_response_id).toBeUndefined();
  });
});

describe('switching chats while a reply is coming in', () => {
  test('new chat stops the reply, keeps the message in the old chat (saved as stopped), and starts clean', async () => {
    const { session, store } = makeSession(settingsFor());
    await session.send('One', []);
    server.injectFault({ kind: 'hang', times: 1 });
    const sending = session.send('Waiting forever', []);
    // The request is out once the server has it; then switch chats.
    while (server.requests.filter((r) => r.path.includes('completions')).length < 2) await new Promise((r) => setImmediate(r));
    await session.newChat();
    await sending;
    expect(session.state.id).toBe('chat-b');
    expect(session.state.turns).toEqual([]);
    expect(session.state.pending).toBeNull();
    const old = JSON.parse(store.files.get('chat-a') ?? '{}') as { pending?: { userText: string; status: string }; turns: unknown[] };
    expect(old.turns).toHaveLength(1);
    expect(old.pending).toMatchObject({ userText: 'Waiting forever', status: 'stopped' });
    expect(store.files.has('chat-b')).toBe(false);
  });
});

/**
 * The chat controller end to end in Node, on the real chat-note archive (codec, merge,
 * rehydration): real resolver and engine over real markdown files; real provider adapters
 * (LangChain clients) over real HTTP to the local provider server where the provider matters, the
 * in-memory chat model where only the chat does.
 */
import type { ProviderServer } from '../../../testing/providerServer';
import { ChatArchive } from '../../../src/core/conversation/archive';
import type { StrataSettings } from '../../../src/core/settings/settings';
import { KEY, makeController, memoryProviders, NoteFiles, PLAN, settingsFor, VENT } from './controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;

useProviderServer((s) => (server = s));

const settings = (kind?: 'openai' | 'anthropic' | 'openai-responses', secretId?: string): StrataSettings => settingsFor(server.url, kind, secretId);

function lastBody(): { messages?: { role: string; content: unknown }[]; stream?: boolean } {
  const generations = server.requests.filter((r) => r.api !== undefined && r.path.includes('completions'));
  return generations[generations.length - 1].body as { messages?: { role: string; content: unknown }[]; stream?: boolean };
}

/** What the third request of One (Plan), Two (Ventilation), Three (Plan) is, in one chat never closed. */
async function unbrokenThirdRequest(s: StrataSettings) {
  const unbroken = makeController(s, { ids: ['chat-u'] }).controller;
  await unbroken.send('One', [{ kind: 'note', path: PLAN }]);
  await unbroken.send('Two', [{ kind: 'note', path: VENT }]);
  await unbroken.send('Three', [{ kind: 'note', path: PLAN }]);
  return lastBody().messages;
}

describe('ChatController (turn pipeline over HTTP)', () => {
  test('send: resolves chips, streams the reply, commits, reports usage and saves the chat note', async () => {
    const { controller, files } = makeController(settings());
    let streamEvents = 0;
    let sawStreamingText = '';
    controller.subscribe((change) => {
      if (change === 'stream') {
        streamEvents++;
        sawStreamingText = controller.state.streamingText ?? '';
      }
    });
    await controller.send('What is the plan?', [{ kind: 'note', path: PLAN }]);
    await controller.flush();
    const state = controller.state;
    expect(state.pending).toBeNull();
    expect(state.answered).toHaveLength(1);
    expect(state.answered[0].reply).toBe(`Seen context: ${PLAN}. Question: What is the plan?.`);
    expect(streamEvents).toBeGreaterThan(1);
    expect(sawStreamingText.length).toBeGreaterThan(0);
    expect(lastBody().stream).toBe(true);
    // Usage as the server reported it, a known price, and the request's size by layer.
    expect(state.answered[0].usage?.inputTokens).toBeGreaterThan(0);
    expect(state.answered[0].usage?.outputTokens).toBeGreaterThan(0);
    expect(state.totalCost).not.toBeNull();
    expect(state.contextUsage?.window).toBe(128_000);
    expect(state.contextUsage?.layers.turn).toBeGreaterThan(state.contextUsage?.layers.message ?? 0);
    expect(state.contextUsage?.layers.system).toBeGreaterThan(0);
    expect(state.library.map((i) => i.id)).toEqual([PLAN]);
    expect(state.library[0].tokens).toBeGreaterThan(10);
    expect(state.conversation.title).toBe('What is the plan?');
    // Saved as a chat note, with no secret anywhere in it; what the turn was is recorded, not invented later.
    const note = files.only();
    expect(note).toContain('What is the plan?');
    expect(note).not.toContain(KEY);
    expect(files.chat('chat-a')?.turns[0]).toEqual(
      expect.objectContaining({ status: 'complete', provider: 'local', model: 'gpt-4o', envelope: expect.objectContaining({ compile: { mode: 'full', reason: expect.stringMatching(/^stateless-provider: /) } }) }),
    );
    expect(state.saved).toBe(true);
  });

  test('a second turn references the library note and adds a new one; the prefix extends', async () => {
    const { controller } = makeController(settings());
    await controller.send('What is the plan?', [{ kind: 'note', path: PLAN }]);
    await controller.send('And ventilation?', [{ kind: 'note', path: PLAN }, { kind: 'note', path: VENT }]);
    const state = controller.state;
    expect(state.answered[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: And ventilation?.`);
    expect(state.answered[1].envelope?.prefixChange).toBeNull();
    expect(state.library.map((i) => i.id)).toEqual([PLAN, VENT]);
    // The history went out as it was sent: request 2 starts with request 1's messages and reply.
    const [first, second] = server.requests.filter((r) => r.path.includes('completions')).map((r) => r.body as { messages: unknown[] });
    expect(second.messages.slice(0, first.messages.length)).toEqual(first.messages);
    expect(state.totalUsage.inputTokens).toBe((state.answered[0].usage?.inputTokens ?? 0) + (state.answered[1].usage?.inputTokens ?? 0));
  });

  test('an injected 500 keeps the message, saved and marked failed, with a clear error; retry sends it again', async () => {
    const { controller, files } = makeController(settings());
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    await controller.send('Summarise the plan', [{ kind: 'note', path: PLAN }]);
    await controller.flush();
    let state = controller.state;
    expect(state.answered).toHaveLength(0);
    expect(state.pending?.status).toBe('failed');
    expect(state.pending?.text).toBe('Summarise the plan');
    expect(state.pending?.error).toMatch(/500/);
    expect(state.pending?.error).not.toContain(KEY);
    expect(state.library).toEqual([]); // nothing committed
    expect(files.chat('chat-a')?.turns).toEqual([expect.objectContaining({ text: 'Summarise the plan', status: 'failed' })]);

    await controller.retry();
    state = controller.state;
    expect(state.pending).toBeNull();
    expect(state.answered.map((t) => t.text)).toEqual(['Summarise the plan']);
    expect(state.answered[0].reply).toBe(`Seen context: ${PLAN}. Question: Summarise the plan.`);
  });

  test('regenerate and edit-and-resend replace the last turn (history change said as such)', async () => {
    const { controller } = makeController(settings());
    await controller.send('First question', [{ kind: 'note', path: PLAN }]);
    await controller.send('Second question', [{ kind: 'note', path: VENT }]);
    await controller.regenerate();
    let state = controller.state;
    expect(state.answered.map((t) => t.text)).toEqual(['First question', 'Second question']);
    expect(state.answered[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Second question.`);
    expect(state.answered[1].envelope?.prefixChange?.reason).toBe('history-edited');

    await controller.editLast('Second question, rephrased');
    state = controller.state;
    expect(state.answered.map((t) => t.text)).toEqual(['First question', 'Second question, rephrased']);
    expect(state.answered[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Second question, rephrased.`);
    expect(state.library.map((i) => i.id)).toEqual([PLAN, VENT]);
  });

  test('a regeneration that fails keeps the previous answer, and the chat continues from it', async () => {
    const { controller, files } = makeController(settings());
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    await controller.send('Two', []);
    const before = controller.state.answered.map((t) => t.reply);
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    await controller.regenerate();
    let state = controller.state;
    expect(state.pending).toBeNull();
    expect(state.answered.map((t) => t.reply)).toEqual(before);
    expect(state.warnings.some((w) => w.source === 'regenerate' && w.text.startsWith('Regenerate failed: ') && w.text.endsWith('the previous answer is kept.'))).toBe(true);
    await controller.flush();
    expect(files.chat('chat-a')?.turns.map((t) => t.reply)).toEqual(before);
    await controller.send('Three', []);
    state = controller.state;
    expect(state.answered).toHaveLength(3);
    expect(state.answered[2].envelope?.prefixChange).toBeNull(); // the restored history is the one the provider saw
  });

  test('a reopened chat continues with the same request an unbroken session would send', async () => {
    const s = settings();
    const files = new NoteFiles();
    const a = makeController(s, { files, ids: ['chat-a'] }).controller;
    await a.send('One', [{ kind: 'note', path: PLAN }]);
    await a.send('Two', [{ kind: 'note', path: VENT }]);
    await a.flush();
    const expected = await unbrokenThirdRequest(s);

    const { controller: b, archive } = makeController(s, { files, ids: ['unused'] });
    expect((await archive.list()).map((e) => e.id)).toEqual(['chat-a']);
    await b.open('chat-a');
    expect(b.state.answered.map((t) => t.text)).toEqual(['One', 'Two']);
    expect(b.state.library.map((i) => i.id)).toEqual([PLAN, VENT]);
    // What each turn was is read back, not invented: compile mode and reason, provider, prompt tokens.
    expect(b.state.answered[1].envelope?.compile).toEqual(a.state.answered[1].envelope?.compile);
    expect(b.state.answered[1].envelope?.promptTokens).toBe(a.state.answered[1].envelope?.promptTokens);
    expect(b.state.answered[1].provider).toBe('local');
    await b.send('Three', [{ kind: 'note', path: PLAN }]);
    expect(b.state.answered[2].envelope?.prefixChange).toBeNull();
    expect(lastBody().messages).toEqual(expected);
  });

  test('a missing API key fails with a clear message and keeps the words', async () => {
    const { controller } = makeController(settings('openai', 'missing-key'));
    await controller.send('Anyone there?', []);
    const state = controller.state;
    expect(state.pending?.status).toBe('failed');
    expect(state.pending?.error).toMatch(/key/i);
    expect(server.requests.filter((r) => r.path.includes('completions'))).toHaveLength(0);
  });

  test('Anthropic over HTTP: streaming with cache breakpoints, usage on every turn', async () => {
    const { controller } = makeController(settings('anthropic'));
    await controller.send('One', [{ kind: 'note', path: PLAN }, { kind: 'note', path: VENT }]);
    await controller.send('Two', [{ kind: 'note', path: PLAN }]);
    const state = controller.state;
    expect(state.answered[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Two.`);
    expect(state.answered.every((t) => (t.usage?.inputTokens ?? 0) > 0)).toBe(true);
    expect(state.contextUsage?.window).toBe(200_000);
  });

  test('OpenAI Responses (session-stateful): the second turn resumes the session and sends only the delta', async () => {
    const { controller } = makeController(settings('openai-responses'));
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    await controller.send('Two', [{ kind: 'note', path: VENT }]);
    const state = controller.state;
    expect(state.answered.map((t) => t.envelope?.compile?.mode)).toEqual(['full', 'delta']);
    expect(state.answered[1].reply).toBe(`Seen context: ${PLAN}, ${VENT}. Question: Two.`);
    const bodies = server.requests.filter((r) => r.path.includes('responses')).map((r) => r.body as { previous_response_id?: string; input: unknown });
    expect(bodies).toHaveLength(2);
    expect(bodies[1].previous_response_id).toBeTruthy();
    expect(JSON.stringify(bodies[1].input)).not.toContain('One');
  });

  test('a session the provider forgot: the error says so, and the retry starts over in full', async () => {
    const { controller } = makeController(settings('openai-responses'));
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    server.reset(); // the server forgets every stored response: previous_response_id is now unknown
    await controller.send('Two', []);
    expect(controller.state.pending?.status).toBe('failed');
    expect(controller.state.pending?.error).toMatch(/Retry sends the whole conversation again/);
    const body = server.requests.at(-1)?.body as { previous_response_id?: string };
    expect(body.previous_response_id).toBeTruthy();
    await controller.retry();
    const state = controller.state;
    expect(state.pending).toBeNull();
    expect(state.answered.map((t) => t.envelope?.compile?.mode)).toEqual(['full', 'full']);
    expect(state.answered[1].reply).toBe(`Seen context: ${PLAN}. Question: Two.`);
    const retried = server.requests.at(-1)?.body as { previous_response_id?: string };
    expect(retried.previous_response_id).toBeUndefined();
  });

  test('new chat while a reply is coming in leaves it running in the old chat (issue 29); back in it, the reply is live and Stop keeps the message (saved as stopped)', async () => {
    const { controller, files } = makeController(settings());
    await controller.send('One', []);
    server.injectFault({ kind: 'hang', times: 1 });
    const sending = controller.send('Waiting forever', []);
    // The request is out once the server has it; then switch chats.
    while (server.requests.filter((r) => r.path.includes('completions')).length < 2) await new Promise((r) => setImmediate(r));
    await controller.newChat();
    expect(controller.state.conversation.id).toBe('chat-b');
    expect(controller.state.answered).toEqual([]);
    expect(controller.state.pending).toBeNull();
    expect(controller.state.busy).toBe(false);
    expect(controller.hub.running()).toEqual(new Set(['chat-a']));
    // Back in chat-a: the same chat, still waiting for its reply, at once (no note read).
    await controller.open('chat-a');
    expect(controller.state.phase).toBe('sending');
    expect(controller.state.busy).toBe(true);
    expect(controller.state.pending?.text).toBe('Waiting forever');
    controller.stop();
    await sending;
    await controller.flush();
    expect(controller.hub.running().size).toBe(0);
    const old = files.chat('chat-a');
    expect(old?.turns.filter((t) => t.status === 'complete')).toHaveLength(1);
    expect(old?.turns[1]).toEqual(expect.objectContaining({ text: 'Waiting forever', status: 'stopped' }));
    expect(files.chat('chat-b')).toBeUndefined();
  });
});

describe('ChatController (in-memory chat model)', () => {
  test('stop while streaming: the message is kept, nothing is committed, retry completes the turn', async () => {
    const { providers } = memoryProviders();
    const { controller } = makeController(settings(), { providers });
    const unsubscribe = controller.subscribe((change) => {
      if (change === 'stream' && (controller.state.streamingText ?? '').length > 0) controller.stop();
    });
    await controller.send('Stop me', [{ kind: 'note', path: PLAN }]);
    unsubscribe();
    let state = controller.state;
    expect(state.busy).toBe(false);
    expect(state.answered).toHaveLength(0);
    expect(state.pending?.status).toBe('stopped');
    expect(state.pending?.partial?.length ?? 0).toBeGreaterThan(0);
    expect(state.library).toEqual([]);
    await controller.retry();
    state = controller.state;
    expect(state.answered.map((t) => t.reply)).toEqual([`Seen context: ${PLAN}. Question: Stop me.`]);
  });

  test('removing a library item is a named prefix break and the model no longer sees it', async () => {
    const { providers } = memoryProviders();
    const { controller } = makeController(settings(), { providers });
    await controller.send('One', [{ kind: 'note', path: PLAN }, { kind: 'note', path: VENT }]);
    const message = controller.removeLibraryItem(VENT);
    expect(message).toMatch(/removed from the Context Library/);
    expect(controller.state.warnings.map((w) => w.text).join('\n')).toMatch(/Ventilation/);
    expect(controller.state.warnings.map((w) => w.source)).toEqual(['library']);
    expect(controller.state.library.map((i) => i.id)).toEqual([PLAN]);
    await controller.send('Two', []);
    const state = controller.state;
    expect(state.answered[1].envelope?.prefixChange?.reason).toBe('library-item-removed');
    expect(state.answered[1].reply).toBe(`Seen context: ${PLAN}. Question: Two.`);
    expect(state.warnings).toEqual([]);
  });

  test('rename, list and delete go through the archive; deleting the open chat starts a new one', async () => {
    const { providers } = memoryProviders();
    const { controller, files, archive } = makeController(settings(), { providers });
    await controller.send('Hello there', []);
    await controller.rename('Greenhouse talk');
    expect((await archive.list()).map((e) => e.title)).toEqual(['Greenhouse talk']);
    await controller.remove('chat-a');
    expect(files.files.size).toBe(0);
    expect(controller.state.conversation.id).toBe('chat-b');
    expect(controller.state.answered).toEqual([]);
  });

  test('a request over the model window is not sent: the words are kept and the error says what to do', async () => {
    // Planning off: attachments are sent as they are (with planning they would be fitted, planning tests).
    const s: StrataSettings = { ...settings(), contextPlanning: 'off', contextWindows: { 'gpt-4o': 3_000 } };
    const { providers, model } = memoryProviders();
    const { controller } = makeController(s, { providers });
    await controller.send('What is in the climate log?', [{ kind: 'note', path: 'Projects/Greenhouse/Climate log.md' }, { kind: 'note', path: PLAN }]);
    const state = controller.state;
    expect(state.pending?.status).toBe('failed');
    expect(state.pending?.text).toBe('What is in the climate log?');
    expect(state.pending?.error).toMatch(/^This request needs [\d,]+ tokens; the budget is 1,500 \(gpt-4o has a window of 3,000 tokens, 1,500 kept for the reply\)\. The largest items .* are "Climate log" \([\d,]+\)/);
    expect(model.requests).toHaveLength(0);
    // With a larger window the same message goes through on retry.
    s.contextWindows = {};
    await controller.retry();
    expect(controller.state.pending).toBeNull();
    expect(controller.state.answered).toHaveLength(1);
  });

  test('a failed save is a visible warning, not a lost turn', async () => {
    const { providers } = memoryProviders();
    const files = new NoteFiles();
    const { controller } = makeController(settings(), { providers, files });
    files.failNext = 1; // the turn's one save (its words and reply, in one write)
    await controller.send('Save me', []);
    await controller.flush();
    expect(controller.state.answered).toHaveLength(1);
    expect(controller.state.warnings.map((w) => w.text).join('\n')).toMatch(/could not be saved: disk full/);
    await controller.send('Again', []);
    await controller.flush();
    expect(controller.state.warnings).toEqual([]);
    expect(files.only()).toContain('Save me');
  });

  test('mode is a dynamic fragment: switching it does not break the prefix', async () => {
    const { providers, model } = memoryProviders();
    const { controller } = makeController(settings(), { providers });
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    controller.setMode('notes-only');
    await controller.send('Two', []);
    expect(controller.state.answered[1].envelope?.prefixChange).toBeNull();
    const last = model.lastMessages[model.lastMessages.length - 1];
    expect(last.content).toContain('notes only');
  });
});

describe('over chat notes (archive + codec + rehydrate)', () => {
  test('an edit made in the note while the chat is open is kept by every later save and shown in the chat', async () => {
    const { providers } = memoryProviders();
    const { controller, files } = makeController(settings(), { providers, ids: ['chat-edit'] });
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    await controller.flush();
    const [notePath] = [...files.files.keys()];
    const reply = controller.state.answered[0].reply ?? '';
    files.files.set(notePath, (files.files.get(notePath) ?? '').replace(reply, 'My own corrected answer.'));
    await controller.send('Two', []);
    await controller.flush();
    expect(files.files.get(notePath)).toContain('My own corrected answer.');
    expect(controller.state.answered[0].reply).toBe('My own corrected answer.');
    expect(controller.state.warnings.some((w) => w.source === 'note' && w.text.includes('edited while the chat was open'))).toBe(true);
    await controller.send('Three', []);
    await controller.flush();
    expect(files.files.get(notePath)).toContain('My own corrected answer.');
    expect(files.files.get(notePath)).not.toContain(reply);
  });

  test('saved as a chat note after each turn; reopened, it continues with the unbroken request; a failed message survives the reload', async () => {
    const s = settings();
    const files = new NoteFiles();
    const a = makeController(s, { files, ids: ['chat-a'] }).controller;
    await a.send('One', [{ kind: 'note', path: PLAN }]);
    await a.send('Two', [{ kind: 'note', path: VENT }]);
    server.injectFault({ kind: 'status', status: 500, times: 3 });
    await a.send('Three', [{ kind: 'note', path: PLAN }]);
    await a.flush();
    expect(a.state.pending?.status).toBe('failed');
    const [notePath] = [...files.files.keys()];
    expect(notePath).toMatch(/^Strata\/Chats\/.*One\.md$/);
    const note = files.only();
    expect(note).toContain('Three');
    expect(note).not.toContain(KEY);
    // No note text in the chat note: the library is kept as refs.
    expect(note).not.toContain('<note_context');

    const expected = await unbrokenThirdRequest(s);

    const { controller: b, archive } = makeController(s, { files, ids: ['unused'] });
    const list = await archive.list();
    expect(list.map((e) => e.title)).toEqual(['One']);
    await b.open(list[0].id);
    expect(b.state.warnings).toEqual([]);
    expect(b.state.answered.map((t) => t.text)).toEqual(['One', 'Two']);
    expect(b.state.pending).toMatchObject({ text: 'Three', status: 'failed', chips: [{ kind: 'note', path: PLAN }] });
    expect(b.state.library.map((i) => i.id)).toEqual([PLAN, VENT]);
    await b.retry();
    expect(b.state.answered[2].envelope?.prefixChange).toBeNull();
    expect(lastBody().messages).toEqual(expected);
    await b.flush();
    expect(files.files.size).toBe(1);

    await b.rename('Greenhouse chat');
    expect((await archive.list()).map((e) => e.title)).toEqual(['Greenhouse chat']);
    expect((await archive.search('zeppelin')).length).toBe(0);
    expect((await archive.search('two')).map((e) => e.title)).toEqual(['Greenhouse chat']);
    await b.remove(b.state.conversation.id);
    expect(await archive.list()).toEqual([]);
  });

  test('writing something else after a failure keeps the failed words (shown, saved, reopened), never resent', async () => {
    const { providers, model } = memoryProviders();
    const files = new NoteFiles();
    const { controller } = makeController(settings(), { providers, files, ids: ['chat-a'] });
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    model.inject({ kind: 'fail', message: 'HTTP 500 from Local' });
    await controller.send('Lost words?', []);
    expect(controller.state.pending?.status).toBe('failed');
    await controller.send('Something else', []);
    await controller.flush();
    expect(controller.state.pending).toBeNull();
    expect(controller.state.unanswered).toEqual([{ afterTurn: 1, turn: expect.objectContaining({ text: 'Lost words?' }) }]);
    expect(controller.state.answered.map((t) => t.text)).toEqual(['One', 'Something else']);
    expect(JSON.stringify(model.lastMessages)).not.toContain('Lost words?');
    const note = files.only();
    expect(note.indexOf('One')).toBeLessThan(note.indexOf('Lost words?'));
    expect(note.indexOf('Lost words?')).toBeLessThan(note.indexOf('Something else'));

    const reopened = makeController(settings(), { providers, files, ids: ['x'] }).controller;
    await reopened.open('chat-a');
    expect(reopened.state.unanswered).toEqual([{ afterTurn: 1, turn: expect.objectContaining({ text: 'Lost words?' }) }]);
    expect(reopened.state.answered.map((t) => t.text)).toEqual(['One', 'Something else']);
    await reopened.send('Three', []);
    expect(JSON.stringify(model.lastMessages)).not.toContain('Lost words?');
    expect(reopened.state.answered[2].envelope?.prefixChange).toBeNull();
  });

  test('a chat closed mid-request reopens with its message kept as not answered, ready to retry', async () => {
    const { providers, model } = memoryProviders();
    const files = new NoteFiles();
    const { controller } = makeController(settings(), { providers, files, ids: ['chat-a'] });
    model.inject({ kind: 'hang' });
    const sending = controller.send('Still waiting', [{ kind: 'note', path: PLAN }]);
    while (model.requests.length < 1) await new Promise((r) => setImmediate(r));
    await controller.flush(); // the note as the app would leave it if it closed now
    expect(files.chat('chat-a')?.turns[0].status).toBe('sending');
    const reopened = makeController(settings(), { providers, files, ids: ['x'] }).controller;
    await reopened.open('chat-a');
    expect(reopened.state.pending).toEqual(expect.objectContaining({ text: 'Still waiting', status: 'failed', error: expect.stringMatching(/app closed before the reply/) }));
    await reopened.retry();
    expect(reopened.state.answered.map((t) => t.reply)).toEqual([`Seen context: ${PLAN}. Question: Still waiting.`]);
    controller.stop();
    await sending;
  });

  test('the archive is found by id, also for a second controller over a fresh archive', async () => {
    const { providers } = memoryProviders();
    const files = new NoteFiles();
    const first = makeController(settings(), { providers, files, ids: ['chat-a'] }).controller;
    await first.send('One', []);
    await first.flush();
    const other = new ChatArchive(files, { now: () => 0 }, settings().chatFolder);
    expect((await other.load('chat-a')).conversation.turns.map((t) => t.text)).toEqual(['One']);
    await expect(other.load('chat-nope')).rejects.toThrow(/No saved chat with id chat-nope/);
  });
});

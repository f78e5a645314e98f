/**
 * Several chats at once (issue 29): the views of the plugin (a sidebar, tabs, splits) are
 * controllers over one ChatHub. Two chats stream at once over real HTTP to the local provider
 * server and each saves its own note; a view switched away mid-stream leaves the reply running and
 * finds it live when it comes back; two views on one chat show one LiveChat; deleting a chat is the
 * one switch that stops its reply, in every view showing it.
 */
import type { ProviderServer } from '../../../testing/providerServer';
import { ChatController } from '../../../src/core/chat/chatController';
import { ChatHub } from '../../../src/core/chat/chatHub';
import type { ChatState } from '../../../src/core/chat/chatState';
import { useProviderServer } from '../../helpers/providerServer';
import { makeController, NoteFiles, PLAN, settingsFor, VENT } from './controllerHarness';

let server: ProviderServer;
useProviderServer((s) => (server = s));

/** Two views over one hub (as the plugin's leaves are), with scripted chat ids. */
function twoViews(ids = ['chat-a', 'chat-b', 'chat-c', 'chat-d']) {
  const files = new NoteFiles();
  const h = makeController(settingsFor(server.url), { files, ids });
  const hub = h.controller.hub;
  const second = new ChatController(h.deps, hub);
  return { first: h.controller, second, hub, files };
}

/** Resolves at the first state (now or after a change) that satisfies `test`. */
function until(controller: ChatController, test: (state: ChatState) => boolean): Promise<ChatState> {
  return new Promise((resolve) => {
    if (test(controller.state)) return resolve(controller.state);
    const unsubscribe = controller.subscribe(() => {
      if (!test(controller.state)) return;
      unsubscribe();
      resolve(controller.state);
    });
  });
}

const completions = () => server.requests.filter((r) => r.path.includes('completions')).length;
async function requestsOut(n: number): Promise<void> {
  while (completions() < n) await new Promise((r) => setImmediate(r));
}

describe('ChatHub: several chats at once', () => {
  test('two views, two chats: both replies stream at once and each chat saves its own note', async () => {
    const { first, second, hub, files } = twoViews();
    expect(first.chatId).toBe('chat-a');
    expect(second.chatId).toBe('chat-b');
    server.injectFault({ kind: 'hang', ms: 400, times: 2 });
    const runs: string[][] = [];
    const watch = hub.watchRuns(() => runs.push([...hub.running()]));
    const a = first.send('About the plan', [{ kind: 'note', path: PLAN }]);
    const b = second.send('About the vents', [{ kind: 'note', path: VENT }]);
    await requestsOut(2);
    expect(hub.running()).toEqual(new Set(['chat-a', 'chat-b']));
    expect(first.state.busy && second.state.busy).toBe(true);
    await Promise.all([a, b, first.flush()]);
    watch();
    expect(runs).toContainEqual(['chat-a', 'chat-b']);
    expect(hub.running().size).toBe(0);
    expect(files.chat('chat-a')?.turns.map((t) => [t.text, t.status, t.reply])).toEqual([
      ['About the plan', 'complete', `Seen context: ${PLAN}. Question: About the plan.`],
    ]);
    expect(files.chat('chat-b')?.turns.map((t) => [t.text, t.status, t.reply])).toEqual([
      ['About the vents', 'complete', `Seen context: ${VENT}. Question: About the vents.`],
    ]);
    expect(first.state.saved && second.state.saved).toBe(true);
  });

  test('a view switched to a new chat mid-stream leaves the reply running; opening the chat again shows it live, then answered', async () => {
    const { first, hub, files } = twoViews(['chat-a', 'chat-x', 'chat-b']);
    await first.send('One', []);
    server.injectFault({ kind: 'hang', ms: 400, times: 1 });
    const two = first.send('Two', [{ kind: 'note', path: PLAN }]);
    await requestsOut(2);
    await first.newChat();
    expect(first.chatId).toBe('chat-b');
    expect(first.state.busy).toBe(false);
    expect(hub.running()).toEqual(new Set(['chat-a']));
    await first.open('chat-a');
    // At once, from memory: the message waiting for its reply, the stop button's state.
    expect(first.state.phase).toBe('sending');
    expect(first.state.pending?.text).toBe('Two');
    const done = await until(first, (s) => !s.busy);
    expect(done.answered.map((t) => t.text)).toEqual(['One', 'Two']);
    await Promise.all([two, first.flush()]);
    expect(files.chat('chat-a')?.turns.map((t) => t.status)).toEqual(['complete', 'complete']);
    expect(files.chat('chat-b')).toBeUndefined();
  });

  test('two views on one chat show one chat: the same conversation, the stream in both, a send from either', async () => {
    const { first, second, hub } = twoViews();
    await first.send('One', []);
    await first.flush();
    await second.open('chat-a');
    expect(second.state.conversation).toBe(first.state.conversation);
    expect(second.state.phase).toBe('idle');

    server.injectFault({ kind: 'hang', ms: 300, times: 1 });
    const streams = { first: 0, second: 0 };
    const offFirst = first.subscribe((c) => c === 'stream' && streams.first++);
    const offSecond = second.subscribe((c) => c === 'stream' && streams.second++);
    const sending = first.send('Two', []);
    expect(second.state.busy).toBe(true);
    await expect(second.send('Also', [])).rejects.toThrow(/reply is still coming in/);
    await sending;
    offFirst();
    offSecond();
    expect(streams.second).toBe(streams.first);
    expect(streams.first).toBeGreaterThan(0);
    expect(second.state.conversation).toBe(first.state.conversation);
    expect(second.state.answered.map((t) => t.text)).toEqual(['One', 'Two']);

    // A send from the other view goes to the same chat, seen at once in both.
    await second.send('Three', []);
    expect(first.state.answered.map((t) => t.text)).toEqual(['One', 'Two', 'Three']);
    // Renaming from one is the other's title too.
    await second.rename('Greenhouse talk');
    expect(first.state.conversation.title).toBe('Greenhouse talk');
    expect(hub.views('chat-a')).toHaveLength(2);
  });

  test('a chat left by every view leaves memory once its reply ends: opening it reads its note', async () => {
    const { first, hub, files } = twoViews(['chat-a', 'chat-b', 'chat-c']);
    await first.send('One', []);
    server.injectFault({ kind: 'hang', ms: 300, times: 1 });
    const two = first.send('Two', []);
    await requestsOut(2);
    await first.newChat();
    expect(hub.chat('chat-a')).toBeDefined();
    await two;
    expect(hub.chat('chat-a')).toBeUndefined();
    await first.flush();
    await first.open('chat-a');
    expect(first.state.answered.map((t) => t.text)).toEqual(['One', 'Two']);
    expect(files.chat('chat-a')?.turns).toHaveLength(2);
  });

  test('deleting a chat from one view while it streams in another: its reply stops, both views show a new chat, the note is gone', async () => {
    const { first, second, hub, files } = twoViews(['chat-a', 'chat-b', 'chat-c', 'chat-d']);
    await first.send('One', []);
    await first.flush();
    await second.open('chat-a');
    server.injectFault({ kind: 'hang', times: 1 });
    const sending = first.send('Two', []);
    await requestsOut(2);
    await second.remove('chat-a');
    await sending;
    await first.flush();
    expect(hub.running().size).toBe(0);
    expect(first.chatId).not.toBe('chat-a');
    expect(second.chatId).not.toBe('chat-a');
    expect(first.chatId).not.toBe(second.chatId);
    expect(files.files.size).toBe(0);
  });

  test('a closed view leaves the hub; its chat runs on and saves', async () => {
    const { first, second, hub, files } = twoViews();
    server.injectFault({ kind: 'hang', ms: 300, times: 1 });
    const sending = second.send('From a closed tab', []);
    await requestsOut(1);
    second.detach();
    expect(hub.views(null)).toEqual(hub.views(first.chatId));
    await sending;
    await first.flush();
    expect(files.chat('chat-b')?.turns.map((t) => t.status)).toEqual(['complete']);
  });
});

describe('ChatHub without views sharing it', () => {
  test('a controller made alone has its own hub', () => {
    const a = makeController(settingsFor('http://127.0.0.1:9')).controller;
    const b = makeController(settingsFor('http://127.0.0.1:9')).controller;
    expect(a.hub).not.toBe(b.hub);
    expect(a.hub).toBeInstanceOf(ChatHub);
  });
});

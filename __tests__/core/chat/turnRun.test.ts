import { ChipResolver } from '../../../src/core/context/resolver';
import type { ContextChip } from '../../../src/core/context/items';
import type { LiveChat } from '../../../src/core/conversation/liveChat';
import { newLiveChat } from '../../../src/core/chat/chatOpening';
import { TurnRun, type RunDeps } from '../../../src/core/chat/turnRun';
import type { ActivityChange } from '../../../src/core/chat/activity';
import { SummaryCache } from '../../../src/core/planning/summaryCache';
import { FsVault } from '../../../src/node/fsVault';
import type { ProviderServer } from '../../../testing/providerServer';
import { useProviderServer } from '../../helpers/providerServer';
import { ChatController } from '../../../src/core/chat/chatController';
import { fsToolHost } from '../../../src/node/toolHost';
import { httpProviders, makeController, PLAN, settingsFor, VAULT, VENT } from './controllerHarness';

/**
 * A turn in flight is one object (TurnRun) that owns its lifecycle and settles in its own chat, so
 * turns of several chats can run at once: real LangChain clients over HTTP to the local provider
 * server, two chats, one stream each.
 */
let server: ProviderServer;
useProviderServer((s) => (server = s));

let ids = 0;
function chatWith(text: string, chips: readonly ContextChip[]): { chat: LiveChat; index: number } {
  let clock = 1_700_000_000_000;
  const chat = newLiveChat(settingsFor(server.url), { newId: () => `chat-${++ids}`, now: () => (clock += 1000) });
  const index = chat.addMessage({ text, chips, at: clock });
  return { chat, index };
}

function depsFor(chat: LiveChat): RunDeps {
  const turn = chat.conversation.turns[chat.conversation.turns.length - 1];
  return {
    settings: settingsFor(server.url),
    resolver: new ChipResolver(new FsVault(VAULT)),
    providers: httpProviders,
    now: () => 1_700_000_100_000,
    chips: turn.chips ?? [],
    planning: { cache: new SummaryCache() },
    search: null,
    onCompacted: () => {},
  };
}

/** What a run told its subscriber: the changes, and the streamed text at each 'stream' change. */
function listen(run: TurnRun): { changes: ActivityChange[]; streamed: string[] } {
  const heard = { changes: [] as ActivityChange[], streamed: [] as string[] };
  run.subscribe((change) => {
    heard.changes.push(change);
    if (change === 'stream') heard.streamed.push(run.streamingText ?? '');
  });
  return heard;
}

describe('TurnRun', () => {
  test('two chats answer at once, each streaming to its own subscriber and committing to its own conversation and engine', async () => {
    const a = chatWith('What does the plan say about the budget?', [{ kind: 'note', path: PLAN }]);
    const b = chatWith('How is the greenhouse ventilated?', [{ kind: 'note', path: VENT }]);
    const runA = new TurnRun(a.chat, a.index);
    const runB = new TurnRun(b.chat, b.index);
    // Sent again: waiting for the reply, an empty stream started.
    expect(a.chat.conversation.turns[a.index].status).toBe('sending');
    expect(runA.streamingText).toBe('');
    const heardA = listen(runA);
    const heardB = listen(runB);

    const [answeredA, answeredB] = await Promise.all([runA.run(depsFor(a.chat)), runB.run(depsFor(b.chat))]);

    expect([answeredA, answeredB]).toEqual([true, true]);
    expect(server.requests.filter((r) => r.api === 'openai-chat')).toHaveLength(2);
    for (const [{ chat, index }, heard, other] of [
      [a, heardA, 'ventilated'],
      [b, heardB, 'budget'],
    ] as const) {
      const turn = chat.conversation.turns[index];
      expect(turn.status).toBe('complete');
      expect(heard.changes).toContain('stream');
      // The stream a subscriber heard is its own chat's reply, never the other's.
      expect(heard.streamed[heard.streamed.length - 1]).toBe(turn.reply);
      expect(heard.streamed.join('\n')).not.toContain(other);
      // Conversation and engine committed together: the engine has the turn, the conversation its library.
      expect(chat.engine.turnCount).toBe(1);
      expect(chat.conversation.library.map((r) => r.id)).toEqual(chat.engine.libraryItems().map((i) => i.id));
      expect(chat.lastAssembly?.envelope.turn).toBe(1);
    }
    expect(a.chat.conversation.library.map((r) => r.id)).toEqual([PLAN]);
    expect(b.chat.conversation.library.map((r) => r.id)).toEqual([VENT]);
  });

  test('stopping one chat\'s turn leaves the other running to its answer; the stopped one keeps the words and commits nothing', async () => {
    server.injectFault({ kind: 'hang', times: 1 });
    const a = chatWith('This one hangs until it is stopped.', []);
    const b = chatWith('This one is answered.', []);
    const runA = new TurnRun(a.chat, a.index);
    const runB = new TurnRun(b.chat, b.index);
    const doneA = runA.run(depsFor(a.chat));
    // A's request is the one the hang takes: B's goes after it.
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    const doneB = runB.run(depsFor(b.chat));
    expect(await doneB).toBe(true);
    expect(runA.signal.aborted).toBe(false);
    runA.stop();
    expect(await doneA).toBe(false);

    const stopped = a.chat.conversation.turns[a.index];
    expect(stopped.status).toBe('stopped');
    expect(stopped.text).toBe('This one hangs until it is stopped.');
    expect(stopped.error).toMatch(/Stopped\. Your message is kept/);
    expect(a.chat.engine.turnCount).toBe(0);
    expect(b.chat.conversation.turns[b.index].status).toBe('complete');
    expect(b.chat.engine.turnCount).toBe(1);
  });

  test('a provider error (500 after the retries) fails the turn with the reason, in its chat only', async () => {
    server.injectFault({ kind: 'status', status: 500, times: 20 }); // more than the retries
    const a = chatWith('This one is refused.', []);
    const run = new TurnRun(a.chat, a.index);
    expect(await run.run(depsFor(a.chat))).toBe(false);
    const failed = a.chat.conversation.turns[a.index];
    expect(failed.status).toBe('failed');
    expect(failed.error).toMatch(/500/);
    expect(a.chat.engine.turnCount).toBe(0);
  });
});

describe('a turn whose needs cannot be gathered', () => {
  test('fails with the reason, keeps the words and leaves the chat idle for a retry', async () => {
    const harness = makeController(settingsFor(server.url));
    let broken = true;
    const tools = fsToolHost({ vault: new FsVault(VAULT), search: null });
    const controller = new ChatController({
      ...harness.deps,
      toolHost: () => {
        if (broken) throw new Error('the tools are not ready');
        return tools;
      },
    });
    await controller.send('Are the tools there?');
    const turn = controller.state.conversation.turns[0];
    expect(turn.status).toBe('failed');
    expect(turn.error).toMatch(/the tools are not ready/);
    expect(turn.text).toBe('Are the tools there?');
    expect(controller.state.busy).toBe(false);
    broken = false;
    await controller.retry();
    expect(controller.state.conversation.turns[0].status).toBe('complete');
  });
});

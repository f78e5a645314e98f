import { ChipResolver } from '../../../src/core/context/resolver';
import { LiveChat } from '../../../src/core/conversation/liveChat';
import { newConversation } from '../../../src/core/conversation/model';
import { promptFragments } from '../../../src/core/systemPrompt';
import { FsVault } from '../../../src/node/fsVault';
import { VAULT } from '../../helpers/paths';

/**
 * LiveChat changes a chat's conversation and engine together: after every transition the
 * conversation records the engine's library, last request and pending events, and a transition
 * that throws changes neither.
 */
const PLAN = 'Projects/Greenhouse/Plan.md';
const VENT = 'Projects/Greenhouse/Ventilation.md';
const MODEL = 'gpt-4o';
const resolver = new ChipResolver(new FsVault(VAULT));

async function answer(chat: LiveChat, text: string, paths: string[]): Promise<void> {
  const chips = paths.map((path) => ({ kind: 'note' as const, path }));
  const index = chat.addMessage({ text, chips, at: 1000 + chat.conversation.turns.length });
  const { items, problems } = await resolver.resolve(chips);
  const assembly = chat.engine.assemble({ userText: text, items, problems, fragments: promptFragments(), model: MODEL });
  chat.commit(index, { assembly, reply: `Reply to ${text}`, replyAt: 2000 });
}

function inStep(chat: LiveChat): void {
  const state = chat.engine.snapshot();
  expect(chat.conversation.library.map((r) => `${r.id}@${r.version}`)).toEqual(state.library.map((i) => `${i.id}@${i.version}`));
  expect(chat.conversation.lastRequest ?? null).toEqual(state.lastRequest ?? null);
  expect(chat.conversation.pending ?? []).toEqual(state.pending ?? []);
}

describe('LiveChat', () => {
  let chat: LiveChat;
  beforeEach(async () => {
    chat = LiveChat.fresh(newConversation({ provider: 'openai', model: MODEL, id: 'c1' }, { now: () => 1000 }), {});
    await answer(chat, 'What is the plan?', [PLAN]);
    await answer(chat, 'And the vents?', [VENT]);
  });

  test('a commit answers the turn and records the library in one step', () => {
    expect(chat.conversation.turns.map((t) => t.status)).toEqual(['complete', 'complete']);
    expect(chat.engine.turnCount).toBe(2);
    inStep(chat);
  });

  test('a commit for the wrong turn throws and changes neither the conversation nor the engine', async () => {
    const before = chat.conversation;
    const { items, problems } = await resolver.resolve([]);
    const stale = chat.engine.assemble({ userText: 'x', items, problems, fragments: promptFragments(), model: MODEL });
    const index = chat.addMessage({ text: 'Third', at: 3000 });
    const withMessage = chat.conversation;
    chat.engine.commit(stale, 'ok'); // the engine moves on behind the chat's back: turn 3 is taken
    expect(() => chat.commit(index, { assembly: stale, reply: 'again', replyAt: 4000 })).toThrow(/assembly is for turn 3|cannot commit/);
    expect(chat.conversation).toBe(withMessage);
    expect(before.turns).toHaveLength(2);
  });

  test('truncating and removing a library item keep the two in step', () => {
    chat.truncateFrom(1, 5000);
    expect(chat.conversation.turns).toHaveLength(1);
    expect(chat.engine.turnCount).toBe(1);
    inStep(chat);
    expect(chat.conversation.pending).toEqual([{ type: 'truncated', turns: 1 }]);

    expect(chat.removeFromLibrary(PLAN)).toBe(true);
    expect(chat.removeFromLibrary(PLAN)).toBe(false);
    inStep(chat);
    expect(chat.conversation.library).toEqual([]);
    expect(chat.conversation.pending).toContainEqual({ type: 'removed', id: PLAN });
  });

  test('a checkpoint brings back the conversation and the engine as they were', () => {
    const checkpoint = chat.checkpoint();
    chat.truncateFrom(0, 5000);
    expect(chat.engine.turnCount).toBe(0);
    chat.restore(checkpoint, {});
    expect(chat.conversation).toBe(checkpoint.conversation);
    expect(chat.engine.turnCount).toBe(2);
    inStep(chat);
  });
});

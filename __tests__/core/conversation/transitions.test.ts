import path from 'node:path';
import { ChipResolver } from '../../../src/core/context/resolver';
import type { ContextChip } from '../../../src/core/context/items';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { newConversation, titleFromText } from '../../../src/core/conversation/model';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { ChatBuilder } from '../../helpers/chatBuilder';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { PromptContextEngine } from '../../../src/core/engine/engine';
import { promptFragments } from '../../../src/core/systemPrompt';
import { FsVault } from '../../../src/node/fsVault';
import { ROOT, tickingClock } from './helpers';

const vault = new FsVault(path.join(ROOT, 'examples', 'vault'));
const resolver = new ChipResolver(vault);
const fragments = promptFragments();
const MODEL = 'gpt-4o';
const plan: ContextChip = { kind: 'note', path: 'Projects/Greenhouse/Plan.md' };
const vents: ContextChip = { kind: 'note', path: 'Projects/Greenhouse/Ventilation.md' };

function setup() {
  const clock = tickingClock();
  const engine = new PromptContextEngine();
  const repo = new ChatBuilder(newConversation({ provider: 'openai', model: MODEL }, clock), engine, clock);
  const store = new MemoryChatStore();
  const archive = new ChatArchive(store, clock);
  return { clock, engine, repo, store, archive };
}

async function send(repo: ChatBuilder, text: string, chips: ContextChip[], reply: string, index?: number) {
  const i = index ?? repo.addUserMessage(text, { chips });
  const { items, problems } = await resolver.resolve(chips);
  const assembly = repo.engine.assemble({ userText: repo.sentText(i), items, problems, fragments, model: MODEL });
  repo.completeTurn(i, assembly, reply, { usage: { inputTokens: assembly.promptTokens, outputTokens: 5, cachedReadTokens: 0, cacheWriteTokens: 0 }, cost: 0.0012 });
  return assembly;
}

describe('turn transitions (with the engine kept in step)', () => {
  test('the user message is recorded (and saved) before the request; a failure keeps it, retryable', async () => {
    const { repo, archive, clock, store } = setup();
    await send(repo, 'What is the plan for the greenhouse?', [plan], 'A 3 × 4 m greenhouse.');
    const i = repo.addUserMessage('Is the vent area enough?', { chips: [plan, vents] });
    expect(repo.conversation.turns[i]).toEqual(expect.objectContaining({ status: 'sending', text: 'Is the vent area enough?' }));
    expect(repo.conversation.turns[i].reply).toBeUndefined();
    await archive.save(repo.conversation);
    repo.failTurn(i, 'HTTP 529: overloaded');
    const { path: saved } = await archive.save(repo.conversation);

    const loaded = await new ChatArchive(store, clock).loadPath(saved);
    expect(loaded.warnings).toEqual([]);
    const failed = loaded.conversation.turns[1];
    expect(failed).toEqual(expect.objectContaining({ status: 'failed', text: 'Is the vent area enough?', error: 'HTTP 529: overloaded', chips: [plan, vents] }));

    // Retry after reopening: the engine has the one answered turn; the failed one completes in place.
    const restored = await rehydrate(loaded.conversation, vault);
    expect(restored.engine.turnCount).toBe(1);
    const again = new ChatBuilder(loaded.conversation, restored.engine, clock);
    const assembly = await send(again, '', failed.chips as ContextChip[], 'Yes: 2.8 m² of openings.', 1);
    expect(assembly.prefixChange).toBeNull();
    expect(again.conversation.turns[1]).toEqual(expect.objectContaining({ status: 'complete', reply: 'Yes: 2.8 m² of openings.', cost: 0.0012 }));
    expect(again.conversation.turns[1].error).toBeUndefined();
  });

  test('display text and what was sent are kept apart', async () => {
    const { repo, archive, store } = setup();
    const i = repo.addUserMessage('/summarize', { sent: 'Summarize the attached note in three bullet points.' });
    const assembly = await send(repo, '', [plan], 'Three bullets.', i);
    expect(assembly.envelope.layers.L5.segments[0].text).toBe('Summarize the attached note in three bullet points.');
    expect(repo.conversation.turns.map((t) => [t.text, t.reply])).toEqual([['/summarize', 'Three bullets.']]);
    const { path: saved } = await archive.save(repo.conversation);
    const text = (await store.read(saved)) as string;
    expect(text).toContain('\n/summarize\n');
    expect(text).toContain('[!strata-sent]');
    const restored = await rehydrate((await archive.loadPath(saved)).conversation, vault);
    expect(restored.engine.completedTurns()[0].userText).toBe('Summarize the attached note in three bullet points.');
  });

  test('truncate for edit-and-resend and regenerate: conversation and engine drop the same turns', async () => {
    const { repo, engine } = setup();
    await send(repo, 'one', [plan], 'r1');
    await send(repo, 'two', [vents], 'r2');
    const failedIndex = repo.addUserMessage('three');
    repo.failTurn(failedIndex, 'timeout');
    await send(repo, 'four', [], 'r4');
    expect(engine.turnCount).toBe(3);

    expect(repo.conversation.turns[1].text).toBe('two');
    repo.truncateFrom(1);
    expect(engine.turnCount).toBe(1);
    expect(repo.conversation.turns.map((t) => t.text)).toEqual(['one']);
    expect(repo.conversation.library.map((r) => r.id)).toEqual(['Projects/Greenhouse/Plan.md']);
    const resent = await send(repo, 'two, edited', [vents], 'r2 again');
    expect(resent.prefixChange?.reason).toBe('history-edited');
    expect(repo.conversation.turns.map((t) => t.text)).toEqual(['one', 'two, edited']);
  });

  test('title from the first words until a generated one; times from the injected clock', async () => {
    const { repo } = setup();
    expect(repo.conversation.title).toBe('New chat');
    await send(repo, 'What is the **plan** for the [[Projects/Greenhouse/Plan|greenhouse]], in three lines please?', [plan], 'ok');
    expect(repo.conversation.title).toBe('What is the plan for the greenhouse, in');
    repo.setTitle('  Greenhouse   plan ', 'generated');
    expect(repo.conversation).toEqual(expect.objectContaining({ title: 'Greenhouse plan', titleSource: 'generated' }));
    const [turn] = repo.conversation.turns;
    expect(turn.at).toBeGreaterThan(repo.conversation.created);
    expect(turn.replyAt).toBeGreaterThan(turn.at);
    expect(titleFromText('')).toBe('New chat');
  });

  test('completeTurn refuses an assembly for another turn', async () => {
    const { repo, engine } = setup();
    await send(repo, 'one', [], 'r1');
    const stale = engine.assemble({ userText: 'x', items: [], fragments, model: MODEL });
    await send(repo, 'two', [], 'r2');
    const i = repo.addUserMessage('three');
    expect(() => repo.completeTurn(i, stale, 'r')).toThrow(/engine turn 3/);
  });
});

describe('chat list', () => {
  test('list (newest first), search, rename (the file follows the title: issue 29), delete', async () => {
    const { archive, store } = setup();
    const clock = tickingClock(Date.UTC(2026, 0, 1));
    const chats: string[] = [];
    const ids: string[] = [];
    for (const [q, a] of [
      ['How do I prune tomatoes?', 'Remove the side shoots.'],
      ['Vent area for a greenhouse', 'About a fifth of the floor area.'],
      ['Peppers not germinating', 'Warmer: 25 °C.'],
    ]) {
      const repo = new ChatBuilder(newConversation({ provider: 'openai', model: MODEL }, clock), new PromptContextEngine(), clock);
      await send(repo, q, [], a);
      chats.push((await archive.save(repo.conversation)).path);
      ids.push(repo.conversation.id);
    }
    const list = await archive.list();
    expect(list.map((c) => c.title)).toEqual(['Peppers not germinating', 'Vent area for a greenhouse', 'How do I prune tomatoes?']);
    expect(list.every((c) => c.turns === 1 && c.warnings === 0)).toBe(true);
    expect(chats[0]).toBe('Strata/Chats/2026-01-01 How do I prune tomatoes.md');

    expect((await archive.search('greenhouse')).map((c) => c.path)).toEqual([chats[1]]);
    expect((await archive.search('side SHOOTS')).map((c) => c.path)).toEqual([chats[0]]);
    expect(await archive.search('nothing like this')).toEqual([]);

    await archive.rename(ids[0], 'Tomato pruning');
    // Issue 29 changed this deliberately: the note is renamed after its new title (it kept its name before).
    expect(await store.read(chats[0])).toBeNull();
    chats[0] = 'Strata/Chats/2026-01-01 Tomato pruning.md';
    const renamed = (await archive.list()).find((c) => c.path === chats[0]);
    expect(renamed?.title).toBe('Tomato pruning');
    expect((await archive.load(ids[0])).conversation.titleSource).toBe('user');
    expect((await archive.loadPath(chats[0])).conversation.titleSource).toBe('user');

    await archive.delete(ids[1]);
    expect(await store.read(chats[1])).toBeNull();
    expect((await archive.list()).map((c) => c.path).sort()).toEqual([chats[0], chats[2]].sort());
  });
});

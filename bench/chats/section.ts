import path from 'node:path';
import { ChipResolver } from '../../src/core/context/resolver';
import { ChatArchive } from '../../src/core/conversation/archive';
import { forgetDecodedNote } from '../../src/core/conversation/decodedNotes';
import { decodeChatNote, encodeChatNote } from '../../src/core/conversation/codec';
import { newConversation, type Conversation } from '../../src/core/conversation/model';
import { MemoryChatStore } from '../../src/core/conversation/store';
import { LiveChat } from '../../src/core/conversation/liveChat';
import { promptFragments } from '../../src/core/systemPrompt';
import { FsVault } from '../../src/node/fsVault';
import { median } from '../lib/stats';

export interface ChatListFigures {
  readonly chats: number;
  readonly turnsPerChat: number;
  readonly noteBytes: number;
  /** Milliseconds, medians. */
  readonly listMs: number;
  readonly openMs: number;
  readonly openColdMs: number;
  readonly searchMs: number;
  /** The same list made by decoding every note (how it was done before), scaled from 20 notes: the reference. */
  readonly decodeAllMs: number;
}

/** One realistic chat of `turns` turns through the engine, attaching the example vault's notes in turn. */
export async function sampleChat(root: string, turns: number): Promise<Conversation> {
  const vault = new FsVault(path.join(root, 'examples', 'vault'));
  const resolver = new ChipResolver(vault);
  const notes = (await vault.listMarkdown()).filter((p) => p.startsWith('Projects/') || p.startsWith('Daily/'));
  let at = Date.UTC(2026, 0, 1);
  const chat = LiveChat.fresh(newConversation({ provider: 'openai', model: 'gpt-4o', id: 'chat-sample' }, { now: () => at }), {});
  for (let t = 0; t < turns; t++) {
    const chips = [{ kind: 'note' as const, path: notes[t % notes.length] }];
    const index = chat.addMessage({ text: `Question ${t + 1}: what does this note say about the greenhouse, and what should I do next?`, chips, at: (at += 1000) });
    const { items, problems } = await resolver.resolve(chips);
    const assembly = chat.engine.assemble({ userText: chat.conversation.turns[index].text, items, problems, fragments: promptFragments(), model: 'gpt-4o' });
    const reply = `Answer ${t + 1}. ${'The note describes the plan in some detail; here is a summary with a few suggestions. '.repeat(4)}`;
    chat.commit(index, { assembly, reply, replyAt: (at += 1000), usage: { inputTokens: assembly.promptTokens, outputTokens: 120, cachedReadTokens: 0, cacheWriteTokens: 0 }, cost: 0.001 });
  }
  return chat.conversation;
}

function timed(runs: number, run: () => Promise<unknown>): Promise<number> {
  return (async () => {
    const samples: number[] = [];
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      await run();
      samples.push(performance.now() - t0);
    }
    return median(samples);
  })();
}

/** The chat list, open and search over `chats` chat notes of `turnsPerChat` turns, in memory (no disk). */
export async function measureChatList(root: string, chats: number, turnsPerChat: number, runs: number): Promise<ChatListFigures> {
  const sample = await sampleChat(root, turnsPerChat);
  const store = new MemoryChatStore();
  const folder = 'Strata/Chats';
  for (let i = 0; i < chats; i++) {
    const c: Conversation = { ...sample, id: `chat-${i}`, title: `Chat ${i}${i === chats >> 1 ? ' zeppelin' : ''}`, updated: sample.updated + i };
    const text = encodeChatNote(i === chats - 1 ? { ...c, turns: c.turns.map((t, k) => (k === 3 ? { ...t, reply: `${t.reply ?? ''} xylophone` } : t)) } : c);
    store.files.set(`${folder}/chat ${String(i).padStart(5, '0')}.md`, text);
  }
  const noteBytes = [...store.files.values()].reduce((n, t) => n + Buffer.byteLength(t), 0) / chats;
  const clock = { now: () => 0 };
  const warm = new ChatArchive(store, clock, folder);
  await warm.list();
  const listMs = await timed(runs, () => warm.list());
  // Each open decodes the note: one read before in this process would be found kept (decodedNotes.ts), at no cost.
  const opened = `${folder}/chat ${String(chats >> 2).padStart(5, '0')}.md`;
  const openMs = await timed(runs, () => {
    forgetDecodedNote(opened);
    return warm.load(`chat-${chats >> 2}`);
  });
  const openColdMs = await timed(runs, () => {
    forgetDecodedNote(opened);
    return new ChatArchive(store, clock, folder).load(`chat-${chats >> 2}`);
  });
  const searchMs = await timed(Math.max(1, runs >> 1), async () => {
    const hits = await warm.search('xylophone');
    if (hits.length !== 1) throw new Error(`search found ${hits.length} chats, expected 1`);
  });
  // Decoding is per note: time a sample of 20 and scale (decoding 1,000 such notes takes minutes).
  const sampleTexts = [...store.files.values()].slice(0, 20);
  const decodeAllMs =
    ((await timed(1, async () => {
      for (const text of sampleTexts) decodeChatNote(text, { id: 'x', now: 0 });
    })) *
      chats) /
    sampleTexts.length;
  return { chats, turnsPerChat, noteBytes, listMs, openMs, openColdMs, searchMs, decodeAllMs };
}

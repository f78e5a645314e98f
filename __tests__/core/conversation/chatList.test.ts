import { ChatArchive } from '../../../src/core/conversation/archive';
import { encodeChatNote } from '../../../src/core/conversation/codec';
import { newConversation, type Conversation } from '../../../src/core/conversation/model';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { chatListRowOf } from '../../../src/core/conversation/chatListRow';
import { addUserMessage, failTurn } from '../../../src/core/conversation/transitions';

function chat(id: string, title: string, at: number): Conversation {
  const c = { ...newConversation({ provider: 'openai', model: 'gpt-4o', id }, { now: () => at }), title, titleSource: 'user' as const };
  const { conversation, index } = addUserMessage(c, { text: `a message in ${title}`, at: at + 1 });
  return failTurn(conversation, index, { status: 'failed', error: 'offline', at: at + 2 });
}

describe('the chat list reads properties, not whole notes', () => {
  test('a row from the head of the frontmatter: id, title, times, model, messages', () => {
    const text = encodeChatNote(chat('chat-1', 'Tomatoes: "pruning" #1', Date.UTC(2026, 0, 2)));
    expect(chatListRowOf('Strata/Chats/x.md', text, 'fallback')).toEqual({
      path: 'Strata/Chats/x.md',
      id: 'chat-1',
      title: 'Tomatoes: "pruning" #1',
      created: Date.UTC(2026, 0, 2),
      updated: Date.UTC(2026, 0, 2) + 2,
      turns: 1,
      model: 'gpt-4o',
      warnings: 0,
    });
  });

  test('properties reordered or written as block scalars by hand still read (through a YAML parse)', () => {
    const text = encodeChatNote(chat('chat-2', 'Peppers', Date.UTC(2026, 0, 3)));
    const reordered = text.replace(/^---\ntitle: Peppers\n/, '---\n').replace(/\nstrata:\n/, '\ntitle: >-\n  Peppers\n  again\nstrata:\n');
    const row = chatListRowOf('p.md', reordered, 'fallback');
    expect(row).toEqual(expect.objectContaining({ id: 'chat-2', title: 'Peppers again', warnings: 0 }));
  });

  test('a note without frontmatter is listed under its path id, with a warning count', () => {
    expect(chatListRowOf('p.md', '## User · 1\n\nhello\n', 'chat-p')).toEqual(expect.objectContaining({ id: 'chat-p', title: 'Untitled chat', turns: 1, warnings: 1 }));
  });

  test('search matches titles at once and message bodies note by note, reporting progress; a stopped search ends early', async () => {
    const store = new MemoryChatStore();
    const archive = new ChatArchive(store, { now: () => 0 });
    for (let i = 0; i < 5; i++) await archive.save(chat(`chat-${i}`, i === 1 ? 'Zeppelin notes' : `Chat ${i}`, Date.UTC(2026, 0, 1) + i * 1000));
    const progress: Array<[number, number, number]> = [];
    const hits = await archive.search('zeppelin', { progress: (done, total, found) => progress.push([done, total, found.length]) });
    expect(hits.map((h) => h.id)).toEqual(['chat-1']);
    expect(progress.at(-1)).toEqual([5, 5, 1]);
    expect((await archive.search('MESSAGE in chat 3')).map((h) => h.id)).toEqual(['chat-3']);
    const stop = new AbortController();
    stop.abort();
    expect(await archive.search('message', { signal: stop.signal })).toEqual([]);
  });

  test('open by id reads one note; a note renamed meanwhile is found again by listing', async () => {
    const store = new MemoryChatStore();
    const archive = new ChatArchive(store, { now: () => 0 });
    const { path } = await archive.save(chat('chat-x', 'Renamed later', Date.UTC(2026, 0, 1)));
    await archive.list();
    let reads = 0;
    const read = store.read.bind(store);
    store.read = (p: string) => {
      reads++;
      return read(p);
    };
    await archive.load('chat-x');
    expect(reads).toBe(1);
    const text = store.files.get(path) as string;
    store.files.delete(path);
    store.files.set('Strata/Chats/Moved by hand.md', text);
    expect((await archive.load('chat-x')).path).toBe('Strata/Chats/Moved by hand.md');
  });
});

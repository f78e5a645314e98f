import { ChatArchive } from '../../../src/core/conversation/archive';
import { normalizeChatFolder } from '../../../src/core/vaultFolders';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { newConversation } from '../../../src/core/conversation/model';

describe('the chats folder setting', () => {
  it('is normalised the way the archive stores it, so the plugin keeps one archive (and one note per chat)', () => {
    expect(normalizeChatFolder('Strata\\Chats')).toBe('Strata/Chats');
    expect(normalizeChatFolder('AI//Chats/')).toBe('AI/Chats');
    expect(normalizeChatFolder('/')).toBe('Strata/Chats');
    expect(normalizeChatFolder('  ')).toBe('Strata/Chats');
    for (const raw of ['Strata\\Chats', 'AI//Chats', '/', '/Notes/AI/']) {
      expect(new ChatArchive(new MemoryChatStore(), { now: () => 0 }, raw).folder).toBe(normalizeChatFolder(raw));
    }
  });
});

describe('a chat note renamed while the chat is open', () => {
  it('is found again by its id: the next save updates it instead of writing a duplicate', async () => {
    const store = new MemoryChatStore();
    const clock = { now: () => 1_800_000_000_000 };
    const archive = new ChatArchive(store, clock);
    const chat = { ...newConversation({ provider: 'openai', model: 'gpt-4o', id: 'chat-renamed' }, clock), title: 'Greenhouse' };
    const { path } = await archive.save(chat);
    const renamed = 'Strata/Chats/My greenhouse chat.md';
    store.files.set(renamed, store.files.get(path) ?? '');
    store.files.delete(path);
    const saved = await archive.save({ ...chat, title: 'Greenhouse, renamed' });
    expect(saved.path).toBe(renamed);
    expect([...store.files.keys()]).toEqual([renamed]);
    expect(store.files.get(renamed)).toContain('Greenhouse, renamed');
  });
});

import type { ChatListEntry, ChatSnapshot, ChatStore, LoadedChat } from '../../src/core/chat/types';

/**
 * A chat store that keeps JSON text (not objects), so a reload goes through serialisation the way
 * a real store does. Stands in for the chat-note store, which needs the Obsidian vault.
 */
export class JsonChatStore implements ChatStore {
  readonly files = new Map<string, string>();
  saves = 0;
  failNext = 0;

  save(chat: ChatSnapshot): Promise<void> {
    if (this.failNext > 0) {
      this.failNext--;
      return Promise.reject(new Error('disk full'));
    }
    this.saves++;
    this.files.set(chat.id, JSON.stringify(chat));
    return Promise.resolve();
  }

  load(id: string): Promise<LoadedChat> {
    const text = this.files.get(id);
    if (text === undefined) return Promise.reject(new Error(`no chat ${id}`));
    return Promise.resolve({ snapshot: JSON.parse(text) as ChatSnapshot, warnings: [] });
  }

  list(): Promise<ChatListEntry[]> {
    return Promise.resolve(
      [...this.files.values()]
        .map((t) => JSON.parse(t) as ChatSnapshot)
        .map((c) => ({ id: c.id, title: c.title, updated: c.updated }))
        .sort((a, b) => b.updated - a.updated),
    );
  }

  rename(id: string, title: string): Promise<void> {
    const text = this.files.get(id);
    if (text === undefined) return Promise.reject(new Error(`no chat ${id}`));
    this.files.set(id, JSON.stringify({ ...(JSON.parse(text) as ChatSnapshot), title }));
    return Promise.resolve();
  }

  remove(id: string): Promise<void> {
    this.files.delete(id);
    return Promise.resolve();
  }
}

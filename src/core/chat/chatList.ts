import type { ChatArchivePort, ChatListRow, SearchOptions } from '../ports/chatArchive';
import type { ChatController } from './chatController';

/** What the chat history offers: list, search, open, rename, delete. */
export interface ChatListActions {
  list(): Promise<ChatListRow[]>;
  /** Full-text search (titles and messages). */
  search(query: string, options?: SearchOptions): Promise<ChatListRow[]>;
  open(id: string): Promise<void>;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
}

/**
 * The chat list over the archive. The chat shown is renamed and deleted through the controller (its
 * title is part of its state; deleting it starts a new chat); any other chat through the archive.
 */
export function chatListActions(controller: ChatController, archive: ChatArchivePort): ChatListActions {
  return {
    list: () => archive.list(),
    search: (query, options) => archive.search(query, options),
    open: (id) => controller.open(id),
    rename: (id, title) => (id === controller.chatId ? controller.rename(title) : archive.rename(id, title)),
    remove: (id) => controller.remove(id),
  };
}

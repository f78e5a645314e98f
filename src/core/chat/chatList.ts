import type { ChatArchivePort, ChatListRow, SearchOptions } from '../ports/chatArchive';
import { withFlags, type ChatFlags } from '../conversation/chatFlags';
import type { ChatController } from './chatController';

/** What the chat history offers: list, search, open, rename, pin, archive, delete, and which chats are replying. */
export interface ChatListActions {
  list(): Promise<ChatListRow[]>;
  /** Full-text search (titles and messages). */
  search(query: string, options?: SearchOptions): Promise<ChatListRow[]>;
  open(id: string): Promise<void>;
  /** Open the chat in a new tab (absent: the host has no tabs). */
  openInNewTab?(id: string): void;
  rename(id: string, title: string): Promise<void>;
  /** Pin or archive (absent: the archive cannot). */
  setFlags?(id: string, flags: ChatFlags): Promise<void>;
  remove(id: string): Promise<void>;
  /** The chats whose reply (or condense) is running now, in any view or none. */
  running(): ReadonlySet<string>;
  /** Call `watcher` when a chat starts or stops running; returns its removal. */
  watchRuns(watcher: () => void): () => void;
}

/**
 * The chat list over the archive. The chat shown is renamed and deleted through the controller (its
 * title is part of its state; deleting it starts a new chat); any other chat through the archive.
 * A chat open in memory (shown in some view, or replying) is pinned and archived there, so its next
 * save keeps it; any other in its note.
 */
export function chatListActions(controller: ChatController, archive: ChatArchivePort): ChatListActions {
  const { hub } = controller;
  const setFlags = archive.setFlags?.bind(archive);
  return {
    list: () => archive.list(),
    search: (query, options) => archive.search(query, options),
    open: (id) => controller.open(id),
    rename: (id, title) => (id === controller.chatId ? controller.rename(title) : archive.rename(id, title)),
    ...(setFlags
      ? {
          setFlags: async (id: string, flags: ChatFlags) => {
            if (!(await hub.update(id, (c) => withFlags(c, flags)))) await setFlags(id, flags);
          },
        }
      : {}),
    remove: (id) => controller.remove(id),
    running: () => hub.running(),
    watchRuns: (watcher) => hub.watchRuns(watcher),
  };
}

import type { Conversation } from '../conversation/model';
import type { ChatFlags } from '../conversation/chatFlags';

/** One row of the chat list. */
export interface ChatListRow {
  readonly path: string;
  readonly id: string;
  readonly title: string;
  readonly created: number;
  readonly updated: number;
  readonly turns: number;
  readonly model: string;
  /** Chats that did not read cleanly still show, with their warnings. */
  readonly warnings: number;
  /** Shown first in the history (the note's `pinned` property). */
  readonly pinned?: true;
  /** Left out of the history list, found by search (the note's `archived` property). */
  readonly archived?: true;
}

export interface SaveResult {
  readonly path: string;
  /** The conversation as saved: the same object, unless the note was edited meanwhile (merged). */
  readonly conversation: Conversation;
  /** Turn indexes whose text was taken from the user's edit in the note. */
  readonly edited: number[];
  readonly warnings: string[];
}

export interface LoadedChat {
  readonly path: string;
  readonly conversation: Conversation;
  /** Everything that did not read cleanly, for the user to see. */
  readonly warnings: string[];
}

export interface SearchOptions {
  /** How far a search over many chats got: notes read so far, of how many, and the hits so far. */
  readonly progress?: (done: number, total: number, hits: readonly ChatListRow[]) => void;
  /** A newer search stops this one. */
  readonly signal?: AbortSignal;
}

/**
 * Saved chats, addressed by chat id (the chat-note archive in the app and in Node). A save returns
 * the conversation as written, merged with the user's edits in the note: it becomes the chat's state.
 */
export interface ChatArchivePort {
  save(conversation: Conversation): Promise<SaveResult>;
  load(id: string): Promise<LoadedChat>;
  list(): Promise<ChatListRow[]>;
  /** Chats whose title or messages contain every word of the query. */
  search(query: string, options?: SearchOptions): Promise<ChatListRow[]>;
  rename(id: string, title: string): Promise<void>;
  /** Pin or archive a chat not open in memory (chatFlags.ts); absent: the history offers neither. */
  setFlags?(id: string, flags: ChatFlags): Promise<void>;
  delete(id: string): Promise<void>;
}

import type { ContextChip } from '../context/items';
import type { ResolutionProblem } from '../context/resolver';
import type { ProviderSession } from '../compiler/session';
import type { CompileMode } from '../compiler/messageCompiler';
import type { EngineState } from '../engine/engine';
import type { FreshnessEvent, PrefixChange } from '../engine/types';
import type { ChatMode } from '../settings';
import type { Usage } from '../usage';
import type { EnvelopeRecord } from '../conversation/model';

/** What one completed turn carries besides its text: shown under the reply and saved with the chat. */
export interface TurnMeta {
  readonly turn: number;
  readonly providerId: string;
  readonly model: string;
  readonly usage: Usage;
  /** US dollars; null when the model has no known price. */
  readonly cost: number | null;
  readonly compileMode: CompileMode;
  /** Why the request went out in full (or 'session-active' for a delta). */
  readonly compileReason: string;
  readonly prefixChange: PrefixChange | null;
  readonly freshness: readonly FreshnessEvent[];
  readonly problems: readonly ResolutionProblem[];
  /** Prompt tokens as Strata counted them (the provider's count is in usage). */
  readonly promptTokens: number;
  /** Layer sizes and hashes, for the chat note. */
  readonly envelope?: EnvelopeRecord;
}

/** One completed turn as the chat keeps it. */
export interface ChatTurn {
  readonly turn: number;
  readonly userText: string;
  readonly chips: readonly ContextChip[];
  readonly reply: string;
  readonly meta: TurnMeta;
  /** When the user sent it and when the reply completed (epoch ms). */
  readonly at: number;
  readonly replyAt: number;
}

/** A user message that has not (yet) produced a reply: kept, saved, and retried as it is. */
export interface PendingMessage {
  readonly userText: string;
  readonly chips: readonly ContextChip[];
  readonly status: 'sending' | 'failed' | 'stopped';
  /** The provider's clear message (failed), or why it stopped. */
  readonly error?: string;
  /** What had streamed before the failure or the stop (not part of the conversation). */
  readonly partialReply?: string;
  /** When the user sent it (epoch ms). */
  readonly at: number;
}

/**
 * A user message that never got a reply and is no longer the one to retry (the user wrote another
 * message after it failed, or a reopened chat note has it between answered turns). Kept, shown and
 * saved; never sent again on its own.
 */
export interface UnansweredMessage {
  /** Number of answered turns before it. */
  readonly afterTurn: number;
  readonly userText: string;
  readonly chips: readonly ContextChip[];
  readonly at: number;
  readonly error?: string;
}

/** Everything a chat store needs to persist one chat. Holds no secrets. */
export interface ChatSnapshot {
  readonly id: string;
  readonly title: string;
  /** The user named the chat (otherwise the title follows the first message). */
  readonly titleEdited?: boolean;
  readonly providerId: string;
  readonly model: string;
  readonly mode: ChatMode;
  /** Epoch milliseconds from the injected clock. */
  readonly created: number;
  readonly updated: number;
  readonly turns: readonly ChatTurn[];
  readonly pending: PendingMessage | null;
  readonly unanswered?: readonly UnansweredMessage[];
  readonly session: ProviderSession | null;
  /** Engine state (the library with note contents): a store may keep refs only and rebuild it on load. */
  readonly engine: EngineState;
}

/** A saved chat, loaded: the snapshot, plus anything the loader had to warn about. */
export interface LoadedChat {
  readonly snapshot: ChatSnapshot;
  readonly warnings: readonly string[];
}

export interface ChatListEntry {
  readonly id: string;
  readonly title: string;
  readonly updated: number;
  /** Where it is stored (a vault path), for display. */
  readonly location?: string;
}

/** A completed turn's display text as the user edited it in the chat note (index into the completed turns). */
export interface TurnTextEdit {
  readonly index: number;
  /** The turn's time, so an edit never lands on a turn that replaced it meanwhile (regenerate). */
  readonly at: number;
  readonly userText: string;
  readonly reply: string;
}

/** Persistence for chats (the chat-note store in Obsidian; an in-memory or file store in tests). */
export interface ChatStore {
  /**
   * May report warnings, and the text of completed turns the user edited in the note meanwhile
   * (merged into the note): the controller takes them over so its next save keeps them.
   */
  save(chat: ChatSnapshot): Promise<void | { readonly warnings: readonly string[]; readonly edits?: readonly TurnTextEdit[] }>;
  load(id: string): Promise<LoadedChat>;
  list(): Promise<ChatListEntry[]>;
  /** Full-text search (titles and messages); without it the view filters titles. */
  search?(query: string): Promise<ChatListEntry[]>;
  rename(id: string, title: string): Promise<void>;
  remove(id: string): Promise<void>;
}

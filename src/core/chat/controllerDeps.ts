import type { VaultReader } from '../ports/vault';
import type { ChatArchivePort } from '../ports/chatArchive';
import type { ToolHost } from '../ports/toolHost';
import type { StrataSettings } from '../settings/settings';
import type { Usage } from '../usage';
import type { VaultSearch } from '../search/types';
import type { SummaryCache } from '../planning/summaryCache';
import type { ProviderFactory } from '../ports/providerFactory';
import type { NoteWriter } from '../ports/noteWriter';
import type { ProposalReviewer } from '../edits/proposal';

/** What the host (the plugin, the Node tools, the tests) gives the chat controller. */
export interface ChatControllerDeps {
  readonly vault: VaultReader;
  /** Saved chats (the chat-note archive): saves return the note's state, merged with the user's edits. */
  readonly archive: ChatArchivePort;
  readonly providers: ProviderFactory;
  /** Current settings (read at every turn, so edits apply to the next one). */
  readonly settings: () => StrataSettings;
  /** Epoch milliseconds. */
  readonly now: () => number;
  /** A fresh, unique chat id (the host decides how: core code has no randomness). */
  readonly newId: () => string;
  /** US dollars for a call; null when the model has no known price. */
  readonly costOf?: (model: string, usage: Usage) => number | null;
  /** The vault search for Vault QA turns; null (or absent) while the index is not ready. Read at every turn. */
  readonly search?: () => VaultSearch | null;
  /** What the Agent mode's tools read (the vault, its search, the open note, the web); absent: no Agent mode. Read at every turn. */
  readonly toolHost?: () => ToolHost;
  /** How the agent's write tools and undo change notes (issue 28); absent: the agent cannot write. */
  readonly writer?: () => NoteWriter;
  /** Who reviews an edit proposal (the chat view, the inspector's flag, a test's script); absent: the agent cannot write. */
  readonly reviewer?: () => ProposalReviewer;
  /** Artifact summaries, shared by every chat and kept between sessions (absent: an in-memory cache). */
  readonly summaryCache?: SummaryCache;
  /** How long the save of a message's words waits for its reply (ms; default WORDS_SAVE_DELAY_MS). */
  readonly wordsSaveDelayMs?: number;
}

/**
 * The save of the user's words before a request waits this long: a reply (or a failure) within it
 * is saved in the same write (one write per turn); a longer request gets its words written first,
 * so a crash mid-request keeps them. The provider call never waits for either.
 */
export const WORDS_SAVE_DELAY_MS = 1500;

import type { LibraryCondensing } from '../engine/types';
import type { PlanBook, PlanRecord } from './records/plan';
import type { CompactionEvent } from './records/compaction';
import type { MaskingLimits } from '../engine/masking';
import type { ToolForm } from '../engine/toolForms';
import type { Clock } from '../ports/clock';
import type { ContextChip } from '../context/items';
import type { ResolutionProblem } from '../context/resolver';
import type { CommittedRequest, PendingEvent } from '../engine/prefix';
import type { FreshnessStatus, ImageRef, LayerId, LibraryItem, PrefixChange, PromptFragment, ToolOutput } from '../engine/types';
import type { ProviderSession } from '../compiler/session';
import type { CompileMode } from '../compiler/messageCompiler';
import type { Usage } from '../usage';
import type { TurnSearch } from './records/search';
import type { AgentTurn } from './records/agent';
import type { WritePolicy } from '../edits/writePolicy';
import type { EditEntry } from './records/edits';

export type { ProviderSession } from '../compiler/session';

/**
 * Token counts of a turn's message blocks, saved with the turn, so the first request after the chat
 * is reopened does not tokenize its whole history again (at 1,000 turns, most of a second). Keyed by
 * the tokenizer's name, then by each block's content hash (blockHash): a block whose text changed, or
 * a chat continued with another tokenizer, simply finds no count and is counted, never miscounted.
 * Saved as one line of text, `<tokenizer> <hash>:<tokens> <hash>:<tokens>…` (one tokenizer per turn:
 * its model's), compact to keep and cheap to check on reading.
 */
export type BlockTokens = string;

/**
 * A Context Library item version as a chat note records it: everything but the text. Notes,
 * selections, folder and tag listings are re-read from the vault on load; URL page text is not in
 * the vault, so it is kept (in the note body) as `content`.
 */
export type ItemRef = Omit<LibraryItem, 'content'> & {
  /** URL items only: the page text that was sent. */
  readonly content?: string;
};

/**
 * A layer's size as sent. Its hash is not kept: nothing reads it back (reopening rebuilds the engine
 * from the messages, the library refs and the last request's fingerprint), and it cannot be
 * recomputed once a note changes; format-1 notes that have one are read without it.
 */
export interface LayerRecord {
  readonly tokens: number;
}

/** What one turn's envelope said: layer sizes, what went in full or by reference, and why the prefix broke. */
export interface EnvelopeRecord {
  readonly layers: Readonly<Record<LayerId, LayerRecord>>;
  readonly promptTokens: number;
  readonly prefixChange: PrefixChange | null;
  /** Item versions sent in full, as id@version. */
  readonly full: readonly string[];
  readonly freshness: ReadonlyArray<{ id: string; status: FreshnessStatus; fromVersion: number; toVersion?: number }>;
  readonly removed: readonly string[];
  /** How the request went out: in full or as a delta after the provider session's cursor, and why. */
  readonly compile?: { readonly mode: CompileMode; readonly reason: string };
}

/**
 * Where a turn is: 'sending' while its request runs (a note saved then, and reopened, means the app
 * closed mid-request), 'complete' once answered, 'failed' or 'stopped' when it got no reply.
 */
export const TURN_STATUSES = ['sending', 'complete', 'failed', 'stopped'] as const;
export type TurnStatus = (typeof TURN_STATUSES)[number];

/** A turn the model answered (the only kind the engine and the provider have seen). */
export function isAnswered(turn: { readonly status: TurnStatus }): boolean {
  return turn.status === 'complete';
}

/**
 * One user message and its reply. `text` is what the user sees; `sent` is what the model got as the
 * user message when it differs (an expanded command, or the user edited the message in the note). A
 * turn that is not complete keeps the user's words and the error, has no reply, and is not part of
 * what the model has seen.
 */
export interface ChatTurn {
  readonly status: TurnStatus;
  readonly text: string;
  readonly sent?: string;
  /** When the user sent it (epoch ms). */
  readonly at: number;
  readonly reply?: string;
  readonly replyAt?: number;
  /** The provider id (as configured in settings) and model that answered. */
  readonly provider?: string;
  readonly model?: string;
  /** The chips the user attached (URL page text left out), so a failed turn can be retried as it was. */
  readonly chips?: readonly ContextChip[];
  /** Dynamic L1 fragments that travelled with this user message. */
  readonly dynamic: readonly PromptFragment[];
  readonly tools: readonly ToolOutput[];
  /** Ids attached again and sent by reference. */
  readonly referenced: readonly string[];
  readonly problems: readonly ResolutionProblem[];
  /** Images its user message carried (the active note's), as refs: the bytes are read again from the vault on reopen. */
  readonly images?: readonly ImageRef[];
  /** Vault QA: the query searched (the message or its rewrite), the sources numbered, the rewrite's call. Agent: the sources its searches numbered. */
  readonly search?: TurnSearch;
  /** Agent: how the loop ended, and each model call with its tool calls (kept on a failed or stopped turn too). */
  readonly agent?: AgentTurn;
  /** Artifact planning: why it planned (or not), each artifact's strategy, the planner's and summaries' calls. */
  readonly plan?: PlanRecord;
  readonly envelope?: EnvelopeRecord;
  /** Token counts of its message blocks, by tokenizer and content hash (blockTokens.ts): a reopened chat does not count them again. */
  readonly tokens?: BlockTokens;
  readonly usage?: Usage | null;
  /** USD; null when unknown. */
  readonly cost?: number | null;
  readonly error?: string;
  /** What had streamed before a failure or a stop. Shown and saved (partialCallout.ts), never sent. */
  readonly partial?: string;
}

/**
 * A compaction as the chat keeps it: what happened (the event: trigger, boundary, tokens before and
 * after, the summarizing calls) and what the engine renders from it (the summary text, masking).
 * Only the latest one is rendered; earlier ones stay for the record (and the chat's cost).
 */
export interface CompactionRecord extends CompactionEvent {
  /** The summary, or the omission marker. Saved in the note body as a folded callout. */
  readonly text: string;
  /** Kept turns up to this one (the chat's turn count when it was made) are masked. */
  readonly maskedThrough: number;
  readonly masking: MaskingLimits;
  /** Kept turns' tool outputs sent shorter, as decided at this compaction (the exact text sent). Absent: none. */
  readonly toolForms?: readonly ToolForm[];
  /** When it was made (epoch ms). */
  readonly at: number;
  /** USD of the summarizing calls (0 without any); null when the summary model has no known price. */
  readonly cost: number | null;
}

export const TITLE_SOURCES = ['first-message', 'generated', 'user'] as const;
export type TitleSource = (typeof TITLE_SOURCES)[number];

/** The call that generated the chat's title: counted in the chat's cost, like a summary's. */
export interface TitleCall {
  readonly provider: string;
  readonly model: string;
  readonly usage: Usage;
  /** USD; null when the model has no known price. */
  readonly cost: number | null;
}

/**
 * How the note's bytes are laid out: its line breaks and whether it starts with a BOM (an editor
 * or git's autocrlf may have changed them). Read from the note and written back as found, so a
 * save does not rewrite every line. Not the frontmatter's `strata.format` (the schema version).
 */
export interface NoteFormat {
  readonly eol: '\n' | '\r\n' | '\r';
  readonly bom: boolean;
}

export interface Conversation {
  readonly id: string;
  readonly title: string;
  readonly titleSource: TitleSource;
  /** The generated title's call (absent when the title was not generated). */
  readonly titleCall?: TitleCall;
  readonly provider: string;
  readonly model: string;
  readonly mode: string;
  /** The project the chat belongs to (its id in settings; src/core/projects). An id no project has any more is kept. */
  readonly project?: string;
  readonly created: number;
  readonly updated: number;
  readonly session: ProviderSession | null;
  readonly turns: readonly ChatTurn[];
  /** The Context Library as refs: every version, in entry order (the engine's snapshot). */
  readonly library: readonly ItemRef[];
  /** Fingerprint of the last successful request (the engine's). */
  readonly lastRequest: CommittedRequest | null;
  /** Deliberate events since the last request (library removal, compaction), named on the next turn. */
  readonly pending?: readonly PendingEvent[];
  /** Compactions, oldest first (turn numbers count answered turns, as the engine does). The latest is rendered. */
  readonly compactions?: readonly CompactionRecord[];
  /** The condensed library (issue 27): library items kept in compact form, as sent; the engine renders it as saved. */
  readonly condensedLibrary?: LibraryCondensing;
  /** Artifact planning's kept decisions and the user's overrides (sticky until the item changes). */
  readonly plan?: PlanBook;
  /** The chat's own write policy for the agent (issue 28); absent: its project's or the settings'. */
  readonly writePolicy?: WritePolicy;
  /** Edits this chat applied to notes, oldest first (issue 28): what "undo" works from, also after reopening. */
  readonly edits?: readonly EditEntry[];
  /** Frontmatter keys this format does not own (tags, aliases, a user's own properties): kept as they are. */
  readonly extra?: Readonly<Record<string, unknown>>;
  /** The frontmatter's keys in the order the note had them, when a user moved them: kept on save. */
  readonly propertyOrder?: readonly string[];
  /** Body text before the first message (a hand-written intro): kept as written. */
  readonly preamble?: string;
  /** Quoted lines typed below the chat data callout, to the end of the note: kept as written, after it. */
  readonly tail?: string;
  /** The note's line breaks and BOM when they are not LF without a BOM (the codec's default). */
  readonly format?: NoteFormat;
}

export const DEFAULT_MODE = 'chat';
const TITLE_WORDS = 8;
const TITLE_CHARS = 60;

/** A title from the first words of a message, until a generated or user title replaces it. */
export function titleFromText(text: string): string {
  const words = text
    // No `[` inside a link: a run of `[[` without `]]` is then scanned once, not once per `[[` (quadratic).
    .replace(/\[\[([^[\]|]*)(?:\|([^[\]]*))?\]\]/g, (_m, target: string, alias?: string) => alias ?? target)
    .replace(/[#*_`>[\]{}<]/g, ' ')
    .split(/\s+/)
    .filter((w) => w.length > 0)
    .slice(0, TITLE_WORDS)
    .join(' ');
  const title = words.length > TITLE_CHARS ? `${words.slice(0, TITLE_CHARS - 1).trimEnd()}…` : words;
  return title || 'New chat';
}

export interface NewConversation {
  readonly provider: string;
  readonly model: string;
  readonly mode?: string;
  readonly id?: string;
  readonly session?: ProviderSession | null;
  readonly project?: string;
}

/** An empty conversation. Its id derives from the creation time unless one is given. */
export function newConversation(fields: NewConversation, clock: Clock): Conversation {
  const created = clock.now();
  return {
    id: fields.id ?? `chat-${created.toString(36)}`,
    title: 'New chat',
    titleSource: 'first-message',
    provider: fields.provider,
    model: fields.model,
    mode: fields.mode ?? DEFAULT_MODE,
    ...(fields.project ? { project: fields.project } : {}),
    created,
    updated: created,
    session: fields.session ?? null,
    turns: [],
    library: [],
    lastRequest: null,
  };
}

/** Number of completed turns before turn index `index`: the engine's turn count at that point. */
export function completedBefore(turns: readonly ChatTurn[], index: number): number {
  let n = 0;
  for (let i = 0; i < index && i < turns.length; i++) if (turns[i].status === 'complete') n++;
  return n;
}

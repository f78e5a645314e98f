import type { ItemKind, PlannedForm } from '../context/items';
import type { ResolutionProblem } from '../context/resolver';

export const LIFECYCLES = ['static', 'dynamic'] as const;
export type Lifecycle = (typeof LIFECYCLES)[number];

/** One piece of L1. Static fragments are sent once per session; dynamic ones every turn. */
export interface PromptFragment {
  readonly id: string;
  readonly lifecycle: Lifecycle;
  readonly text: string;
}

/**
 * An image from the vault as a request carries it (the bytes are not resampled: see
 * src/core/context/images.ts), identified by the sha256 of its bytes.
 */
export interface ImageRef {
  /** Vault-relative path of the image file. */
  readonly path: string;
  /** image/png, image/jpeg, image/gif or image/webp (read from the bytes). */
  readonly mediaType: string;
  readonly width: number;
  readonly height: number;
  /** Size of the file in bytes. */
  readonly bytes: number;
  /** sha256 (hex) of the file's bytes. */
  readonly hash: string;
  /** What the provider counts for it, by its own downscaling rule. */
  readonly tokens: number;
}

/** An image with its bytes (base64): what a user message sends after its text. */
export interface ImagePart extends ImageRef {
  readonly data: string;
}

export interface ToolOutput {
  readonly name: string;
  readonly input: string;
  readonly output: string;
}

/** A version of a Context Library item. A note edited between turns gets a new version. */
export interface LibraryItem {
  readonly id: string;
  readonly kind: ItemKind;
  readonly title: string;
  readonly source: string;
  readonly via?: string;
  readonly version: number;
  readonly hash: string;
  readonly content: string;
  /** Tokens of the item as sent: its whole block, wrapper included. */
  readonly tokens: number;
  /** Turn (1-based) in which this version was first sent. */
  readonly enteredTurn: number;
  /** A summary or an extract the artifact plan sent for the source (its text is `content`). */
  readonly planned?: PlannedForm;
}

/* The condensed library (issue 27; condensedLibrary.ts renders it). */

export const CONDENSED_FORMS = ['summary', 'outline', 'listed'] as const;
/** summary: the summary cache's (or the summary model's) text; outline: the note's headings; listed: its path alone. */
export type CondensedForm = (typeof CONDENSED_FORMS)[number];

export interface CondensedEntry {
  readonly id: string;
  /** The library version it stands for: attaching the item again (or a newer version) brings it back in full. */
  readonly version: number;
  readonly title: string;
  readonly source: string;
  readonly form: CondensedForm;
  /** The compact text (empty for `listed`). */
  readonly text: string;
}

export interface LibraryCondensing {
  /** In the order they were condensed (the order of the block). */
  readonly entries: readonly CondensedEntry[];
  /** Library condensings so far (each one a named prefix break). */
  readonly rounds: number;
}

interface SegmentBase {
  /** Exactly the text this segment contributes to the layer. */
  readonly text: string;
  readonly tokens: number;
  readonly hash: string;
}

export interface FragmentSegment extends SegmentBase {
  readonly type: 'fragment';
  readonly id: string;
  readonly lifecycle: Lifecycle;
}
export interface ItemSegment extends SegmentBase {
  readonly type: 'item';
  readonly item: LibraryItem;
  /** 'new': first time in the library; 'update': a newer version of an item already there. */
  readonly mode: 'new' | 'update' | 'library';
}
export interface ReferenceSegment extends SegmentBase {
  readonly type: 'references';
  readonly ids: readonly string[];
}
export interface ToolSegment extends SegmentBase {
  readonly type: 'tool';
  readonly tool: ToolOutput;
}
export interface ProblemSegment extends SegmentBase {
  readonly type: 'problems';
  readonly problems: readonly ResolutionProblem[];
}
export interface MessageSegment extends SegmentBase {
  readonly type: 'message';
  readonly role: 'user' | 'assistant';
  /** Turn the message belongs to (1-based). */
  readonly turn: number;
}

/** The summary (or omission marker) that stands for the turns a compaction dropped. */
export interface SummarySegment extends SegmentBase {
  readonly type: 'summary';
  /** Turns 1..through it stands for. */
  readonly through: number;
}

export type Segment = FragmentSegment | ItemSegment | ReferenceSegment | ToolSegment | ProblemSegment | MessageSegment | SummarySegment;

export const LAYER_IDS = ['L1', 'L2', 'L3', 'L4', 'L5'] as const;
export type LayerId = (typeof LAYER_IDS)[number];

export interface Layer<S extends Segment = Segment> {
  readonly id: LayerId;
  readonly segments: readonly S[];
  /** Sum of segment tokens (segments are counted separately so a turn costs its new content). */
  readonly tokens: number;
  /** Hash over the segment hashes, in order. */
  readonly hash: string;
}

export const PREFIX_CHANGE_REASONS = [
  'settings-changed',
  'model-switch',
  'library-item-removed',
  'condensed',
  'note-edited',
  'library-grew',
  'history-edited',
  'history-context-dropped',
  'rendering-changed',
  /** The chat moved to another project (or out of one): its project prompt, a static L1 fragment, changed. */
  'project-switch',
  /** A reopened chat's image is gone or changed: history carries a marker in its place. */
  'image-changed',
  /** The artifact plan changed an item already sent (the user excluded it): it leaves the library. */
  'replanned',
  /** Older library items left the library block for their compact form (issue 27). */
  'library-condensed',
] as const;
export type PrefixChangeReason = (typeof PREFIX_CHANGE_REASONS)[number];

export interface PrefixChange {
  readonly reason: PrefixChangeReason;
  readonly detail: string;
}

export const FRESHNESS_STATUSES = ['updated', 'stale-kept', 'missing-kept'] as const;
export type FreshnessStatus = (typeof FRESHNESS_STATUSES)[number];

/** What the freshness policy did with a library item whose note changed or vanished. */
export interface FreshnessEvent {
  readonly id: string;
  readonly status: FreshnessStatus;
  readonly fromVersion: number;
  readonly toVersion?: number;
  readonly detail: string;
}

/** The typed result of one turn's assembly. Rendering-independent: the converter turns it into messages. */
export interface Envelope {
  readonly turn: number;
  readonly model: string;
  readonly layers: {
    readonly L1: Layer<FragmentSegment>;
    readonly L2: Layer<ItemSegment>;
    readonly L3: Layer<ToolSegment | ReferenceSegment | ItemSegment | ProblemSegment>;
    /** The compaction's summary first (when there is one), then the turns kept verbatim. */
    readonly L4: Layer<SummarySegment | MessageSegment>;
    readonly L5: Layer<MessageSegment>;
  };
  /** Ids attached this turn that were already in the library (sent by reference). */
  readonly referenced: readonly string[];
  /** Item versions sent in full this turn (new items and updates), as id@version. */
  readonly full: readonly string[];
  readonly freshness: readonly FreshnessEvent[];
  readonly unresolved: readonly ResolutionProblem[];
  /** Ids the user removed from the library before this turn. */
  readonly removed: readonly string[];
  /**
   * Turns 1..condensedThrough are replaced by L4's summary (0: none). Library items that entered in
   * them are carried in a block right after L1.
   */
  readonly condensedThrough: number;
  /**
   * The condensed library (absent: none): its entries, sent as a block before the library block,
   * and the ids whose latest version they stand for (left out of the library block).
   */
  readonly condensedLibrary?: { readonly entries: readonly CondensedEntry[]; readonly ids: readonly string[] };
  /** Earlier turns rendered in history, with what each one carried besides its text. */
  readonly history: readonly HistoryTurn[];
  /** Images of this turn's user message (from the active note), sent after its text. Absent: none. */
  readonly images?: readonly ImagePart[];
}

/** What an earlier turn's user message carried as it was sent, so history can be replayed byte for byte. */
export interface HistoryTurn {
  readonly turn: number;
  readonly dynamic: readonly PromptFragment[];
  readonly tools: readonly ToolOutput[];
  readonly referenced: readonly string[];
  readonly problems: readonly ResolutionProblem[];
  /** Images its user message carried, re-sent with it byte for byte. Absent: none. */
  readonly images?: readonly ImagePart[];
  /**
   * Paths of images it carried that could not be read again (a reopened chat whose image is gone or
   * changed): each becomes the text `[image <path> is no longer available]` after the message's text.
   */
  readonly lostImages?: readonly string[];
  /**
   * An agent turn answered after its tool calls: its steps without their results, which are the last
   * of `tools` (one per call, in call order). History sends them as the provider's own tool messages
   * (agentHistory.ts) instead of blocks in the user message. Absent: any other turn.
   */
  readonly agent?: AgentHistory;
}

/** An agent turn's model calls as history replays them (the results are the turn's tools). */
export interface AgentHistory {
  readonly steps: readonly {
    readonly text: string;
    readonly calls: readonly { readonly id: string; readonly name: string; readonly args: Readonly<Record<string, unknown>>; readonly isError: boolean }[];
  }[];
}

import type { CondensedForm } from '../engine/types';
import type { ItemKind } from '../context/items';
import type { RetryNotice } from '../ports/chatModel';
import type { ChatTurn, Conversation } from '../conversation/model';
import type { LibraryItem } from '../engine/types';
import { addUsage, type Usage } from '../usage';
import type { ContextUsage } from './contextUsage';
import type { LiveCall } from '../agent/progress';
import type { ChatWarning } from './warnings';
import { overrideOf } from '../planning/book';
import { madeOnce, RecentByKey } from '../memo';
import { TurnFold, type Folded, type UnansweredTurn } from './turnFold';
import type { ArtifactType, Decider, PlanOverride, PlanRecord, Strategy } from '../conversation/records/plan';

/** 'opening': a saved chat is loading (the composer waits); 'sending': a request is running. */
export type ChatPhase = 'idle' | 'opening' | 'sending';

export interface LibraryEntry {
  readonly id: string;
  readonly kind: ItemKind;
  readonly title: string;
  readonly source: string;
  readonly tokens: number;
  readonly version: number;
  readonly enteredTurn: number;
}

/** A library item the chat holds condensed (its outline or summary stands for it in the requests). */
export interface CondensedView {
  readonly id: string;
  readonly form: CondensedForm;
  /** The user asked for it in full: the next request sends it as a new version. */
  readonly fullAgain: boolean;
}

/** How an item goes into the request, as the library panel shows it. */
export interface PlannedEntry {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  readonly strategy: Strategy;
  readonly rationale: string;
  readonly by: Decider;
  /** Tokens sent for it (0 when excluded) and of the whole item. */
  readonly tokens: number;
  readonly fullTokens: number;
  /** The user's override, when set (it applies from the next request). */
  readonly override?: PlanOverride;
  /** Answered turn in which it was decided. */
  readonly turn: number;
}

export interface PlanView {
  /** Items with a decision, in the order they were first decided. */
  readonly entries: readonly PlannedEntry[];
  /** Overrides set on items without a decision yet (they apply when the item is next sent). */
  readonly overrides: readonly { readonly id: string; readonly override: PlanOverride }[];
  /** The newest answered turn's plan record, if it had one. */
  readonly last: PlanRecord | null;
  /** Planning and artifact summaries over the chat, apart from the main calls. */
  readonly usage: Usage;
  readonly cost: number | null;
  readonly calls: number;
}

/** An earlier message that never got a reply: shown and saved, never sent again on its own. */
export type { UnansweredTurn };

/**
 * What the view renders: the conversation and the controller's transient state, plus views of the
 * conversation computed from it (never kept separately). A fresh object on every change.
 */
export interface ChatState {
  readonly conversation: Conversation;
  readonly phase: ChatPhase;
  /** A request is running (the stop button shows). */
  readonly busy: boolean;
  /** Text streamed so far while a reply is coming in; null when no request is running. */
  readonly streamingText: string | null;
  /** The last request's size by layer against the input budget (null before the first request). */
  readonly contextUsage: ContextUsage | null;
  /** The next request as it would go now (null until measured): what the usage line shows. */
  readonly nextRequest: ContextUsage | null;
  /** A compaction is running (the turn waits for its summary). */
  readonly condensing: boolean;
  /** The request failed and is retried after a wait: shown in the message being answered, with a cancel. */
  readonly retry: RetryNotice | null;
  /** Agent turns: the tool calls made so far while the reply is coming in (empty otherwise). */
  readonly agentCalls: readonly LiveCall[];
  readonly library: readonly LibraryEntry[];
  /** Library items held condensed (issue 27), and whether the user asked for one in full again. Absent: none. */
  readonly condensed?: readonly CondensedView[];
  /** Artifact planning: each planned item's strategy (excluded ones too), the last plan, what planning cost. */
  readonly plan: PlanView;
  readonly warnings: readonly ChatWarning[];
  /** True once the chat has been saved at least once (it then appears in the history). */
  readonly saved: boolean;
  // Derived from the conversation:
  readonly answered: readonly ChatTurn[];
  /** The last message, when it has no reply (sending, failed or stopped): the one Retry sends. */
  readonly pending: ChatTurn | null;
  readonly unanswered: readonly UnansweredTurn[];
  readonly totalUsage: Usage;
  /** Sum of known costs; null when no turn had a price. */
  readonly totalCost: number | null;
}

export type Transient = Omit<ChatState, 'answered' | 'pending' | 'unanswered' | 'totalUsage' | 'totalCost' | 'plan'>;

type Derived = Pick<ChatState, 'answered' | 'pending' | 'unanswered' | 'totalUsage' | 'totalCost' | 'plan'>;

/** What a conversation's state derives from it, by conversation object: a state rebuilt for another reason (a phase, a warning) does not walk a long chat again. */
const derivedMemo = new WeakMap<Conversation, Derived>();

export function chatStateOf(transient: Transient): ChatState {
  let derived = derivedMemo.get(transient.conversation);
  if (!derived) {
    derived = deriveFrom(transient.conversation);
    derivedMemo.set(transient.conversation, derived);
  }
  return { ...transient, ...derived };
}

/** Folds by chat id, for the few chats derived lately (the one shown, one saving in the background). */
const folds = new RecentByKey(() => new TurnFold());

function deriveFrom(conversation: Conversation): Derived {
  const turns = conversation.turns;
  const last = turns[turns.length - 1];
  const pending = last && last.status !== 'complete' ? last : null;
  const folded = folds.for(conversation.id).of(turns);
  let { usage: totalUsage, cost: totalCost } = folded;
  // Summaries are part of what the chat cost.
  for (const c of conversation.compactions ?? []) {
    if (c.summary) totalUsage = addUsage(totalUsage, c.summary.usage);
    if (c.summary && typeof c.cost === 'number') totalCost = (totalCost ?? 0) + c.cost;
  }
  // So is the generated title.
  const title = conversation.titleCall;
  if (title) totalUsage = addUsage(totalUsage, title.usage);
  if (title && typeof title.cost === 'number') totalCost = (totalCost ?? 0) + title.cost;
  return { answered: folded.answered, pending, unanswered: folded.unanswered, totalUsage, totalCost, plan: planViewOf(conversation, folded) };
}

const entries = new WeakMap<LibraryItem, LibraryEntry>();
const entryLists = new WeakMap<readonly LibraryItem[], readonly LibraryEntry[]>();

/** The library panel's entries for the engine's latest() array (the same array until the library changes: listed once). */
export function libraryEntries(items: readonly LibraryItem[]): readonly LibraryEntry[] {
  return madeOnce(entryLists, items, (list) => list.map(libraryEntry));
}

/** A library item as the view lists it (items are immutable: made once per item). */
export function libraryEntry(item: LibraryItem): LibraryEntry {
  return madeOnce(entries, item, entryOf);
}

function entryOf(item: LibraryItem): LibraryEntry {
  return {
    id: item.id,
    kind: item.kind,
    title: item.title,
    source: item.source,
    tokens: item.tokens,
    version: item.version,
    enteredTurn: item.enteredTurn,
  };
}

/** The library panel's view of the chat's plan: derived from the conversation, never kept apart. */
function planViewOf(conversation: Conversation, folded: Folded): PlanView {
  const book = conversation.plan;
  const entries: PlannedEntry[] = (book?.decisions ?? []).map((d) => {
    const override = overrideOf(book, d.id);
    return {
      id: d.id,
      type: d.type,
      title: d.title,
      strategy: d.strategy,
      rationale: d.rationale,
      by: d.by,
      tokens: d.tokens,
      fullTokens: d.fullTokens,
      turn: d.turn,
      ...(override ? { override } : {}),
    };
  });
  const decided = new Set(entries.map((e) => e.id));
  const { lastPlan: last, planUsage: usage, planCost: cost, planCalls: calls } = folded;
  return { entries, overrides: (book?.overrides ?? []).filter((o) => !decided.has(o.id)), last, usage, cost, calls };
}

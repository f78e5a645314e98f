import type { PlanRecord } from './records/plan';
import { withDecisions } from '../planning/book';
import { type KeptDecision } from './records/plan';
import type { ContextChip } from '../context/items';
import type { EngineState } from '../engine/engine';
import type { TurnAssembly } from '../engine/turnAssembly';
import type { CompileMode } from '../compiler/messageCompiler';
import type { Usage } from '../usage';
import type { TurnSearch } from './records/search';
import { envelopeRecord, savedChip, toRef } from './toRecords';
import { blockTokensOf } from './blockTokens';
import { type BlockTokens } from './model';
import { sentTurnOf } from '../engine/completedTurn';
import { imageRefOf } from '../engine/images';
import { completedBefore, titleFromText, type ChatTurn, type CompactionRecord, type Conversation, type ProviderSession, type TitleCall, type TitleSource } from './model';
import type { AgentTurn } from './records/agent';

/**
 * Turn changes as pure transitions: Conversation in, Conversation out. LiveChat (liveChat.ts) applies
 * them with the engine's own changes (commit, truncate, library removals, compactions), so callers
 * never keep the two in step by hand. Times are arguments: core code never reads the clock.
 */

export interface NewMessage {
  readonly text: string;
  /** What the model gets as the user message, when it differs from the text shown. */
  readonly sent?: string;
  readonly chips?: readonly ContextChip[];
  readonly at: number;
}

/** Record the user's words before anything is sent, so no failure can lose them. Returns the turn's index. */
export function addUserMessage(c: Conversation, message: NewMessage): { conversation: Conversation; index: number } {
  const turn: ChatTurn = {
    status: 'sending',
    text: message.text,
    ...(message.sent !== undefined && message.sent !== message.text ? { sent: message.sent } : {}),
    at: message.at,
    ...(message.chips ? { chips: message.chips.map(savedChip) } : {}),
    dynamic: [],
    tools: [],
    referenced: [],
    problems: [],
  };
  const first = c.turns.length === 0;
  return {
    conversation: {
      ...c,
      turns: [...c.turns, turn],
      updated: message.at,
      ...(first && c.titleSource === 'first-message' ? { title: titleFromText(message.text) } : {}),
    },
    index: c.turns.length,
  };
}

/** What the provider call produced besides the reply text. */
export interface Answer {
  readonly assembly: TurnAssembly;
  /**
   * Agent: the loop's first request, when history replays the turn's steps as the provider's own tool
   * messages (the engine's next request extends it, not `assembly`, whose user message holds the results).
   */
  readonly sent?: TurnAssembly;
  readonly reply: string;
  readonly replyAt: number;
  /** The provider id that answered (settings id). */
  readonly provider?: string;
  readonly compile?: { readonly mode: CompileMode; readonly reason: string };
  readonly usage?: Usage | null;
  /** USD; null when unknown. */
  readonly cost?: number | null;
  /** The provider session after this call (cursor advanced by the compiler). */
  readonly session?: ProviderSession | null;
  /** Vault QA: the turn's search (Agent: the sources its searches numbered). */
  readonly search?: TurnSearch;
  /** Agent: the loop's model calls and tool calls. */
  readonly agent?: AgentTurn;
  /** Artifact planning: the turn's record, and the decisions the chat keeps from now on. */
  readonly plan?: { readonly record: PlanRecord | null; readonly decisions: readonly KeptDecision[] };
}

/**
 * The reply arrived. Throws (changing nothing) when the assembly is not for this turn: call it before
 * engine.commit, so a mismatch never reaches the engine.
 */
export function completeTurn(c: Conversation, index: number, answer: Answer): Conversation {
  const turn = turnAt(c, index);
  if (c.turns.slice(index + 1).some((t) => t.status === 'complete')) {
    throw new Error(`turn ${index + 1} cannot be completed: later turns are already answered`);
  }
  const expected = completedBefore(c.turns, index) + 1;
  if (answer.assembly.envelope.turn !== expected) {
    throw new Error(`turn ${index + 1} is engine turn ${expected}, but the assembly is for turn ${answer.assembly.envelope.turn}`);
  }
  const parts = sentTurnOf(answer.assembly);
  const { error: _error, sent: _sent, partial: _partial, search: _search, agent: _agent, images: _images, plan: _plan, ...rest } = turn;
  const done: ChatTurn = {
    ...rest,
    status: 'complete',
    // What the engine got as L5 is what was sent; recorded only when it differs from the display text.
    ...(parts.userText !== turn.text ? { sent: parts.userText } : {}),
    reply: answer.reply,
    replyAt: answer.replyAt,
    ...(answer.provider !== undefined ? { provider: answer.provider } : {}),
    model: parts.model,
    dynamic: parts.dynamic,
    tools: parts.tools,
    referenced: parts.referenced,
    problems: parts.problems,
    ...(parts.images ? { images: parts.images.map(imageRefOf) } : {}),
    ...(answer.search ? { search: answer.search } : {}),
    ...(answer.agent ? { agent: answer.agent } : {}),
    ...(answer.plan?.record ? { plan: answer.plan.record } : {}),
    envelope: { ...envelopeRecord(answer.assembly), ...(answer.compile ? { compile: answer.compile } : {}) },
    ...tokensOf(answer.assembly, answer.reply),
    ...(answer.usage !== undefined ? { usage: answer.usage } : {}),
    ...(answer.cost !== undefined ? { cost: answer.cost } : {}),
  };
  return {
    ...c,
    turns: replaceAt(c.turns, index, done),
    updated: answer.replyAt,
    model: parts.model,
    ...(answer.session !== undefined ? { session: answer.session } : {}),
    ...(answer.plan && answer.plan.decisions.length > 0 ? { plan: withDecisions(c.plan, answer.plan.decisions) } : {}),
  };
}

function tokensOf(assembly: TurnAssembly, reply: string): { tokens?: BlockTokens } {
  const tokens = blockTokensOf(assembly, reply);
  return tokens ? { tokens } : {};
}

export interface Failure {
  readonly status: 'failed' | 'stopped';
  readonly error: string;
  /** What had streamed before it failed or stopped. */
  readonly partial?: string;
  /** Agent turns: the model calls (and their tool calls) done before it failed or stopped. */
  readonly agent?: AgentTurn;
  readonly at: number;
}

/** Send a turn's message (again): it is waiting for its reply, without the last attempt's error or partial reply. */
export function resendTurn(c: Conversation, index: number): Conversation {
  const { error: _error, partial: _partial, agent: _agent, ...turn } = turnAt(c, index);
  return { ...c, turns: replaceAt(c.turns, index, { ...turn, status: 'sending' }) };
}

/** The request failed or was stopped: the user's words stay, marked not answered, with the reason. */
export function failTurn(c: Conversation, index: number, failure: Failure): Conversation {
  const { partial: _partial, agent: _agent, ...turn } = turnAt(c, index);
  const failed: ChatTurn = {
    ...turn,
    status: failure.status,
    error: failure.error,
    ...(failure.partial ? { partial: failure.partial } : {}),
    ...(failure.agent && failure.agent.steps.length > 0 ? { agent: failure.agent } : {}),
  };
  return { ...c, turns: replaceAt(c.turns, index, failed), updated: failure.at };
}

/**
 * Edit and resend, regenerate: drop turn `index` and everything after it. The caller truncates the
 * engine to `completedBefore(turns, index)` answered turns (a history edit, named on the next turn).
 */
export function truncateFrom(c: Conversation, index: number, at: number): Conversation {
  turnAt(c, index);
  const { compactions, ...rest } = c;
  // Compactions of turns now gone are undone, as the engine undoes them; the masking stops where the turns do.
  const answered = completedBefore(c.turns, index);
  const kept = (compactions ?? []).filter((r) => r.through <= answered).map((r) => withoutFormsPast(r.maskedThrough > answered ? { ...r, maskedThrough: answered } : r, answered));
  return { ...rest, ...(kept.length > 0 ? { compactions: kept } : {}), turns: c.turns.slice(0, index), updated: at };
}

/** A compaction was made (and applied to the engine): recorded with the chat, its cost counted in the chat's. */
export function recordCompaction(c: Conversation, record: CompactionRecord): Conversation {
  return { ...c, compactions: [...(c.compactions ?? []), record], updated: record.at };
}

/** The library, last request and pending events as the engine now has them (what a save records). */
export function withEngine(c: Conversation, state: EngineState): Conversation {
  const { pending: _previous, condensedLibrary: _condensed, ...rest } = c;
  return {
    ...rest,
    library: state.library.map(toRef),
    lastRequest: state.lastRequest ?? null,
    ...(state.pending && state.pending.length > 0 ? { pending: state.pending } : {}),
    ...(state.libraryCondensing && state.libraryCondensing.entries.length > 0 ? { condensedLibrary: state.libraryCondensing } : {}),
  };
}

export function setTitle(c: Conversation, title: string, source: TitleSource, at: number): Conversation {
  const clean = title.replace(/\s+/g, ' ').trim();
  if (!clean) return c;
  return { ...c, title: clean, titleSource: source, updated: at };
}

/** A generated title and the call that made it (its cost is the chat's). */
export function setGeneratedTitle(c: Conversation, title: string, call: TitleCall, at: number): Conversation {
  const titled = setTitle(c, title, 'generated', at);
  return titled === c ? c : { ...titled, titleCall: call };
}

export function setModel(c: Conversation, provider: string, model: string, at: number): Conversation {
  return provider === c.provider && model === c.model ? c : { ...c, provider, model, updated: at };
}

/** The chat's project (undefined: none). The engine records the switch itself (a named prefix break). */
export function setProject(c: Conversation, project: string | undefined, at: number): Conversation {
  if (project === c.project) return c;
  const { project: _left, ...rest } = c;
  return project ? { ...rest, project, updated: at } : { ...rest, updated: at };
}

export function setMode(c: Conversation, mode: string, at: number): Conversation {
  return mode === c.mode ? c : { ...c, mode, updated: at };
}

export function setSession(c: Conversation, session: ProviderSession | null): Conversation {
  return { ...c, session };
}

export const INTERRUPTED = 'The app closed before the reply came in. Your message is kept: retry to send it.';

/** A reopened chat whose last request was still running when it was saved: that request is gone. */
export function interrupted(c: Conversation): Conversation {
  if (!c.turns.some((t) => t.status === 'sending')) return c;
  return { ...c, turns: c.turns.map((t) => (t.status === 'sending' ? { ...t, status: 'failed' as const, error: INTERRUPTED } : t)) };
}

function turnAt(c: Conversation, index: number): ChatTurn {
  const turn = c.turns[index];
  if (!turn) throw new Error(`no turn ${index + 1} in this conversation (it has ${c.turns.length})`);
  return turn;
}

function replaceAt<T>(list: readonly T[], index: number, value: T): T[] {
  const out = [...list];
  out[index] = value;
  return out;
}

/** A record without the tool forms of turns past `answered` (turns a truncation dropped), as the engine drops them. */
function withoutFormsPast(r: CompactionRecord, answered: number): CompactionRecord {
  if (!r.toolForms || r.toolForms.every((f) => f.turn <= answered)) return r;
  const forms = r.toolForms.filter((f) => f.turn <= answered);
  const { toolForms: _dropped, ...rest } = r;
  return forms.length > 0 ? { ...rest, toolForms: forms } : rest;
}

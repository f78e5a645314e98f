import type { ContextChip } from '../context/items';
import type { CompletedTurn, PromptContextEngine, TurnAssembly } from '../engine/engine';
import type { LibraryItem } from '../engine/types';
import type { Usage } from '../usage';
import { completedBefore, titleFromText, type ChatTurn, type Clock, type Conversation, type EnvelopeRecord, type ItemRef, type ProviderSession, type TitleSource } from './model';

/** What the provider call produced besides the text. */
export interface TurnOutcome {
  readonly usage?: Usage | null;
  /** USD; null when unknown. */
  readonly cost?: number | null;
  /** The provider session after this call (cursor advanced by the compiler). */
  readonly session?: ProviderSession | null;
}

/** A message as the chat view shows it. */
export interface DisplayMessage {
  /** Index of the turn in the conversation. */
  readonly turn: number;
  readonly role: 'user' | 'assistant';
  readonly text: string;
  readonly at: number;
  /** User messages only: 'failed' means not answered (retryable). */
  readonly status?: ChatTurn['status'];
  readonly error?: string;
}

export const AWAITING_REPLY = 'no reply yet (the request was interrupted or is still running)';

/**
 * The conversation and its engine, kept in step. The view records the user's words first
 * (addUserMessage, then save), assembles with `engine`, and on success calls completeTurn (then
 * save); on failure failTurn (then save). Display text and what was sent are kept apart: `text`
 * is what the user wrote, the engine gets `sent` when given.
 */
export class MessageRepository {
  private state: Conversation;

  constructor(
    conversation: Conversation,
    readonly engine: PromptContextEngine,
    private readonly clock: Clock,
  ) {
    this.state = conversation;
  }

  get conversation(): Conversation {
    return this.state;
  }

  messages(): DisplayMessage[] {
    return this.state.turns.flatMap((t, turn): DisplayMessage[] => [
      { turn, role: 'user', text: t.text, at: t.at, status: t.status, ...(t.error !== undefined ? { error: t.error } : {}) },
      ...(t.reply !== undefined ? [{ turn, role: 'assistant' as const, text: t.reply, at: t.replyAt ?? t.at }] : []),
    ]);
  }

  /** The text the engine should get as L5 for a turn. */
  sentText(index: number): string {
    const turn = this.turnAt(index);
    return turn.sent ?? turn.text;
  }

  /**
   * Record the user's message before it is sent, so a crash or an error cannot lose it. It stays
   * marked as not answered until completeTurn. Returns its turn index.
   */
  addUserMessage(text: string, options: { sent?: string; chips?: readonly ContextChip[] } = {}): number {
    const now = this.clock.now();
    const turn: ChatTurn = {
      status: 'failed',
      text,
      ...(options.sent !== undefined && options.sent !== text ? { sent: options.sent } : {}),
      at: now,
      ...(options.chips ? { chips: options.chips.map(stripUrlText) } : {}),
      dynamic: [],
      tools: [],
      referenced: [],
      problems: [],
      error: AWAITING_REPLY,
    };
    const first = this.state.turns.length === 0;
    this.state = {
      ...this.state,
      turns: [...this.state.turns, turn],
      updated: now,
      ...(first && this.state.titleSource === 'first-message' ? { title: titleFromText(text) } : {}),
    };
    return this.state.turns.length - 1;
  }

  /** The reply arrived: commit the turn to the engine and record what was sent and what it cost. */
  completeTurn(index: number, assembly: TurnAssembly, reply: string, outcome: TurnOutcome = {}): ChatTurn {
    const turn = this.turnAt(index);
    if (this.state.turns.slice(index + 1).some((t) => t.status === 'complete')) {
      throw new Error(`turn ${index + 1} cannot be completed: later turns are already answered`);
    }
    const expected = completedBefore(this.state.turns, index) + 1;
    if (assembly.envelope.turn !== expected) {
      throw new Error(`turn ${index + 1} is engine turn ${expected}, but the assembly is for turn ${assembly.envelope.turn}`);
    }
    const completed: CompletedTurn = this.engine.commit(assembly, reply);
    const now = this.clock.now();
    const { error: _error, sent: _sent, ...rest } = turn;
    const done: ChatTurn = {
      ...rest,
      status: 'complete',
      // What the engine got as L5 is what was sent; it is recorded only when it differs from the display text.
      ...(completed.userText !== turn.text ? { sent: completed.userText } : {}),
      reply,
      replyAt: now,
      model: completed.model,
      dynamic: completed.dynamic,
      tools: completed.tools,
      referenced: completed.referenced,
      problems: completed.problems,
      envelope: envelopeRecord(assembly),
      ...(outcome.usage !== undefined ? { usage: outcome.usage } : {}),
      ...(outcome.cost !== undefined ? { cost: outcome.cost } : {}),
    };
    const turns = [...this.state.turns];
    turns[index] = done;
    this.state = {
      ...this.state,
      turns,
      updated: now,
      model: completed.model,
      ...(outcome.session !== undefined ? { session: outcome.session } : {}),
    };
    this.syncEngine();
    return done;
  }

  /** The request failed or was aborted: the user's words stay, marked not answered, with the reason. */
  failTurn(index: number, error: string): void {
    const turn = this.turnAt(index);
    const turns = [...this.state.turns];
    turns[index] = { ...turn, status: 'failed', error };
    this.state = { ...this.state, turns, updated: this.clock.now() };
  }

  /**
   * Edit and resend, regenerate: drop turn `index` and everything after it, in the conversation and
   * in the engine (a deliberate history edit, reported on the next turn). Returns the dropped turn
   * so the view can send its text (edited or not) again with addUserMessage.
   */
  truncateFrom(index: number): ChatTurn {
    const turn = this.turnAt(index);
    this.engine.truncate(completedBefore(this.state.turns, index));
    this.state = { ...this.state, turns: this.state.turns.slice(0, index), updated: this.clock.now() };
    this.syncEngine();
    return turn;
  }

  /** Remove every turn marked not answered at the end (the user gave up on them). */
  discardUnanswered(): void {
    let end = this.state.turns.length;
    while (end > 0 && this.state.turns[end - 1].status === 'failed') end--;
    if (end < this.state.turns.length) this.state = { ...this.state, turns: this.state.turns.slice(0, end), updated: this.clock.now() };
  }

  setTitle(title: string, source: TitleSource): void {
    const clean = title.replace(/\s+/g, ' ').trim();
    if (!clean) return;
    this.state = { ...this.state, title: clean, titleSource: source, updated: this.clock.now() };
  }

  setSession(session: ProviderSession | null): void {
    this.state = { ...this.state, session };
  }

  /** After removeFromLibrary() or compact() on the engine: record the library as it now is. */
  syncEngine(): void {
    const snapshot = this.engine.snapshot();
    const { pending: _previous, ...rest } = this.state;
    this.state = {
      ...rest,
      library: snapshot.library.map(toRef),
      lastRequest: snapshot.lastRequest ?? null,
      ...(snapshot.pending && snapshot.pending.length > 0 ? { pending: snapshot.pending } : {}),
    };
  }

  private turnAt(index: number): ChatTurn {
    const turn = this.state.turns[index];
    if (!turn) throw new Error(`no turn ${index + 1} in this conversation (it has ${this.state.turns.length})`);
    return turn;
  }
}

function stripUrlText(chip: ContextChip): ContextChip {
  if (chip.kind !== 'url') return chip;
  return { kind: 'url', url: chip.url, ...(chip.title !== undefined ? { title: chip.title } : {}) };
}

/** A library item as a chat note keeps it: the text only for URLs (not in the vault). */
export function toRef(item: LibraryItem): ItemRef {
  return {
    id: item.id,
    kind: item.kind,
    title: item.title,
    source: item.source,
    ...(item.via !== undefined ? { via: item.via } : {}),
    version: item.version,
    hash: item.hash,
    tokens: item.tokens,
    enteredTurn: item.enteredTurn,
    ...(item.kind === 'url' ? { content: item.content } : {}),
  };
}

export function envelopeRecord(assembly: TurnAssembly): EnvelopeRecord {
  const { envelope } = assembly;
  const layer = (id: keyof typeof envelope.layers) => ({ tokens: envelope.layers[id].tokens, hash: envelope.layers[id].hash });
  return {
    layers: { L1: layer('L1'), L2: layer('L2'), L3: layer('L3'), L4: layer('L4'), L5: layer('L5') },
    promptTokens: assembly.promptTokens,
    prefixHash: assembly.prefixHash,
    prefixChange: assembly.prefixChange ? { reason: assembly.prefixChange.reason, detail: assembly.prefixChange.detail } : null,
    full: [...envelope.full],
    freshness: envelope.freshness.map((f) => ({ id: f.id, status: f.status, fromVersion: f.fromVersion, ...(f.toVersion !== undefined ? { toVersion: f.toVersion } : {}) })),
    removed: [...envelope.removed],
  };
}

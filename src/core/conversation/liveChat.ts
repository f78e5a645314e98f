import { PromptContextEngine, type EngineOptions, type EngineState } from '../engine/engine';
import { type TurnAssembly } from '../engine/turnAssembly';
import type { Compaction } from '../engine/compaction';
import { withoutItem } from '../planning/book';
import { completedBefore, type CompactionRecord, type Conversation } from './model';
import type { EditEntry } from './records/edits';
import { addUserMessage, completeTurn, recordCompaction, truncateFrom, withEngine, type Answer, type NewMessage } from './transitions';

/** The conversation and engine of a chat as they were at a moment (regenerate puts them back on failure). */
export interface ChatCheckpoint {
  readonly conversation: Conversation;
  readonly engine: EngineState;
}

/**
 * A chat open in memory: its conversation (what is saved and shown) and the engine that renders its
 * requests, changed together. Every transition that touches what the engine has seen (a committed
 * turn, a truncation, a library removal, a compaction, a project switch) goes through one method
 * here, which updates both and records the engine's library in the conversation: no caller keeps
 * them in step, so they cannot diverge. Conversation-only changes (a title, the model, a failure)
 * go through update().
 */
export class LiveChat {
  private current: Conversation;
  private live: PromptContextEngine;
  /** The last request assembled for this chat (the context panel's figures); not saved. */
  lastAssembly: TurnAssembly | null = null;

  /**
   * `rewrites`: Vault QA's rewritten queries by key (vaultQa/queryRewrite), so a retry or a
   * regenerate does not pay for the same rewrite again; not saved apart from the turns.
   */
  constructor(
    conversation: Conversation,
    engine: PromptContextEngine,
    readonly rewrites: Map<string, string> = new Map(),
  ) {
    this.current = conversation;
    this.live = engine;
  }

  /** A chat with no engine state yet (a new chat, or one built from its messages). */
  static fresh(conversation: Conversation, options: EngineOptions): LiveChat {
    return new LiveChat(conversation, new PromptContextEngine(options));
  }

  get conversation(): Conversation {
    return this.current;
  }

  get id(): string {
    return this.current.id;
  }

  /**
   * The engine, to assemble and measure requests. Its own mutations are the pipeline's compaction
   * (recorded through recordCompaction) and the rendering setting; everything else changes here.
   */
  get engine(): PromptContextEngine {
    return this.live;
  }

  /** A change to the conversation that leaves what the engine has seen alone (title, model, mode, a failure). */
  update(transition: (c: Conversation) => Conversation): void {
    this.current = transition(this.current);
  }

  /** Record the user's words before anything is sent. Returns the turn's index. */
  addMessage(message: NewMessage): number {
    const added = addUserMessage(this.current, message);
    this.current = added.conversation;
    return added.index;
  }

  /**
   * The reply arrived: the turn is answered in the conversation and committed to the engine, in one
   * step. completeTurn checks the assembly first, so a mismatch changes neither.
   */
  commit(index: number, answer: Answer): void {
    const completed = completeTurn(this.current, index, answer);
    this.live.commit(answer.assembly, answer.reply);
    this.current = this.synced(completed);
  }

  /** Edit and resend, regenerate: turn `index` and everything after it leave the chat and what the engine has seen. */
  truncateFrom(index: number, at: number): void {
    const truncated = truncateFrom(this.current, index, at);
    this.live.truncate(completedBefore(this.current.turns, index));
    this.current = this.synced(truncated);
  }

  /**
   * Take an item out of the Context Library (a deliberate prefix break, named on the next turn);
   * `replanned` names it as the plan's (the user excluded it). False when the library does not hold it.
   */
  removeFromLibrary(id: string, replanned?: string): boolean {
    if (!this.live.removeFromLibrary(id, replanned)) return false;
    this.current = this.synced(replanned === undefined ? { ...this.current, plan: withoutItem(this.current.plan, id) } : this.current);
    return true;
  }

  /** The chat moves to another project with answered turns: the engine names the break; the conversation records the project. */
  switchProject(from: string, to: string, next: Conversation): void {
    this.live.switchProject(from, to);
    this.current = this.synced(next);
  }

  /** A compaction the engine applied (the pipeline's, or condense now): recorded with the chat. */
  recordCompaction(record: CompactionRecord): void {
    this.current = this.synced(recordCompaction(this.current, record));
  }

  /** Render history through `compaction` from now on (the user edited the latest summary in the note). */
  applyCompaction(compaction: Compaction): void {
    this.live.condense(compaction);
    this.current = this.synced(this.current);
  }

  /** The chat's agent (or the user, from the chat) wrote to a note: kept for undo, and named to the engine if the note is in the library. */
  recordEdit(entry: EditEntry): void {
    this.live.noteEdited(entry.kind === 'rename' ? (entry.newPath ?? entry.path) : entry.path);
    this.current = { ...this.current, edits: [...(this.current.edits ?? []), entry] };
  }

  /** An applied edit was undone: marked, so it is not undone twice; the note's change is named to the engine. */
  markUndone(proposalId: string): void {
    const entry = this.current.edits?.find((e) => e.proposalId === proposalId);
    if (!entry) return;
    this.live.noteEdited(entry.path);
    this.current = { ...this.current, edits: (this.current.edits ?? []).map((e) => (e === entry ? { ...e, undone: true } : e)) };
  }

  checkpoint(): ChatCheckpoint {
    return { conversation: this.current, engine: this.live.snapshot() };
  }

  /** Back to a checkpoint (a failed regenerate keeps the answer the user had). */
  restore(checkpoint: ChatCheckpoint, options: EngineOptions): void {
    this.current = checkpoint.conversation;
    this.live = PromptContextEngine.restore(checkpoint.engine, options);
  }

  /** The conversation with the library, last request and pending events as the engine now has them. */
  private synced(c: Conversation): Conversation {
    return withEngine(c, this.live.snapshot());
  }
}

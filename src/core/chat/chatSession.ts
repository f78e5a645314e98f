import { ChipResolver } from '../context/resolver';
import type { ContextChip } from '../context/items';
import type { VaultReader } from '../context/vaultReader';
import { advance, compile } from '../compiler/messageCompiler';
import type { ProviderSession } from '../compiler/session';
import { PromptContextEngine, type TurnAssembly } from '../engine/engine';
import type { ItemKind } from '../context/items';
import { promptFragments } from '../prompts';
import { currentLibraryNotes } from '../scenario/replay';
import { findProvider, type ChatMode, type ProviderSettings, type StrataSettings } from '../settings';
import { addUsage, ZERO_USAGE, type Usage } from '../usage';
import type { ChatProvider } from '../ports/chatModel';
import { titleFromText } from '../conversation/model';
import { envelopeRecord } from '../conversation/repository';
import { contextUsageOf, windowOverflow, type ContextUsage } from './contextUsage';
import { isAbort, isSessionInvalid, userFacingError } from './errors';
import { modeFragments } from './modes';
import type { ChatListEntry, ChatSnapshot, ChatStore, ChatTurn, LoadedChat, PendingMessage, TurnMeta, TurnTextEdit, UnansweredMessage } from './types';

/** Builds the provider for a configured endpoint and model. May throw (no API key, unknown kind): the turn fails with that message. */
export type ProviderFactory = (provider: ProviderSettings, model: string) => ChatProvider;

export interface ChatSessionDeps {
  readonly vault: VaultReader;
  readonly store: ChatStore;
  readonly providers: ProviderFactory;
  /** Current settings (read at every turn, so edits apply to the next one). */
  readonly settings: () => StrataSettings;
  /** Epoch milliseconds. */
  readonly now: () => number;
  /** A fresh, unique chat id (the host decides how: core code has no randomness). */
  readonly newId: () => string;
  /** US dollars for a call; null when the model has no known price. */
  readonly costOf?: (model: string, usage: Usage) => number | null;
}

export interface LibraryEntry {
  readonly id: string;
  readonly kind: ItemKind;
  readonly title: string;
  readonly source: string;
  readonly tokens: number;
  readonly version: number;
  readonly enteredTurn: number;
}

/** What the view renders. A fresh object on every change; never mutated. */
export interface ChatState {
  readonly id: string;
  readonly title: string;
  readonly providerId: string;
  readonly model: string;
  readonly mode: ChatMode;
  readonly turns: readonly ChatTurn[];
  readonly pending: PendingMessage | null;
  /** Earlier messages that never got a reply (kept, not resent). */
  readonly unanswered: readonly UnansweredMessage[];
  /** Text streamed so far while a reply is coming in; null when no request is running. */
  readonly streamingText: string | null;
  readonly busy: boolean;
  /** The last request's size by layer against the model window (null before the first request). */
  readonly contextUsage: ContextUsage | null;
  readonly lastTurn: TurnMeta | null;
  readonly totalUsage: Usage;
  /** Sum of known costs; null when no turn had a price. */
  readonly totalCost: number | null;
  readonly library: readonly LibraryEntry[];
  /** Chat-level notices: load warnings, removed library items, save failures. */
  readonly warnings: readonly string[];
  /** True once the chat has been saved at least once (it then appears in the history). */
  readonly saved: boolean;
}

export type ChatChange = 'state' | 'stream';
export type ChatListener = (change: ChatChange) => void;

/**
 * The chat controller and chain runner: send → resolve chips → engine.assemble → compile →
 * provider.send (streaming, abortable) → engine.commit and session advance on success only → save.
 * A failed or stopped request keeps the user's message (saved, marked, retried as it is).
 * Pure TypeScript: the host injects the vault, the store, the providers, the clock and ids.
 */
export class ChatSession {
  private engine: PromptContextEngine;
  private resolver: ChipResolver;
  private id: string;
  private title = '';
  private titleEdited = false;
  private providerId: string;
  private model: string;
  private mode: ChatMode;
  private created: number;
  private turns: ChatTurn[] = [];
  private pending: PendingMessage | null = null;
  private unanswered: UnansweredMessage[] = [];
  private session: ProviderSession | null = null;
  private streamingText: string | null = null;
  private controller: AbortController | null = null;
  /** The turn in flight, so switching chats can wait for it to settle (and be saved) first. */
  private running: Promise<void> | null = null;
  private lastAssembly: TurnAssembly | null = null;
  private warnings: string[] = [];
  private saved = false;
  private saveChain: Promise<void> = Promise.resolve();
  /** Text the user edited in a chat's note while it was open, by chat id and turn time. */
  private readonly noteEdits = new Map<string, Map<number, TurnTextEdit>>();
  private listeners = new Set<ChatListener>();
  private cachedState: ChatState | null = null;

  constructor(private readonly deps: ChatSessionDeps) {
    const settings = deps.settings();
    this.resolver = new ChipResolver(deps.vault);
    this.engine = new PromptContextEngine({ rendering: settings.rendering, freshness: settings.freshness });
    this.id = deps.newId();
    this.providerId = settings.defaultProviderId;
    this.model = settings.defaultModel;
    this.mode = settings.defaultMode;
    this.created = deps.now();
  }

  // ---- observation -------------------------------------------------------------------------

  subscribe(listener: ChatListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get state(): ChatState {
    if (this.cachedState) return this.cachedState;
    const known = this.turns.map((t) => t.meta.cost).filter((c): c is number => c !== null);
    const state: ChatState = {
      id: this.id,
      title: this.title,
      providerId: this.providerId,
      model: this.model,
      mode: this.mode,
      turns: [...this.turns],
      pending: this.pending,
      unanswered: [...this.unanswered],
      streamingText: this.streamingText,
      busy: this.controller !== null,
      contextUsage: this.lastAssembly ? contextUsageOf(this.lastAssembly, this.deps.settings().contextWindows) : null,
      lastTurn: this.turns.length > 0 ? this.turns[this.turns.length - 1].meta : null,
      totalUsage: this.turns.reduce((sum, t) => addUsage(sum, t.meta.usage), ZERO_USAGE),
      totalCost: known.length > 0 ? known.reduce((a, b) => a + b, 0) : null,
      library: this.engine.libraryItems().map((item) => ({
        id: item.id,
        kind: item.kind,
        title: item.title,
        source: item.source,
        tokens: item.tokens,
        version: item.version,
        enteredTurn: item.enteredTurn,
      })),
      warnings: [...this.warnings],
      saved: this.saved,
    };
    this.cachedState = state;
    return state;
  }

  private emit(change: ChatChange = 'state'): void {
    this.cachedState = null;
    for (const listener of [...this.listeners]) listener(change);
  }

  // ---- sending -----------------------------------------------------------------------------

  /**
   * Send a new user message with its chips. A failed or stopped message still waiting stays in the
   * chat as unanswered (the user chose to write something else; their words are kept, not resent).
   * Resolves when the turn is done, failed or stopped.
   */
  async send(text: string, chips: readonly ContextChip[] = []): Promise<void> {
    if (this.controller) throw new Error('A reply is still coming in: stop it first.');
    if (!text.trim()) throw new Error('The message is empty.');
    if (this.pending) {
      const p = this.pending;
      this.unanswered.push({ afterTurn: this.turns.length, userText: p.userText, chips: p.chips, at: p.at, ...(p.error ? { error: p.error } : {}) });
      this.pending = null;
    }
    await this.runTurn(text, chips);
  }

  /** Send the kept (failed or stopped) message again, exactly as it was. */
  async retry(): Promise<void> {
    if (this.controller) throw new Error('A reply is still coming in: stop it first.');
    if (!this.pending) throw new Error('There is no failed message to retry.');
    await this.runTurn(this.pending.userText, this.pending.chips);
  }

  /** Stop the reply that is streaming. The user's message is kept, marked stopped, ready to retry. */
  stop(): void {
    this.controller?.abort();
  }

  /** Ask again for the last reply: the last turn is dropped (history changes, said as such) and resent. */
  async regenerate(): Promise<void> {
    if (this.controller) throw new Error('A reply is still coming in: stop it first.');
    if (this.pending) return this.retry();
    const last = this.turns[this.turns.length - 1];
    if (!last) throw new Error('There is no reply to regenerate.');
    const before = { id: this.id, turns: [...this.turns], unanswered: [...this.unanswered], engine: this.engine.snapshot(), session: this.session };
    this.dropLastTurn();
    await this.runTurn(last.userText, last.chips);
    // A regeneration that failed or was stopped must not cost the answer the user already had.
    const failed = this.pending as PendingMessage | null; // runTurn changed it (TypeScript still narrows it to null)
    if (failed && failed.status !== 'sending' && this.id === before.id && this.turns.length === before.turns.length - 1) {
      const settings = this.deps.settings();
      this.turns = before.turns;
      this.unanswered = before.unanswered;
      this.session = before.session;
      this.engine = PromptContextEngine.restore(before.engine, { rendering: settings.rendering, freshness: settings.freshness });
      this.pending = null;
      this.warnings = [...this.warnings, `${REGENERATE_PREFIX}${failed.error ?? failed.status}; the previous answer is kept.`];
      this.emit();
      await this.save();
    }
  }

  /** Edit the last user message (completed or kept) and send it again with the same chips. */
  async editLast(text: string): Promise<void> {
    if (this.controller) throw new Error('A reply is still coming in: stop it first.');
    if (!text.trim()) throw new Error('The message is empty.');
    if (this.pending) return this.runTurn(text, this.pending.chips);
    const last = this.turns[this.turns.length - 1];
    if (!last) throw new Error('There is no message to edit.');
    this.dropLastTurn();
    await this.runTurn(text, last.chips);
  }

  private dropLastTurn(): void {
    this.turns = this.turns.slice(0, -1);
    // Unanswered messages after the dropped turn stay, now after the last remaining one.
    this.unanswered = this.unanswered.map((u) => (u.afterTurn > this.turns.length ? { ...u, afterTurn: this.turns.length } : u));
    this.engine.truncate(this.turns.length);
  }

  private runTurn(userText: string, chips: readonly ContextChip[]): Promise<void> {
    const run = this.turn(userText, chips).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  /** Stop any reply in flight and wait until its turn is settled and saved in the chat it belongs to. */
  private async settle(): Promise<void> {
    this.stop();
    if (this.running) await this.running;
  }

  private async turn(userText: string, chips: readonly ContextChip[]): Promise<void> {
    const controller = new AbortController();
    this.controller = controller;
    const at = this.deps.now();
    this.pending = { userText, chips: [...chips], status: 'sending', at };
    this.streamingText = '';
    if (!this.title) this.title = titleFromText(userText);
    this.emit();
    // The user's words are saved before anything can fail (a crash mid-request keeps them).
    void this.save();
    let partial = '';
    try {
      const settings = this.deps.settings();
      this.engine.setRendering(settings.rendering);
      const providerSettings = findProvider(settings, this.providerId);
      if (!providerSettings) throw new Error(`No provider "${this.providerId}" is configured: pick a model in the chat header or add the provider in settings.`);
      const provider = this.deps.providers(providerSettings, this.model);
      const { items, problems } = await this.resolver.resolve(chips);
      const current = await currentLibraryNotes(this.engine, this.resolver, items);
      const fragments = [
        ...promptFragments({ systemPrompt: settings.systemPrompt, memory: settings.memory }),
        ...modeFragments(this.mode),
      ];
      const assembly = this.engine.assemble({ userText, items, problems, fragments, model: this.model, current });
      this.lastAssembly = assembly;
      this.emit();
      const overflow = windowOverflow(contextUsageOf(assembly, settings.contextWindows));
      if (overflow) throw new Error(overflow);
      const compiled = compile({ assembly, capabilities: provider.capabilities, target: provider.config, session: this.session });
      const result = await provider.send({
        messages: compiled.messages,
        breakpoints: compiled.breakpoints,
        cacheKey: `strata-${this.id}`,
        ...(compiled.sessionId ? { sessionId: compiled.sessionId } : {}),
        signal: controller.signal,
        onToken: (delta) => {
          if (controller.signal.aborted) return;
          partial += delta;
          this.streamingText = partial;
          this.emit('stream');
        },
      });
      if (controller.signal.aborted) throw new DOMException('The reply was stopped.', 'AbortError');
      this.engine.commit(assembly, result.text);
      this.session = advance(compiled, assembly, result);
      const usage = result.usage;
      const meta: TurnMeta = {
        turn: assembly.envelope.turn,
        providerId: this.providerId,
        model: this.model,
        usage,
        cost: this.deps.costOf ? this.deps.costOf(this.model, usage) : null,
        compileMode: compiled.mode,
        compileReason: `${compiled.reason.code}: ${compiled.reason.detail}`,
        prefixChange: assembly.prefixChange,
        freshness: assembly.envelope.freshness,
        problems: assembly.envelope.unresolved,
        promptTokens: assembly.promptTokens,
        envelope: envelopeRecord(assembly),
      };
      this.turns.push({ turn: meta.turn, userText, chips: [...chips], reply: result.text, meta, at, replyAt: this.deps.now() });
      this.pending = null;
      // Notices about the state before this turn (a removed item, what reopening found) are now on the turn itself.
      this.warnings = this.warnings.filter((w) => !w.startsWith(REMOVED_PREFIX) && !w.startsWith(REOPENED_PREFIX) && !w.startsWith(REGENERATE_PREFIX));
    } catch (error) {
      const stopped = isAbort(error, controller.signal);
      // The provider forgot the session (expired Responses id, Claude Code session gone): the retry starts a new one, in full.
      const sessionLost = !stopped && isSessionInvalid(error);
      if (sessionLost) this.session = null;
      this.pending = {
        userText,
        chips: [...chips],
        status: stopped ? 'stopped' : 'failed',
        at,
        error: stopped
          ? 'Stopped. Your message is kept: retry to send it again.'
          : `${userFacingError(error)}${sessionLost ? ' Retry sends the whole conversation again.' : ''}`,
        ...(partial ? { partialReply: partial } : {}),
      };
    } finally {
      this.controller = null;
      this.streamingText = null;
    }
    this.emit();
    await this.save();
  }

  // ---- library and settings ----------------------------------------------------------------

  /**
   * Remove an item from the Context Library: a deliberate prefix break. The next request no longer
   * extends the cached one (said in the returned message and on the next turn).
   */
  removeLibraryItem(id: string): string | null {
    if (this.controller) throw new Error('A reply is still coming in: stop it first.');
    const entry = this.engine.libraryItems().find((i) => i.id === id);
    if (!entry || !this.engine.removeFromLibrary(id)) return null;
    const message = `${REMOVED_PREFIX}"${entry.title}" was removed from the Context Library. The next request starts a new cached prefix, so it costs more once.`;
    this.warnings.push(message);
    this.emit();
    void this.save();
    return message;
  }

  setModel(providerId: string, model: string): void {
    if (this.controller) throw new Error('A reply is still coming in: stop it first.');
    if (providerId === this.providerId && model === this.model) return;
    this.providerId = providerId;
    this.model = model;
    this.emit();
    if (this.saved) void this.save();
  }

  setMode(mode: ChatMode): void {
    if (mode === this.mode) return;
    this.mode = mode;
    this.emit();
    if (this.saved) void this.save();
  }

  /** Rename the open chat, or (with an id) any saved chat. */
  async rename(title: string, id: string = this.id): Promise<void> {
    const clean = title.trim();
    if (!clean) throw new Error('The title is empty.');
    if (id !== this.id) return this.deps.store.rename(id, clean);
    this.title = clean;
    this.titleEdited = true;
    this.emit();
    if (this.saved) await this.deps.store.rename(this.id, clean);
  }

  // ---- chats -------------------------------------------------------------------------------

  /** Start a new, empty chat (the current one is saved after each turn; a reply in flight is stopped and kept first). */
  async newChat(): Promise<void> {
    await this.settle();
    this.reset();
  }

  private reset(): void {
    const settings = this.deps.settings();
    this.engine = new PromptContextEngine({ rendering: settings.rendering, freshness: settings.freshness });
    this.id = this.deps.newId();
    this.title = '';
    this.titleEdited = false;
    this.providerId = settings.defaultProviderId;
    this.model = settings.defaultModel;
    this.mode = settings.defaultMode;
    this.created = this.deps.now();
    this.turns = [];
    this.pending = null;
    this.unanswered = [];
    this.session = null;
    this.lastAssembly = null;
    this.warnings = [];
    this.saved = false;
    this.emit();
  }

  /** Open a saved chat where it stopped: turns, library, provider session and any kept message. */
  async open(id: string): Promise<void> {
    await this.settle();
    const loaded = await this.deps.store.load(id);
    this.adopt(loaded);
  }

  /** Take over a loaded chat (also usable by hosts that load chats themselves). */
  adopt(loaded: LoadedChat & { engine?: PromptContextEngine }): void {
    const { snapshot } = loaded;
    const settings = this.deps.settings();
    this.engine = loaded.engine ?? PromptContextEngine.restore(snapshot.engine, { rendering: settings.rendering, freshness: settings.freshness });
    this.id = snapshot.id;
    this.title = snapshot.title;
    this.titleEdited = snapshot.titleEdited ?? true;
    this.providerId = snapshot.providerId;
    this.model = snapshot.model;
    this.mode = snapshot.mode;
    this.created = snapshot.created;
    this.turns = [...snapshot.turns];
    this.pending = snapshot.pending && snapshot.pending.status === 'sending' ? { ...snapshot.pending, status: 'failed', error: 'The app closed before the reply came in. Your message is kept: retry to send it.' } : snapshot.pending;
    this.unanswered = [...(snapshot.unanswered ?? [])];
    this.session = snapshot.session;
    this.lastAssembly = null;
    this.warnings = loaded.warnings.map((w) => `${REOPENED_PREFIX}${w}`);
    this.saved = true;
    this.emit();
  }

  list(): Promise<ChatListEntry[]> {
    return this.deps.store.list();
  }

  /** Saved chats matching a query (full text when the store can, titles otherwise); null: the store cannot search. */
  search(query: string): Promise<ChatListEntry[]> | null {
    return this.deps.store.search ? this.deps.store.search(query) : null;
  }

  /** Delete a saved chat; deleting the open one starts a new chat. */
  async remove(id: string): Promise<void> {
    const open = id === this.id;
    if (open) await this.settle();
    await this.deps.store.remove(id);
    if (open) this.reset();
  }

  snapshot(): ChatSnapshot {
    return {
      id: this.id,
      title: this.title || 'New chat',
      titleEdited: this.titleEdited,
      providerId: this.providerId,
      model: this.model,
      mode: this.mode,
      created: this.created,
      updated: this.deps.now(),
      turns: [...this.turns],
      pending: this.pending,
      unanswered: [...this.unanswered],
      session: this.session,
      engine: this.engine.snapshot(),
    };
  }

  /** Saves are serialised, so a slow write never lands after a newer one. A failed save is a visible warning, never lost silently. */
  private save(): Promise<void> {
    if (this.turns.length === 0 && !this.pending) return this.saveChain;
    const snapshot = this.snapshot();
    this.saveChain = this.saveChain.then(async () => {
      try {
        // Saves queued before an earlier one learnt of the user's edits still carry the old text.
        const outcome = await this.deps.store.save(withNoteEdits(snapshot, this.noteEdits.get(snapshot.id)));
        // The user edited messages in the note while the chat was open: keep (and show) their text.
        let edited = false;
        for (const e of (outcome && outcome.edits) || []) {
          const known = this.noteEdits.get(snapshot.id) ?? new Map<number, TurnTextEdit>();
          known.set(e.at, e);
          this.noteEdits.set(snapshot.id, known);
          const index = this.id === snapshot.id ? this.turns.findIndex((t) => t.at === e.at) : -1;
          const turn = this.turns[index];
          if (!turn || (turn.userText === e.userText && turn.reply === e.reply)) continue;
          this.turns[index] = { ...turn, userText: e.userText, reply: e.reply };
          edited = true;
        }
        const hadError = this.warnings.some((w) => w.startsWith(SAVE_PREFIX));
        this.warnings = this.warnings.filter((w) => !w.startsWith(SAVE_PREFIX));
        const noteWarnings = outcome ? outcome.warnings.filter((w) => !this.warnings.includes(`${NOTE_PREFIX}${w}`)) : [];
        for (const w of noteWarnings) this.warnings.push(`${NOTE_PREFIX}${w}`);
        if (!this.saved || hadError || noteWarnings.length > 0 || edited) {
          this.saved = true;
          this.emit();
        }
      } catch (error) {
        this.warnings = [...this.warnings.filter((w) => !w.startsWith(SAVE_PREFIX)), `${SAVE_PREFIX}${userFacingError(error)}`];
        this.emit();
      }
    });
    return this.saveChain;
  }

  /** Resolves once every save started so far has finished (tests, and the view before closing). */
  flush(): Promise<void> {
    return this.saveChain;
  }
}

/** A snapshot with the user's note edits applied to the turns they belong to. */
function withNoteEdits(snapshot: ChatSnapshot, edits: ReadonlyMap<number, TurnTextEdit> | undefined): ChatSnapshot {
  if (!edits || edits.size === 0) return snapshot;
  return {
    ...snapshot,
    turns: snapshot.turns.map((t) => {
      const e = edits.get(t.at);
      return e ? { ...t, userText: e.userText, reply: e.reply } : t;
    }),
  };
}

const REMOVED_PREFIX = 'Library: ';
const REGENERATE_PREFIX = 'Regenerate failed: ';
const REOPENED_PREFIX = 'Reopened: ';
const SAVE_PREFIX = 'The chat could not be saved: ';
const NOTE_PREFIX = 'Chat note: ';


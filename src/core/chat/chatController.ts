import { warmTokenCounts } from '../tokens/tokenCounter';
import type { ContextChip } from '../context/items';
import { ChipResolver } from '../context/resolver';
import { withPageText, type UrlChip } from '../context/urlChip';
import type { VaultReader } from '../ports/vault';
import { advance } from '../compiler/messageCompiler';
import { compactionToApply } from '../conversation/compactionRecords';
import { rebaseOnSaved } from '../conversation/merge';
import { completedBefore, newConversation, type Conversation } from '../conversation/model';
import { rehydrate } from '../conversation/rehydrate';
import { condenseNow, type CompactionEvent } from '../budget/condense';
import { inputBudget } from '../budget/budget';
import {
  addUserMessage,
  completeTurn,
  failTurn,
  interrupted,
  recordCompaction,
  resendTurn,
  setMode as withMode,
  setModel as withModel,
  setProject as withProject,
  setGeneratedTitle,
  setSession,
  setTitle,
  truncateFrom,
  withEngine,
} from '../conversation/transitions';
import { PromptContextEngine, type EngineOptions, type TurnAssembly } from '../engine/engine';
import type { ChatArchivePort } from '../ports/chatArchive';
import { budgetSettingsFor, CHAT_MODES, findProvider, type ChatMode, type StrataSettings } from '../settings';
import { modeUnavailable, TOOL_MODES } from './modes';
import type { RetryNotice } from '../ports/chatModel';
import type { Usage } from '../usage';
import { chatStateOf, libraryEntries, type ChatPhase, type ChatState } from './chatState';
import { contextUsageOf, type ContextUsage } from './contextUsage';
import { isAbort, isSessionInvalid, userFacingError } from './errors';
import { SaveQueue, type SaveEvent } from './saveQueue';
import { generateTitle, wantsTitle } from './titles';
import { budgetDeps, runTurnPipeline, turnInput, type ProviderFactory } from './turnPipeline';
import { withoutSources, withWarnings, type ChatWarning } from './warnings';
import { rewriteCacheOf, type RewriteCache } from '../qa/queryRewrite';
import type { VaultSearch } from '../search/types';
import { AgentProgress } from '../agent/progress';
import { SummaryCache } from '../planning/summaryCache';
import { planTurn } from '../planning/planTurn';
import { EXPENSIVE_INPUT_PRICE } from '../planning/shouldPlan';
import { withOverride, withoutItem } from '../planning/book';
import type { PlanOverride } from '../planning/types';
import type { LoopEvent } from '../agent/loop';
import type { ToolHost } from '../ports/toolHost';
import { chatFolders, findProject, projectLabel, projectModel, projectScope } from '../projects/projects';

export type { ProviderFactory } from './turnPipeline';

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

export type ChatChange = 'state' | 'stream';
export type ChatListener = (change: ChatChange) => void;

/** The chat shown: its conversation (what is saved) and the engine that renders its requests. */
interface OpenChat {
  conversation: Conversation;
  engine: PromptContextEngine;
  /** Vault QA's rewritten queries (a retry or a regenerate does not pay for the same rewrite again). */
  rewrites: RewriteCache;
}

/** Runs as a turn settles, on its chat: a save it returns is the turn's last. */
type Settle = (chat: OpenChat) => Promise<void> | null;

const BUSY = 'A reply is still coming in: stop it first.';
const OPENING = 'A chat is opening: wait until it is shown.';

/**
 * The chat controller: holds the chat shown ({ conversation, engine }), runs its turns through the
 * turn pipeline, applies pure transitions to the conversation, and saves it through the archive
 * (whose result, merged with the user's edits in the note, becomes the state). A failed or stopped
 * request keeps the user's message (saved, marked, retried as it is). The host injects the vault,
 * the archive, the providers, the clock and ids.
 */
export class ChatController {
  private chat: OpenChat;
  private readonly resolver: ChipResolver;
  private readonly saves: SaveQueue;
  private opening = false;
  /** Counts chat switches: an open overtaken by a newer switch (a new chat) is dropped when it loads. */
  private switches = 0;
  private abort: AbortController | null = null;
  /** Turns still settling, by chat id: a stopped turn of a chat left behind ends in that chat, in the background. */
  private readonly settling = new Map<string, Promise<void>>();
  private streamingText: string | null = null;
  private lastAssembly: TurnAssembly | null = null;
  /** The next request as it would go now (history, library, the composer's chips): the usage line's figure. */
  private next: { usage: ContextUsage; chat: OpenChat } | null = null;
  private condensing = false;
  /** The request in flight is waiting to be retried (cleared by its first text or its end). */
  private retrying: RetryNotice | null = null;
  /** The agent turn running in the chat shown: its tool calls so far. */
  private agentProgress: AgentProgress | null = null;
  /** The composer's chips as last given to previewNext: the controller's own previews count them too. */
  private nextChips: readonly ContextChip[] = [];
  private warnings: ChatWarning[] = [];
  private saved = false;
  private readonly listeners = new Set<ChatListener>();
  private cachedState: ChatState | null = null;
  /** Title requests in flight, by chat id (reopening or deleting that chat cancels its own). */
  private readonly titling = new Map<string, AbortController>();
  /** Web pages sent with `@`, by URL, with their text: a turn keeps only the address (withPageText). */
  private readonly pages = new Map<string, UrlChip>();
  /** Artifact summaries (every chat shares them; the host may persist them). */
  private readonly summaryCache: SummaryCache;
  /** The usage line's measure running now (previewNext), so flush() can wait for it. */
  private previewing: Promise<void> | null = null;

  constructor(private readonly deps: ChatControllerDeps) {
    this.summaryCache = deps.summaryCache ?? new SummaryCache();
    this.resolver = new ChipResolver(deps.vault);
    this.saves = new SaveQueue((c) => deps.archive.save(c), (event) => this.saveDone(event));
    this.chat = this.emptyChat();
  }

  // ---- observation -------------------------------------------------------------------------

  subscribe(listener: ChatListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get state(): ChatState {
    if (this.cachedState) return this.cachedState;
    const phase: ChatPhase = this.opening ? 'opening' : this.abort ? 'sending' : 'idle';
    this.cachedState = chatStateOf({
      conversation: this.chat.conversation,
      phase,
      busy: this.abort !== null,
      streamingText: this.streamingText,
      contextUsage: this.lastAssembly ? contextUsageOf(this.lastAssembly, this.budgetFor(this.lastAssembly.envelope.model)) : null,
      nextRequest: this.next && this.next.chat === this.chat ? this.next.usage : null,
      condensing: this.condensing,
      retry: this.retrying,
      agentCalls: this.agentProgress?.live ?? [],
      library: libraryEntries(this.chat.engine.libraryItems()),
      warnings: [...this.warnings],
      saved: this.saved,
    });
    return this.cachedState;
  }

  private emit(change: ChatChange = 'state'): void {
    // A streamed token changes only the streaming text: the rest of the state (the whole chat,
    // derived) is not rebuilt per token.
    this.cachedState = change === 'stream' && this.cachedState ? { ...this.cachedState, streamingText: this.streamingText } : null;
    for (const listener of [...this.listeners]) listener(change);
  }

  // ---- sending -----------------------------------------------------------------------------

  /**
   * Send a new message with its chips. A failed or stopped message still waiting stays in the chat
   * as unanswered (the user chose to write something else; their words are kept, not resent).
   * Resolves when the turn is done, failed or stopped.
   */
  async send(text: string, chips: readonly ContextChip[] = []): Promise<void> {
    this.assertIdle();
    if (!text.trim()) throw new Error('The message is empty.');
    await this.runNewTurn(text, undefined, chips);
  }

  /** Send the kept (failed or stopped) message again, exactly as it was. */
  async retry(): Promise<void> {
    this.assertIdle();
    const index = this.pendingIndex();
    if (index === null) throw new Error('There is no failed message to retry.');
    await this.runTurn(index);
  }

  /** Stop the reply that is streaming. The user's message is kept, marked stopped, ready to retry. */
  stop(): void {
    this.abort?.abort();
  }

  /** Ask again for the last reply: the last turn is dropped (a history change, said as such) and resent. */
  async regenerate(): Promise<void> {
    this.assertIdle();
    if (this.pendingIndex() !== null) return this.retry();
    const turns = this.chat.conversation.turns;
    const last = turns[turns.length - 1];
    if (!last) throw new Error('There is no reply to regenerate.');
    const index = turns.length - 1;
    const before = { conversation: this.chat.conversation, engine: this.chat.engine.snapshot() };
    this.dropFrom(index);
    // A regeneration that failed or was stopped (switching chats stops it too) must not cost the
    // answer the user already had: put back as the turn settles, before the chat can be reopened.
    await this.runNewTurn(last.text, last.sent, last.chips ?? [], (chat) => {
      const retried = chat.conversation.turns[index];
      if (!retried || retried.status === 'complete') return null;
      const settings = this.deps.settings();
      chat.conversation = before.conversation;
      chat.engine = PromptContextEngine.restore(before.engine, { rendering: settings.rendering, freshness: settings.freshness });
      if (chat === this.chat) {
        this.warnings = withWarnings(withoutSources(this.warnings, 'regenerate'), [
          { source: 'regenerate', text: `Regenerate failed: ${retried.error ?? retried.status}; the previous answer is kept.` },
        ]);
        this.emit();
      }
      return this.saveChat(chat);
    });
  }

  /** Edit the last user message (answered or kept) and send it again with the same chips. */
  async editLast(text: string): Promise<void> {
    this.assertIdle();
    if (!text.trim()) throw new Error('The message is empty.');
    const turns = this.chat.conversation.turns;
    const last = turns[turns.length - 1];
    if (!last) throw new Error('There is no message to edit.');
    this.dropFrom(turns.length - 1);
    await this.runNewTurn(text, undefined, last.chips ?? []);
  }

  private assertIdle(): void {
    if (this.opening) throw new Error(OPENING);
    if (this.abort) throw new Error(BUSY);
  }

  /** Index of the last message when it has no reply: the one Retry sends. */
  private pendingIndex(): number | null {
    const turns = this.chat.conversation.turns;
    const last = turns[turns.length - 1];
    return last && last.status !== 'complete' ? turns.length - 1 : null;
  }

  /** Drop turn `index` and everything after it, in the conversation and in the engine. */
  private dropFrom(index: number): void {
    const chat = this.chat;
    chat.engine.truncate(completedBefore(chat.conversation.turns, index));
    chat.conversation = withEngine(truncateFrom(chat.conversation, index, this.deps.now()), chat.engine.snapshot());
  }

  private runNewTurn(text: string, sent: string | undefined, chips: readonly ContextChip[], settle?: Settle): Promise<void> {
    for (const chip of chips) if (chip.kind === 'url' && chip.content !== undefined) this.pages.set(chip.url, chip);
    const added = addUserMessage(this.chat.conversation, { text, ...(sent !== undefined ? { sent } : {}), chips, at: this.deps.now() });
    this.chat.conversation = added.conversation;
    return this.runTurn(added.index, settle);
  }

  /**
   * Resolves once the turn is settled in its chat and saved (`settling` knows when it is settled).
   * `settle` runs as it settles, on the chat it belongs to; a save it returns replaces the turn's.
   */
  private runTurn(index: number, settle?: Settle): Promise<void> {
    const chat = this.chat;
    const id = chat.conversation.id;
    let saved: Promise<void> = Promise.resolve();
    const settled: Promise<void> = this.turn(chat, index)
      .then((s) => void (saved = settle?.(chat) ?? s.saved))
      .finally(() => {
        if (this.settling.get(id) === settled) this.settling.delete(id);
      });
    this.settling.set(id, settled);
    // The title comes after the turn (the chat is idle meanwhile; switching does not wait for it).
    return settled.then(() => saved).then(() => this.nameChat(chat));
  }

  /**
   * After the first answer: a short generated title, unless the setting is off or the user named the
   * chat. Any failure keeps the first-message title, silently. A chat left meanwhile is saved with it.
   */
  private async nameChat(chat: OpenChat): Promise<void> {
    const settings = this.deps.settings();
    if (!wantsTitle(settings, chat.conversation)) return;
    const first = chat.conversation.turns.find((t) => t.status === 'complete');
    const id = chat.conversation.id;
    if (!first || this.titling.has(id)) return;
    const abort = new AbortController();
    this.titling.set(id, abort);
    try {
      const { title, record } = await generateTitle(settings, chat.conversation, first, {
        providers: this.deps.providers,
        ...(this.deps.costOf ? { costOf: this.deps.costOf } : {}),
        signal: abort.signal,
      });
      // Renamed (or the first answer dropped) while the title was on its way: the user's choice stands.
      if (abort.signal.aborted || !wantsTitle(settings, chat.conversation)) return;
      chat.conversation = setGeneratedTitle(chat.conversation, title, record, this.deps.now());
      if (chat === this.chat) this.emit();
      await this.saveChat(chat);
    } catch {
      // A title is a nicety: the first-message title stays and nothing is said.
    } finally {
      if (this.titling.get(id) === abort) this.titling.delete(id);
    }
  }

  /**
   * One turn of `chat`, which may stop being the chat shown while it runs (switching stops its
   * request): it then settles and saves into `chat` only, leaving the controller's state alone.
   */
  private async turn(chat: OpenChat, index: number): Promise<{ saved: Promise<void> }> {
    const abort = new AbortController();
    this.abort = abort;
    chat.conversation = resendTurn(chat.conversation, index);
    this.streamingText = '';
    this.emit();
    // The user's words are saved before anything can fail (a crash mid-request keeps them); a quick
    // reply or failure saves them with itself, in one write.
    void this.saveChat(chat, this.deps.wordsSaveDelayMs ?? WORDS_SAVE_DELAY_MS);
    let partial = '';
    const progress = new AgentProgress();
    if (chat === this.chat) this.agentProgress = progress;
    try {
      const settings = this.deps.settings();
      chat.engine.setRendering(settings.rendering);
      const c = chat.conversation;
      const turn = c.turns[index];
      const host = this.toolHostFor(settings, c.project);
      const { assembly, compiled, result, search, agent, plan } = await runTurnPipeline(
        {
          chatId: c.id,
          providerId: c.provider,
          model: c.model,
          mode: c.mode as ChatMode,
          ...(c.project ? { project: c.project } : {}),
          userText: turn.sent ?? turn.text,
          chips: withPageText(turn.chips ?? [], this.pages, c.library),
          session: c.session,
          ...(c.plan ? { plan: c.plan } : {}),
        },
        chat.engine,
        {
          resolver: this.resolver,
          providers: this.deps.providers,
          settings,
          signal: abort.signal,
          planning: { cache: this.summaryCache, expensive: (model) => this.expensive(model) },
          vaultQa: { search: this.deps.search?.() ?? null, cache: chat.rewrites, ...(this.deps.costOf ? { costOf: this.deps.costOf } : {}) },
          ...(host
            ? {
                agent: {
                  host,
                  now: this.deps.now,
                  onEvent: (event: LoopEvent) => {
                    progress.apply(event);
                    if (chat !== this.chat || abort.signal.aborted) return;
                    this.emit();
                  },
                  // Text a model call streamed before its tool calls is kept with its step; the stream restarts.
                  onStepStart: (step: number) => {
                    if (step === 1 || abort.signal.aborted) return;
                    partial = '';
                    if (chat !== this.chat) return;
                    this.streamingText = '';
                    this.emit('stream');
                  },
                },
              }
            : {}),
          onAssembled: (a) => {
            if (chat !== this.chat) return;
            this.lastAssembly = a;
            this.condensing = false;
            this.emit();
          },
          onCondensing: () => {
            if (chat !== this.chat) return;
            this.condensing = true;
            this.emit();
          },
          onCompacted: (event) => this.compacted(chat, event),
          onRetry: (notice) => {
            if (chat !== this.chat || abort.signal.aborted) return;
            this.retrying = notice;
            this.emit();
          },
          onToken: (delta) => {
            if (abort.signal.aborted) return;
            if (this.retrying) this.clearRetry();
            partial += delta;
            this.streamingText = partial;
            this.emit('stream');
          },
        },
      );
      const completed = completeTurn(chat.conversation, index, {
        assembly,
        reply: result.text,
        replyAt: this.deps.now(),
        provider: c.provider,
        compile: { mode: compiled.mode, reason: `${compiled.reason.code}: ${compiled.reason.detail}` },
        usage: result.usage,
        cost: this.deps.costOf ? this.deps.costOf(c.model, result.usage) : null,
        session: advance(compiled, assembly, result),
        ...(search ? { search } : {}),
        ...(agent ? { agent } : {}),
        ...(plan ? { plan } : {}),
      });
      chat.engine.commit(assembly, result.text);
      chat.conversation = withEngine(completed, chat.engine.snapshot());
      // Notices about the state before this turn (a removed item, what reopening found) are now on the turn itself.
      if (chat === this.chat) this.warnings = withoutSources(this.warnings, 'library', 'reopened', 'regenerate');
    } catch (error) {
      const stopped = isAbort(error, abort.signal);
      // The provider forgot the session (expired Responses id, Claude Code session gone): the retry starts a new one, in full.
      const sessionLost = !stopped && isSessionInvalid(error);
      const c = sessionLost ? setSession(chat.conversation, null) : chat.conversation;
      chat.conversation = failTurn(c, index, {
        status: stopped ? 'stopped' : 'failed',
        error: stopped ? 'Stopped. Your message is kept: retry to send it again.' : `${userFacingError(error)}${sessionLost ? ' Retry sends the whole conversation again.' : ''}`,
        ...(partial ? { partial } : {}),
        ...(progress.steps.length > 0 ? { agent: { stop: 'interrupted' as const, steps: progress.steps } } : {}),
        at: this.deps.now(),
      });
    } finally {
      if (this.agentProgress === progress) this.agentProgress = null;
      if (this.abort === abort) this.release();
    }
    if (chat === this.chat) {
      this.emit();
      void this.previewNext();
    }
    return { saved: this.saveChat(chat) };
  }

  /** No request of the chat shown is running any more. */
  private release(): void {
    this.abort = null;
    this.streamingText = null;
    this.condensing = false;
    this.retrying = null;
  }

  private clearRetry(): void {
    this.retrying = null;
    this.emit();
  }

  // ---- budget ------------------------------------------------------------------------------

  /** The input budget for a model under the current settings. */
  budgetFor(model: string) {
    const settings = this.deps.settings();
    return inputBudget(model, budgetSettingsFor(settings, this.chat.conversation.provider, model), settings.contextWindows);
  }

  /** A compaction was applied to the chat's engine: record it (with its summary's cost), say how it went, save. */
  private compacted(chat: OpenChat, event: CompactionEvent): void {
    const compaction = chat.engine.currentCompaction();
    if (!compaction) return;
    const summary = event.summary;
    const cost = summary ? (this.deps.costOf ? this.deps.costOf(summary.model, summary.usage) : null) : 0;
    const record = { ...event, text: compaction.text, maskedThrough: compaction.maskedThrough, masking: compaction.masking, at: this.deps.now(), cost };
    chat.conversation = withEngine(recordCompaction(chat.conversation, record), chat.engine.snapshot());
    void this.saveChat(chat);
    if (chat !== this.chat) return;
    this.warnings = withoutSources(this.warnings, 'condense');
    if (event.fallback !== undefined) {
      const messages = 2 * event.turnsDropped;
      this.warnings = withWarnings(this.warnings, [
        {
          source: 'condense',
          text: `Condensed without a summary (${event.fallback}): ${messages} earlier messages are omitted from what the model sees. They stay in the chat.`,
        },
      ]);
    }
    this.emit();
  }

  /**
   * Condense now (the context panel's button, the "Condense chat" command): the newest messages stay,
   * the rest is summarized. Stop stops it (nothing changes). Returns what happened, in words.
   */
  async condense(): Promise<string> {
    this.assertIdle();
    const chat = this.chat;
    if (chat.engine.turnCount === 0) return 'Nothing to condense yet: the chat has no answered messages.';
    const abort = new AbortController();
    this.abort = abort;
    this.condensing = true;
    this.emit();
    const c = chat.conversation;
    try {
      const settings = this.deps.settings();
      // The next request as the usage line measures it: with the composer's chips.
      const input = await turnInput(
        { model: c.model, mode: c.mode as ChatMode, ...(c.project ? { project: c.project } : {}), userText: '', chips: this.nextChips },
        chat.engine,
        this.resolver,
        settings,
        false,
      );
      const event = await condenseNow(chat.engine, input, budgetDeps({ providerId: c.provider, model: c.model }, settings, this.deps.providers, abort.signal));
      if (!event) return 'Nothing to condense: the earlier messages are already condensed or too short to be worth a summary, and the newest ones always stay.';
      this.compacted(chat, event);
      const fmt = (n: number) => n.toLocaleString('en-US');
      const range = event.through === 1 ? 'turn 1' : `turns 1–${event.through}`;
      return `Condensed: ${range} ${event.kind === 'summary' ? 'summarized' : 'omitted'}; the next request goes from ${fmt(event.tokensBefore)} to ${fmt(event.tokensAfter)} tokens.`;
    } catch (error) {
      if (isAbort(error, abort.signal)) return 'Condense stopped: nothing changed.';
      throw new Error(`Could not condense: ${userFacingError(error)}`);
    } finally {
      // Switching chats stopped it: the chat shown now is not this one's to update.
      if (this.abort === abort) {
        this.release();
        this.emit();
        void this.previewNext();
      }
    }
  }

  /**
   * Measure the next request as it would go now (history, library, L1, and the chips given: what the
   * composer holds; without chips, the ones given last), for the usage line. Cheap: nothing is
   * re-read; a result for a chat no longer shown, or overtaken by a turn, is dropped.
   */
  previewNext(chips?: readonly ContextChip[]): Promise<void> {
    const run = this.measureNext(chips);
    this.previewing = run;
    void run.finally(() => {
      if (this.previewing === run) this.previewing = null;
    });
    return run;
  }

  private async measureNext(chips?: readonly ContextChip[]): Promise<void> {
    if (chips) this.nextChips = [...chips];
    chips = this.nextChips;
    // A turn or a compaction is running: it measures again when it ends (with these chips).
    if (this.abort) return;
    const chat = this.chat;
    const turns = chat.engine.turnCount;
    const c = chat.conversation;
    try {
      const input = await turnInput(
        { model: c.model, mode: c.mode as ChatMode, ...(c.project ? { project: c.project } : {}), userText: '', chips },
        chat.engine,
        this.resolver,
        this.deps.settings(),
        false,
      );
      if (chat !== this.chat || chat.engine.turnCount !== turns || this.abort) return;
      // Large attachments are previewed as the deterministic plan would send them (no model call for a hint).
      const settings = this.deps.settings();
      const budget = this.budgetFor(c.model);
      const planned = await planTurn(chat.engine, input, c.plan, {
        mode: settings.contextPlanning === 'off' ? 'off' : 'heuristic',
        planner: null,
        summarizer: null,
        cache: this.summaryCache,
        budget,
        autoCondense: budget.autoCondense,
        expensiveModel: this.expensive(c.model),
        signal: new AbortController().signal,
      });
      if (chat !== this.chat || chat.engine.turnCount !== turns || this.abort) return;
      const assembly = chat.engine.assemble(planned.input);
      this.next = { usage: contextUsageOf(assembly, this.budgetFor(c.model)), chat };
      this.emit();
    } catch {
      // A preview is a hint: a note that cannot be read now is reported when the message is sent.
    }
  }

  // ---- library and settings ----------------------------------------------------------------

  /**
   * Remove an item from the Context Library: a deliberate prefix break. The next request no longer
   * extends the cached one (said in the returned message and on the next turn).
   */
  removeLibraryItem(id: string): string | null {
    this.assertIdle();
    const chat = this.chat;
    const entry = chat.engine.libraryItems().find((i) => i.id === id);
    if (!entry || !chat.engine.removeFromLibrary(id)) return null;
    chat.conversation = withEngine({ ...chat.conversation, plan: withoutItem(chat.conversation.plan, id) }, chat.engine.snapshot());
    const text = `Library: "${entry.title}" was removed from the Context Library. The next request starts a new cached prefix, so it costs more once.`;
    this.warnings = withWarnings(this.warnings, [{ source: 'library', text }]);
    this.emit();
    void this.save();
    void this.previewNext();
    return text;
  }

  /**
   * The user's override of an item's plan (the library panel): always in full, left out, or back to
   * the planner's choice (null). It applies from the next request. Excluding an item the library
   * already sent takes it out of the library: a deliberate prefix break, named `replanned`.
   */
  setPlanOverride(id: string, override: PlanOverride | null): string {
    this.assertIdle();
    const chat = this.chat;
    const entry = chat.engine.libraryItems().find((i) => i.id === id);
    const title = entry?.title ?? chat.conversation.plan?.decisions.find((d) => d.id === id)?.title ?? id;
    let conversation: Conversation = { ...chat.conversation, plan: withOverride(chat.conversation.plan, id, override) };
    let text: string;
    if (override === 'exclude' && entry && chat.engine.removeFromLibrary(id, `you excluded ${title}`)) {
      conversation = withEngine(conversation, chat.engine.snapshot());
      text = `Plan: "${title}" is excluded. It leaves the notes this chat sends, so the next request starts a new cached prefix (it costs more once).`;
    } else if (override === 'full') {
      text = `Plan: "${title}" will be sent in full from the next request.`;
    } else if (override === 'exclude') {
      text = `Plan: "${title}" is excluded from the next requests.`;
    } else {
      text = `Plan: "${title}" goes back to the planner's choice on the next request that carries it.`;
    }
    chat.conversation = conversation;
    this.warnings = withWarnings(withoutSources(this.warnings, 'library'), [{ source: 'library', text }]);
    this.emit();
    if (this.saved) void this.save();
    void this.previewNext();
    return text;
  }

  /** Planning pays for itself on an expensive model (seed 004): from EXPENSIVE_INPUT_PRICE per input token. */
  private expensive(model: string): boolean {
    const perMillion = this.deps.costOf?.(model, { inputTokens: 1_000_000, outputTokens: 0, cachedReadTokens: 0, cacheWriteTokens: 0 });
    return typeof perMillion === 'number' && perMillion / 1_000_000 >= EXPENSIVE_INPUT_PRICE;
  }

  setModel(providerId: string, model: string): void {
    this.assertIdle();
    const next = withModel(this.chat.conversation, providerId, model, this.deps.now());
    if (next === this.chat.conversation) return;
    this.chat.conversation = next;
    this.emit();
    if (this.saved) void this.save();
    void this.previewNext();
  }

  /**
   * Why `mode` cannot run on the chat's provider and model (the mode picker says so), or null.
   * The Agent mode needs tool calling and connected tools.
   */
  modeProblem(mode: ChatMode): string | null {
    if (!TOOL_MODES.includes(mode)) return null;
    if (!this.deps.toolHost) return 'The Agent mode is not available here: no tools are connected.';
    const { provider: providerId, model } = this.chat.conversation;
    const settings = findProvider(this.deps.settings(), providerId);
    if (!settings) return null;
    try {
      const provider = this.deps.providers(settings, model);
      return modeUnavailable(mode, provider.capabilities, provider.config.kind);
    } catch {
      return null;
    }
  }

  /**
   * Put the chat shown in a project (null: none). A chat with no message yet becomes a new chat of
   * that project: its default model (the view attaches its notes). A chat with answered turns keeps
   * its model; the switch is a deliberate event: when the project prompt changes with it, the next
   * request's prefix break is named 'project-switch'. New chats started from here belong to it too.
   */
  setProject(id: string | null): void {
    this.assertIdle();
    const chat = this.chat;
    const before = chat.conversation;
    let next = withProject(before, id ?? undefined, this.deps.now());
    if (next === before) return;
    const settings = this.deps.settings();
    if (before.turns.length === 0) {
      const model = projectModel(settings, findProject(settings, id)) ?? { provider: settings.defaultProviderId, model: settings.defaultModel };
      next = withModel(next, model.provider, model.model, this.deps.now());
    } else {
      chat.engine.switchProject(projectLabel(settings, before.project), projectLabel(settings, id));
      next = withEngine(next, chat.engine.snapshot());
    }
    chat.conversation = next;
    this.emit();
    if (this.saved) void this.save();
    void this.previewNext();
  }

  setMode(mode: ChatMode): void {
    const next = withMode(this.chat.conversation, mode, this.deps.now());
    if (next === this.chat.conversation) return;
    this.chat.conversation = next;
    this.emit();
    if (this.saved) void this.save();
  }

  /** Rename the chat shown (the title is saved with it; the note keeps its file name). */
  async rename(title: string): Promise<void> {
    if (!title.trim()) throw new Error('The title is empty.');
    this.titling.get(this.chat.conversation.id)?.abort();
    this.chat.conversation = setTitle(this.chat.conversation, title, 'user', this.deps.now());
    this.emit();
    await this.save();
  }

  // ---- chats -------------------------------------------------------------------------------

  /** The id of the chat shown. */
  get chatId(): string {
    return this.chat.conversation.id;
  }

  /**
   * Start a new, empty chat, at once: a reply in flight is stopped and settles (kept, with what had
   * arrived) in the chat it belongs to, whose saves finish in the background. A chat still opening
   * is dropped: the new chat is what the user asked for last.
   */
  newChat(): Promise<void> {
    // A new chat belongs to the project of the chat shown (the header's project picker).
    const project = this.chat.conversation.project;
    this.switches++;
    this.opening = false;
    this.leave();
    this.reset(project);
    return Promise.resolve();
  }

  /**
   * Open a saved chat where it stopped: turns, library, provider session and any kept message. The
   * chat shown stops its reply (kept in it, saved in the background) and is not waited for; only
   * reopening the chat just left waits for its last turn and saves, to read the note they write.
   */
  async open(id: string): Promise<void> {
    if (this.opening) throw new Error(OPENING);
    const switchNo = ++this.switches;
    this.leave();
    this.opening = true;
    // A title still on its way for this chat would be saved over the chat being opened: it is dropped.
    this.titling.get(id)?.abort();
    this.emit();
    try {
      await this.settling.get(id);
      if (this.saves.has(id)) await this.saves.flush();
      const loaded = await this.deps.archive.load(id);
      // Long messages are counted in slices between frames before the engine counts its history at once.
      await warmTokenCounts(loaded.conversation.model, loaded.conversation.turns.flatMap((t) => [t.text, t.reply ?? '']));
      const settings = this.deps.settings();
      const restored = await rehydrate(loaded.conversation, this.deps.vault, this.engineOptions(settings), this.resolver);
      if (switchNo !== this.switches) return;
      // A mode this version does not know (a hand edit, a newer version) reads as the plain chat mode.
      const known = (CHAT_MODES as readonly string[]).includes(loaded.conversation.mode);
      const conversation = known ? loaded.conversation : withMode(loaded.conversation, 'chat', loaded.conversation.updated);
      this.chat = { conversation: interrupted(conversation), engine: restored.engine, rewrites: rewriteCacheOf(conversation.turns) };
      this.lastAssembly = null;
      this.next = null;
      this.warnings = [...loaded.warnings, ...restored.issues.map((i) => i.message)].map((text) => ({ source: 'reopened' as const, text: `Reopened: ${text}` }));
      this.saved = true;
    } finally {
      if (switchNo === this.switches) {
        this.opening = false;
        this.emit();
      }
    }
    if (switchNo === this.switches) void this.previewNext();
  }

  /** Delete a saved chat; deleting the chat shown starts a new one. */
  async remove(id: string): Promise<void> {
    const shown = id === this.chat.conversation.id;
    this.titling.get(id)?.abort();
    // The chat shown makes way for a new one at once; its note is deleted once its turn has settled.
    if (shown) {
      const project = this.chat.conversation.project;
      this.leave();
      this.reset(project);
    }
    // A save still queued (or the last one of a turn still settling) must not write the note back after it is deleted.
    await this.settling.get(id);
    this.saves.drop(id);
    await this.saves.flush();
    await this.deps.archive.delete(id);
  }

  /** Resolves once every save started so far has finished, and the usage line's measure (tests, the bench, the view before closing). */
  async flush(): Promise<void> {
    await Promise.all([this.saves.flush(), this.previewing]);
  }

  /**
   * Leave the chat shown: its request (a reply, a condense) is stopped and settles in that chat in
   * the background; nothing of it is the controller's state any more.
   */
  private leave(): void {
    this.stop();
    this.release();
  }

  private reset(project?: string): void {
    this.chat = this.emptyChat(project);
    this.lastAssembly = null;
    this.next = null;
    this.warnings = withoutSources(this.warnings, 'library', 'regenerate', 'reopened', 'note', 'condense');
    this.saved = false;
    this.emit();
    // A new chat's usage line shows its first request (instructions and the composer's notes) at once.
    void this.previewNext();
  }

  /** A new chat; in `projectId`'s project when it is configured (with its default model). */
  private emptyChat(projectId?: string): OpenChat {
    const settings = this.deps.settings();
    const project = findProject(settings, projectId);
    const model = projectModel(settings, project) ?? { provider: settings.defaultProviderId, model: settings.defaultModel };
    const conversation = newConversation(
      { provider: model.provider, model: model.model, mode: settings.defaultMode, id: this.deps.newId(), ...(project ? { project: project.id } : {}) },
      { now: this.deps.now },
    );
    return { conversation, engine: new PromptContextEngine(this.engineOptions(settings)), rewrites: new Map() };
  }

  /**
   * The agent's tools for a turn: inside the project's folder when the chat has a project, never in
   * a folder chats are saved in (a project's chats folder is inside its scope).
   */
  private toolHostFor(settings: StrataSettings, projectId: string | undefined): ToolHost | undefined {
    const host = this.deps.toolHost?.();
    if (!host) return undefined;
    const scope = projectScope(findProject(settings, projectId));
    const hidden = [...new Set([...(host.hidden ?? []), ...chatFolders(settings)])];
    return { ...host, hidden, ...(scope ? { scope } : {}) };
  }

  private engineOptions(settings: StrataSettings): EngineOptions {
    return { rendering: settings.rendering, freshness: settings.freshness };
  }

  // ---- saving ------------------------------------------------------------------------------

  /** Queue a save of the chat shown (nothing to save before its first message). */
  private save(): Promise<void> {
    return this.saveChat(this.chat);
  }

  /** Queue a save of `chat`, shown or not: a chat left behind is saved under its own id only. `delayMs`: see SaveQueue. */
  private saveChat(chat: OpenChat, delayMs = 0): Promise<void> {
    const conversation = chat.conversation;
    if (conversation.turns.length === 0) return this.saves.flush();
    return this.saves.request(conversation, delayMs);
  }

  /** A save finished: its result (merged with the user's edits in the note) becomes the chat's state. */
  private saveDone(event: SaveEvent): void {
    const chat = this.chat;
    const shown = event.sent.id === chat.conversation.id;
    if (event.type === 'failed') {
      const text = shown
        ? `The chat could not be saved: ${userFacingError(event.error)}`
        : `The chat "${event.sent.title}" could not be saved: ${userFacingError(event.error)}`;
      this.warnings = withWarnings(withoutSources(this.warnings, 'save'), [{ source: 'save', text }]);
      this.emit();
      return;
    }
    if (!shown) return;
    const before = chat.conversation;
    chat.conversation = rebaseOnSaved(before, event.sent, event.result.conversation);
    // The user edited the latest summary in the note while the chat is open: their text is what is sent next.
    const edited = compactionToApply(chat.conversation.compactions, chat.engine.currentCompaction());
    if (edited) {
      chat.engine.condense(edited);
      chat.conversation = withEngine(chat.conversation, chat.engine.snapshot());
    }
    const hadError = this.warnings.some((w) => w.source === 'save');
    const kept = withoutSources(this.warnings, 'save');
    this.warnings = withWarnings(kept, event.result.warnings.map((w) => ({ source: 'note' as const, text: `Chat note: ${w}` })));
    const noted = this.warnings.length > kept.length;
    if (!this.saved || hadError || noted || chat.conversation !== before) {
      this.saved = true;
      this.emit();
    }
  }
}

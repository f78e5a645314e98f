import type { ContextChip } from '../context/items';
import { ChipResolver } from '../context/resolver';
import type { LiveChat } from '../conversation/liveChat';
import { setMode as withMode, setModel as withModel, setTitle } from '../conversation/transitions';
import { inputBudget } from '../budget/budget';
import { budgetSettingsFor, type ChatMode } from '../settings/settings';
import { SummaryCache } from '../planning/summaryCache';
import type { PlanOverride } from '../conversation/records/plan';
import type { ChatActivity, ActivityChange } from './activity';
import { chatStateOf, libraryEntries, type ChatPhase, type ChatState } from './chatState';
import { engineOptions, newLiveChat, openSavedChat } from './chatOpening';
import { ChatSaves } from './chatSaves';
import { modeProblem, moveToProject } from './chatSettings';
import { ChatTitler } from './chatTitler';
import { ChatRuns, type Settle } from './chatRuns';
import { ChatEdits } from './editActions';
import { contextUsageOf } from './contextUsage';
import type { ChatControllerDeps } from './controllerDeps';
import { overridePlan, removeLibraryItem } from './libraryActions';
import { NextRequestPreview } from './nextRequestPreview';
import { withoutSources, withWarnings, type ChatWarning } from './warnings';

export { WORDS_SAVE_DELAY_MS, type ChatControllerDeps } from './controllerDeps';

export type ChatChange = ActivityChange;
export type ChatListener = (change: ChatChange) => void;

const BUSY = 'A reply is still coming in: stop it first.';
const OPENING = 'A chat is opening: wait until it is shown.';

/**
 * The chat controller, a façade for the view: the chat shown (a LiveChat: its conversation and
 * engine, changed together), its lifecycle (new, open, remove, rename, model, mode, project), the
 * turns it starts (each a TurnRun that owns its stream, retries, agent calls and stop), the preview
 * of the next request, and saving. A failed or stopped request keeps the user's message (saved,
 * marked, retried as it is). The host injects the vault, the archive, the providers, the clock and ids.
 */
export class ChatController {
  private chat: LiveChat;
  private readonly resolver: ChipResolver;
  private readonly saves: ChatSaves;
  private readonly titler: ChatTitler;
  private opening = false;
  /** Counts chat switches: an open overtaken by a newer switch (a new chat) is dropped when it loads. */
  private switches = 0;
  /** What runs on the chats (turns, condensing), by chat id; the chat shown's is what the view shows. */
  private readonly runs: ChatRuns;
  /** The next request as it would go now (history, library, the composer's chips): the usage line's figure. */
  private readonly preview: NextRequestPreview;
  private warnings: ChatWarning[] = [];
  private readonly listeners = new Set<ChatListener>();
  private cachedState: ChatState | null = null;
  readonly edits: ChatEdits;

  constructor(private readonly deps: ChatControllerDeps) {
    const summaryCache = deps.summaryCache ?? new SummaryCache();
    this.resolver = new ChipResolver(deps.vault);
    this.titler = new ChatTitler(deps);
    this.saves = new ChatSaves(deps.archive, {
      shown: () => this.chat,
      warnings: () => this.warnings,
      setWarnings: (warnings) => (this.warnings = warnings),
      changed: () => this.emit(),
    });
    this.edits = new ChatEdits(deps, { shown: () => this.chat, save: (chat) => this.saves.save(chat), emit: () => this.emit() });
    this.runs = new ChatRuns(
      { host: deps, resolver: this.resolver, saves: this.saves, titler: this.titler, summaryCache, edits: this.edits },
      {
        shown: () => this.chat,
        emit: (change) => this.emit(change),
        warnings: () => this.warnings,
        setWarnings: (warnings) => (this.warnings = warnings),
        previewNext: () => void this.previewNext(),
      },
    );
    this.preview = new NextRequestPreview(this.resolver, summaryCache, {
      shown: () => this.chat,
      busy: () => this.shownActivity() !== undefined,
      settings: () => deps.settings(),
      budgetFor: (model) => this.budgetFor(model),
      expensive: (model) => this.runs.expensive(model),
      changed: () => this.emit(),
    });
    this.chat = newLiveChat(deps.settings(), deps);
  }

  // ---- observation -------------------------------------------------------------------------

  subscribe(listener: ChatListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get state(): ChatState {
    if (this.cachedState) return this.cachedState;
    const chat = this.chat;
    const activity = this.shownActivity();
    const phase: ChatPhase = this.opening ? 'opening' : activity ? 'sending' : 'idle';
    const last = chat.lastAssembly;
    this.cachedState = chatStateOf({
      conversation: chat.conversation,
      phase,
      busy: activity !== undefined,
      streamingText: activity?.streamingText ?? null,
      contextUsage: last ? contextUsageOf(last, this.budgetFor(last.envelope.model)) : null,
      nextRequest: this.preview.usageFor(chat),
      condensing: activity?.condensing ?? false,
      retry: activity?.retry ?? null,
      agentCalls: activity?.agentCalls ?? [],
      library: libraryEntries(chat.engine.libraryItems()),
      warnings: [...this.warnings],
      saved: this.saves.saved,
    });
    return this.cachedState;
  }

  private emit(change: ChatChange = 'state'): void {
    // A streamed token changes only the streaming text: the rest of the state (the whole chat,
    // derived) is not rebuilt per token.
    this.cachedState = change === 'stream' && this.cachedState ? { ...this.cachedState, streamingText: this.shownActivity()?.streamingText ?? null } : null;
    for (const listener of [...this.listeners]) listener(change);
  }

  /** What runs on the chat shown, if anything. */
  private shownActivity(): ChatActivity | undefined {
    return this.runs.running(this.chat.id);
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
    await this.runs.start(this.chat, index);
  }

  /** Stop the reply that is streaming (or a condense). The user's message is kept, marked stopped, ready to retry. */
  stop(): void {
    this.shownActivity()?.stop();
  }

  /** Ask again for the last reply: the last turn is dropped (a history change, said as such) and resent. */
  async regenerate(): Promise<void> {
    this.assertIdle();
    if (this.pendingIndex() !== null) return this.retry();
    const turns = this.chat.conversation.turns;
    const last = turns[turns.length - 1];
    if (!last) throw new Error('There is no reply to regenerate.');
    const index = turns.length - 1;
    const before = this.chat.checkpoint();
    this.chat.truncateFrom(index, this.deps.now());
    // A regeneration that failed or was stopped (switching chats stops it too) must not cost the
    // answer the user already had: put back as the turn settles, before the chat can be reopened.
    await this.runNewTurn(last.text, last.sent, last.chips ?? [], (chat) => {
      const retried = chat.conversation.turns[index];
      if (!retried || retried.status === 'complete') return null;
      chat.restore(before, engineOptions(this.deps.settings()));
      if (chat === this.chat) {
        this.warnings = withWarnings(withoutSources(this.warnings, 'regenerate'), [
          { source: 'regenerate', text: `Regenerate failed: ${retried.error ?? retried.status}; the previous answer is kept.` },
        ]);
        this.emit();
      }
      return this.saves.save(chat);
    });
  }

  /** Edit the last user message (answered or kept) and send it again with the same chips. */
  async editLast(text: string): Promise<void> {
    this.assertIdle();
    if (!text.trim()) throw new Error('The message is empty.');
    const turns = this.chat.conversation.turns;
    const last = turns[turns.length - 1];
    if (!last) throw new Error('There is no message to edit.');
    this.chat.truncateFrom(turns.length - 1, this.deps.now());
    await this.runNewTurn(text, undefined, last.chips ?? []);
  }

  private assertIdle(): void {
    if (this.opening) throw new Error(OPENING);
    if (this.shownActivity()) throw new Error(BUSY);
  }

  /** Index of the last message when it has no reply: the one Retry sends. */
  private pendingIndex(): number | null {
    const turns = this.chat.conversation.turns;
    const last = turns[turns.length - 1];
    return last && last.status !== 'complete' ? turns.length - 1 : null;
  }

  private runNewTurn(text: string, sent: string | undefined, chips: readonly ContextChip[], settle?: Settle): Promise<void> {
    this.runs.rememberPages(chips);
    const index = this.chat.addMessage({ text, ...(sent !== undefined ? { sent } : {}), chips, at: this.deps.now() });
    return this.runs.start(this.chat, index, settle);
  }

  // ---- budget and condensing ---------------------------------------------------------------

  /** The input budget for a model under the current settings. */
  budgetFor(model: string) {
    const settings = this.deps.settings();
    return inputBudget(model, budgetSettingsFor(settings, this.chat.conversation.provider, model), settings.contextWindows);
  }

  /**
   * Condense now (the context panel's button, the "Condense chat" command): the newest messages stay,
   * the rest is summarized. Stop stops it (nothing changes). Returns what happened, in words.
   */
  async condense(): Promise<string> {
    this.assertIdle();
    const chat = this.chat;
    if (chat.engine.turnCount === 0) return 'Nothing to condense yet: the chat has no answered messages.';
    // The next request as the usage line measures it: with the composer's chips.
    return this.runs.condense(chat, this.preview.requestOf(chat, false));
  }

  /**
   * Measure the next request as it would go now (history, library, L1, and the chips given: what the
   * composer holds; without chips, the ones given last), for the usage line. Cheap: nothing is
   * re-read; a result for a chat no longer shown, or overtaken by a turn, is dropped.
   */
  previewNext(chips?: readonly ContextChip[]): Promise<void> {
    return this.preview.measure(chips);
  }

  // ---- library and chat settings -----------------------------------------------------------

  /**
   * Remove an item from the Context Library: a deliberate prefix break. The next request no longer
   * extends the cached one (said in the returned message and on the next turn).
   */
  removeLibraryItem(id: string): string | null {
    this.assertIdle();
    const text = removeLibraryItem(this.chat, id);
    if (text === null) return null;
    this.warnings = withWarnings(this.warnings, [{ source: 'library', text }]);
    this.changed(true);
    return text;
  }

  /** The user's override of an item's plan (the library panel); see overridePlan. */
  setPlanOverride(id: string, override: PlanOverride | null): string {
    this.assertIdle();
    const text = overridePlan(this.chat, id, override);
    this.warnings = withWarnings(withoutSources(this.warnings, 'library'), [{ source: 'library', text }]);
    this.changed(this.saves.saved);
    return text;
  }

  setModel(providerId: string, model: string): void {
    this.assertIdle();
    const before = this.chat.conversation;
    this.chat.update((c) => withModel(c, providerId, model, this.deps.now()));
    if (this.chat.conversation !== before) this.changed(this.saves.saved);
  }

  /** Why `mode` cannot run on the chat's provider and model (the mode picker says so), or null. */
  modeProblem(mode: ChatMode): string | null {
    return modeProblem(this.chat, mode, { settings: this.deps.settings(), providers: this.deps.providers, tools: this.deps.toolHost !== undefined });
  }

  /**
   * Put the chat shown in a project (null: none; see moveToProject). New chats started from here
   * belong to it too; the view attaches a new chat's project notes.
   */
  setProject(id: string | null): void {
    this.assertIdle();
    if (moveToProject(this.chat, id, this.deps.settings(), this.deps.now())) this.changed(this.saves.saved);
  }

  setMode(mode: ChatMode): void {
    const before = this.chat.conversation;
    this.chat.update((c) => withMode(c, mode, this.deps.now()));
    if (this.chat.conversation === before) return;
    this.emit();
    if (this.saves.saved) void this.saves.save(this.chat);
  }

  /** Rename the chat shown (the title is saved with it; the note keeps its file name). */
  async rename(title: string): Promise<void> {
    if (!title.trim()) throw new Error('The title is empty.');
    this.titler.cancel(this.chat.id);
    this.chat.update((c) => setTitle(c, title, 'user', this.deps.now()));
    this.emit();
    await this.saves.save(this.chat);
  }

  /** The chat shown changed: show it, save it (when `save`), and measure the next request again. */
  private changed(save: boolean): void {
    this.emit();
    if (save) void this.saves.save(this.chat);
    void this.previewNext();
  }

  // ---- chats -------------------------------------------------------------------------------

  /** The id of the chat shown. */
  get chatId(): string {
    return this.chat.id;
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
    this.titler.cancel(id);
    this.emit();
    try {
      await this.runs.settled(id);
      await this.saves.flushChat(id);
      const opened = await openSavedChat(id, { archive: this.deps.archive, vault: this.deps.vault, resolver: this.resolver, settings: this.deps.settings() });
      if (switchNo !== this.switches) return;
      this.chat = opened.chat;
      this.preview.clear();
      this.warnings = opened.warnings.map((text) => ({ source: 'reopened' as const, text: `Reopened: ${text}` }));
      this.saves.saved = true;
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
    const shown = id === this.chat.id;
    this.titler.cancel(id);
    // The chat shown makes way for a new one at once; its note is deleted once its turn has settled.
    if (shown) {
      const project = this.chat.conversation.project;
      this.leave();
      this.reset(project);
    }
    // A save still queued (or the last one of a turn still settling) must not write the note back after it is deleted.
    await this.runs.settled(id);
    await this.saves.forget(id);
    await this.deps.archive.delete(id);
  }

  /** Resolves once every save started so far has finished, and the usage line's measure (tests, the bench, the view before closing). */
  async flush(): Promise<void> {
    await Promise.all([this.saves.flush(), this.preview.pending]);
  }

  /**
   * Leave the chat shown: what runs on it (a reply, a condense) is stopped and settles in that chat
   * in the background; nothing of it is the controller's state any more.
   */
  private leave(): void {
    this.runs.leave(this.chat.id);
  }

  private reset(project?: string): void {
    this.chat = newLiveChat(this.deps.settings(), this.deps, project);
    this.preview.clear();
    this.warnings = withoutSources(this.warnings, 'library', 'regenerate', 'reopened', 'note', 'condense');
    this.saves.saved = false;
    this.emit();
    // A new chat's usage line shows its first request (instructions and the composer's notes) at once.
    void this.previewNext();
  }
}

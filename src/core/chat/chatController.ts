import type { ContextChip } from '../context/items';
import type { ChipResolver } from '../context/resolver';
import type { LiveChat } from '../conversation/liveChat';
import { setMode as withMode, setModel as withModel, setTitle } from '../conversation/transitions';
import { inputBudget } from '../budget/budget';
import { budgetSettingsFor, type ChatMode } from '../settings/settings';
import type { PlanOverride } from '../conversation/records/plan';
import type { ChatActivity, ActivityChange } from './activity';
import { chatStateOf, libraryEntries, type ChatPhase, type ChatState } from './chatState';
import { engineOptions, newLiveChat, openSavedChat } from './chatOpening';
import type { ChatSaves } from './chatSaves';
import { ChatHub } from './chatHub';
import type { HubView } from './hubView';
import { modeProblem, moveToProject } from './chatSettings';
import type { ChatTitler } from './chatTitler';
import type { ChatRuns, Settle } from './chatRuns';
import { ShownEdits } from './editActions';
import { contextUsageOf } from './contextUsage';
import type { ChatControllerDeps } from './controllerDeps';
import { condensedViews, overridePlan, removeLibraryItem } from './libraryActions';
import { NextRequestPreview } from './nextRequestPreview';
import { withoutSources, withWarnings, type ChatWarning } from './warnings';

export { WORDS_SAVE_DELAY_MS, type ChatControllerDeps } from './controllerDeps';

export type ChatChange = ActivityChange;
export type ChatListener = (change: ChatChange) => void;

const BUSY = 'A reply is still coming in: stop it first.';
const OPENING = 'A chat is opening: wait until it is shown.';

/**
 * The chat controller, a façade for one view: the chat shown (a LiveChat: its conversation and
 * engine, changed together), its lifecycle (new, open, remove, rename, model, mode, project), the
 * turns it starts (each a TurnRun that owns its stream, retries, agent calls and stop), the preview
 * of the next request, and saving. Runs, saves and open chats are shared by every view (ChatHub):
 * switching away leaves a reply streaming. A failed or stopped request keeps the user's message
 * (saved, marked, retried as it is). The host injects the vault, the archive, the providers, the clock and ids.
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
  /** The shown chat's edits to notes (issue 28): pending reviews, applied edits, undo, the write policy. */
  readonly edits: ShownEdits;

  /** This controller as the hub sees it. */
  private readonly view: HubView;
  /** Leaves the hub (the view closes). */
  readonly detach: () => void;

  /** `hub`: shared with the other views of the plugin (absent: this controller's own). */
  constructor(
    private readonly deps: ChatControllerDeps,
    readonly hub: ChatHub = new ChatHub(deps),
  ) {
    ({ resolver: this.resolver, saves: this.saves, titler: this.titler, runs: this.runs } = hub);
    this.edits = new ShownEdits(hub.edits, () => this.chat);
    this.preview = new NextRequestPreview(this.resolver, hub.summaryCache, {
      shown: () => this.chat,
      busy: () => this.shownActivity() !== undefined,
      settings: () => deps.settings(),
      budgetFor: (model) => this.budgetFor(model),
      expensive: (model) => this.runs.expensive(model),
      changed: () => this.emit(),
    });
    this.chat = newLiveChat(deps.settings(), deps);
    this.view = {
      chat: () => this.chat,
      emit: (change) => this.notify(change),
      warnings: () => this.warnings,
      setWarnings: (warnings) => (this.warnings = warnings),
      previewNext: () => void this.previewNext(),
      removed: () => void this.newChat(),
    };
    this.detach = hub.attach(this.view);
  }

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
      condensed: condensedViews(chat.engine),
      warnings: [...this.warnings],
      saved: this.saves.isSaved(chat.id),
    });
    return this.cachedState;
  }

  /** The chat shown changed here: every view showing it hears it (one chat, however many views). */
  private emit(change: ChatChange = 'state'): void {
    for (const view of this.hub.views(this.chat.id)) if (view !== this.view) view.emit(change);
    this.notify(change);
  }

  private notify(change: ChatChange = 'state'): void {
    // A streamed token changes only the streaming text: the rest of the state is not rebuilt per token.
    this.cachedState = change === 'stream' && this.cachedState ? { ...this.cachedState, streamingText: this.shownActivity()?.streamingText ?? null } : null;
    for (const listener of [...this.listeners]) listener(change);
  }

  /** What runs on the chat shown, if anything (nothing while another chat opens). */
  private shownActivity(): ChatActivity | undefined {
    return this.opening ? undefined : this.runs.running(this.chat.id);
  }

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
    await this.runNewTurn(last.text, last.sent, last.chips ?? [], this.hub.keepingAnswer(before, index, engineOptions(this.deps.settings())));
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
    this.changed(this.saves.isSaved(this.chat.id));
    return text;
  }

  setModel(providerId: string, model: string): void {
    this.assertIdle();
    const before = this.chat.conversation;
    this.chat.update((c) => withModel(c, providerId, model, this.deps.now()));
    if (this.chat.conversation !== before) this.changed(this.saves.isSaved(this.chat.id));
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
    if (moveToProject(this.chat, id, this.deps.settings(), this.deps.now())) this.changed(this.saves.isSaved(this.chat.id));
  }

  setMode(mode: ChatMode): void {
    const before = this.chat.conversation;
    this.chat.update((c) => withMode(c, mode, this.deps.now()));
    if (this.chat.conversation === before) return;
    this.emit();
    if (this.saves.isSaved(this.chat.id)) void this.saves.save(this.chat);
  }

  /** Rename the chat shown (the title is saved with it, and its note renamed after it: ChatArchive.followTitle). */
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

  /** The id of the chat shown. */
  get chatId(): string {
    return this.chat.id;
  }

  /**
   * Start a new, empty chat, at once: a reply in flight goes on in the chat it belongs to, in the
   * background, and saves there. A chat still opening is dropped: the new chat is what the user
   * asked for last.
   */
  newChat(): Promise<void> {
    // A new chat belongs to the project of the chat shown (the header's project picker).
    const project = this.chat.conversation.project;
    this.switches++;
    this.opening = false;
    this.reset(project);
    return Promise.resolve();
  }

  /**
   * Open a chat where it stopped: turns, library, provider session, any kept message. One in memory
   * (another view shows it, or its reply runs) is shown live; the chat left runs on. Only reopening
   * a chat that has left memory waits for its last turn and saves, to read the note they write.
   */
  async open(id: string): Promise<void> {
    if (this.opening) throw new Error(OPENING);
    const switchNo = ++this.switches;
    const live = this.shared(id);
    if (live) return this.show(live);
    this.opening = true;
    // A title still on its way for this chat would be saved over the chat being opened: it is dropped.
    this.titler.cancel(id);
    this.emit();
    try {
      await this.runs.settled(id);
      await this.saves.flushChat(id);
      const opened = await openSavedChat(id, { archive: this.deps.archive, vault: this.deps.vault, resolver: this.resolver, settings: this.deps.settings() });
      if (switchNo !== this.switches) return;
      // Opened meanwhile by another view: the one in memory is the chat.
      const shared = this.shared(id);
      this.chat = shared ?? opened.chat;
      this.hub.hold(this.chat);
      this.preview.clear();
      this.warnings = shared ? [] : opened.warnings.map((text) => ({ source: 'reopened' as const, text: `Reopened: ${text}` }));
      this.saves.markSaved(id);
    } finally {
      if (switchNo === this.switches) {
        this.opening = false;
        this.emit();
      }
    }
    if (switchNo === this.switches) void this.previewNext();
  }

  /** Delete a saved chat; every view showing it starts a new one. */
  async remove(id: string): Promise<void> {
    this.titler.cancel(id);
    // A stop is needed here: the note goes, so nothing of the chat may run on and write it back.
    this.runs.abandon(id);
    // The views showing it make way for a new chat at once; its note is deleted once its turn has settled.
    for (const view of this.hub.views(id)) view.removed();
    // A save still queued (or the last one of a turn still settling) must not write the note back after it is deleted.
    await this.runs.settled(id);
    await this.saves.forget(id);
    await this.deps.archive.delete(id);
  }

  /** Resolves once every save started so far has finished, and the usage line's measure (tests, the bench, the view before closing). */
  async flush(): Promise<void> {
    await Promise.all([this.saves.flush(), this.preview.pending]);
  }

  /** Chat `id` in memory, once saved or running (a new chat not yet saved is no one else's to open). */
  private shared(id: string): LiveChat | undefined {
    return this.saves.isSaved(id) || this.runs.running(id) ? this.hub.chat(id) : undefined;
  }

  /** Show `chat`, already in memory (another view shows it, or its reply runs): live, as it is. */
  private show(chat: LiveChat): Promise<void> {
    this.opening = false;
    this.chat = chat;
    this.hub.hold(chat);
    this.preview.clear();
    this.warnings = withoutSources(this.warnings, 'library', 'regenerate', 'reopened', 'note', 'condense');
    this.emit();
    return this.previewNext();
  }

  private reset(project?: string): void {
    this.chat = newLiveChat(this.deps.settings(), this.deps, project);
    this.hub.hold(this.chat);
    this.preview.clear();
    this.warnings = withoutSources(this.warnings, 'library', 'regenerate', 'reopened', 'note', 'condense');
    this.emit();
    // A new chat's usage line shows its first request (instructions and the composer's notes) at once.
    void this.previewNext();
  }
}

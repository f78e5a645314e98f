/**
 * The Strata chat view (right sidebar).
 *
 * Stable selectors (used by the end-to-end tests; keep them):
 *   .strata-view                         the view's content element
 *   .strata-header                       header; .strata-title (chat title; click to rename: .strata-title-input),
 *                                        .strata-title-edit (the pencil: rename)
 *   .strata-new-chat, .strata-history-button   header buttons
 *   select.strata-model-picker           model picker (value "providerId::model")
 *   select.strata-mode-picker            mode picker (value: chat | notes-only | vault-qa)
 *   select.strata-project-picker         project picker (value: '' for no project, else the project id;
 *                                        .is-missing when the chat's project is no longer configured)
 *   .strata-messages                     the conversation
 *   .strata-message.is-user / .is-assistant    messages; .is-streaming while a reply streams,
 *                                        .is-failed (.is-error / .is-stopped) for a kept message's error,
 *                                        .is-unanswered for an earlier message that never got a reply
 *   .strata-message-body                 message text (assistant: rendered markdown)
 *   .strata-copy, .strata-regenerate, .strata-edit, .strata-edit-input, .strata-edit-send
 *   .strata-reply-more                   a reply's "⋯" menu (insert at cursor, replace selection, copy to new note)
 *   .strata-turn-meta                    per-turn usage line under a reply
 *   .strata-prefix-change                a named cache-prefix break on a turn: .strata-prefix-change-text (plain
 *                                        words); the technical reason in its title and .strata-prefix-change-detail
 *   .strata-error-text, .strata-retry    inline error and its retry button
 *   .strata-warnings .strata-warning     chat-level notices (removed library item, load warnings)
 *   .strata-context-summary              collapsed usage line (click to open the panel)
 *   .strata-context-tokens, .strata-context-condense   the usage line: next request / budget; distance to condensing
 *   .strata-meter (.strata-meter-fill, .strata-meter-threshold)   the next request's share of the budget
 *   .strata-usage                        next-request panel; .strata-usage-total, .strata-usage-threshold,
 *                                        .strata-usage-layer[data-layer=system|library|turn|history|message]
 *   .strata-condense-button, .strata-condense-result   condense now, and what it did
 *   .strata-usage-stats                  .strata-usage-last, .strata-usage-cached, .strata-usage-cost
 *   .strata-compaction[data-through]     a compaction at its boundary (.is-summary / .is-omitted):
 *                                        .strata-compaction-label, details.strata-compaction-details
 *   .strata-condensing                   a compaction is running
 *   .strata-library-item[data-id]        a Context Library item; .strata-library-remove, .strata-library-confirm-remove;
 *                                        [data-strategy], .is-excluded (left out), .strata-plan-badge, .strata-library-full,
 *                                        .strata-library-exclude, .strata-library-plan, .strata-library-confirm-exclude
 *   details.strata-plan                  a reply's context plan (.strata-plan-warning when the planner failed)
 *   .strata-composer textarea            the composer (.strata-input)
 *   .strata-chip (.is-active-note, .is-off), .strata-chip-remove, .strata-chip-toggle
 *   .strata-chips-more ("+ N more" / "Show less"), .strata-chips-clear, .strata-chips-note (aria-live:
 *                                        what was just removed) with .strata-chips-undo
 *   .strata-suggest .strata-suggest-item the `@` picker; .is-url: "Attach web page <url>"
 *   .strata-chip.is-url                  a web page attached with `@` (.is-loading while fetched, .is-error: not attached)
 *   .strata-slash-suggest                the `/` picker: .strata-slash-item[data-prompt], .strata-slash-problem
 *   .strata-send, .strata-stop           send and stop buttons
 *   .strata-review[data-proposal]       a proposed edit to review: .strata-hunk[data-hunk] (.is-undecided/.is-accepted/
 *                                        .is-rejected/.is-edited) with .strata-hunk-accept/-reject/-edit, .strata-hunk-input,
 *                                        .strata-diff-line (.is-removed/.is-added/.is-context), .strata-diff-word;
 *                                        .strata-review-accept-all/-reject-all, .strata-review-reason, .strata-review-apply
 *   .strata-review-conflicts[data-proposal]   accepted changes not written (.strata-conflict-copy, .strata-conflict-dismiss)
 *   .strata-applied-edit[data-proposal]  an applied edit (.is-undone), .strata-applied-undo
 *   .strata-history-modal                chat history (.strata-history-search, .strata-history-item[data-id],
 *                                        .strata-history-main, .strata-history-rename, .strata-history-delete)
 */
import { debounce, ItemView, MarkdownView, Notice, setIcon, TFile, type ViewStateResult, type WorkspaceLeaf } from 'obsidian';
import { redactText } from '../../core/security/redact';
import type { ChatController } from '../../core/chat/chatController';
import { chatListActions } from '../../core/chat/chatList';
import { ComposerDrafts } from '../../core/chat/composerDrafts';
import type { ChatState } from '../../core/chat/chatState';
import { normalizeChatFolder } from '../../core/vaultFolders';
import { chatFolders, findProject } from '../../core/projects/projects';
import type { ChatArchivePort } from '../../core/ports/chatArchive';
import type { ContextChip } from '../../core/context/items';
import type { FetchedPage } from '../../core/ports/toolHost';
import type { StrataSettings } from '../../core/settings/settings';
import type { PromptExpansion } from '../../core/slashPrompts/expand';
import { Composer } from './composer';
import { ContextPanel } from './contextPanel';
import { HistoryModal } from './historyModal';
import { MessageList } from './messageList';
import { ChatHeader } from './chatHeader';
import { keepAboveKeyboard } from './keyboardInset';
import { renderSetupNotice, setupProblem } from './setupNotice';
import { emptyChatModel } from '../../core/settings/defaultModel';
import type { PromptSource } from './slashPicker';
import type { AppliedEdit, ApplyResult, EditProposal, ReviewOutcome } from '../../core/edits/proposal';
import type { ChatTurn } from '../../core/conversation/model';
import { PendingReviews } from './pendingReviews';
import { editsByTurn } from './appliedEdits';
import { ObsidianVaultReader } from '../obsidianVault';

export const VIEW_TYPE_CHAT = 'strata-chat';

/** The chat a reply's menu acts for: its title (a new note's name), its model (the apply model's default), and where an applied edit is recorded. */
export interface ReplyMenuChat {
  readonly title: string;
  readonly provider: string;
  readonly model: string;
  applyEdit(proposal: EditProposal, outcome: ReviewOutcome): Promise<ApplyResult>;
}

export interface ChatViewHost {
  readonly settings: StrataSettings;
  readonly archive: ChatArchivePort;
  /** The chat's controller; `reviewer`: the view, where the agent's proposed edits are reviewed (issue 28). */
  createController(): ChatController;
  /** Proposed edits waiting for a review, shared by every view (each shows its own chat's). */
  readonly reviews: PendingReviews;
  /** Open Strata's settings tab (the empty chat's button when no provider or key is set). */
  openSettings?(): void;
  /** Custom prompts for the composer's `/` picker. */
  readonly prompts?: PromptSource;
  /** A reply's "⋯" menu, at `anchor`; `chat`: the chat's title (a new note's name) and model (the apply model's default). */
  replyMenu?(reply: string, anchor: HTMLElement, chat: ReplyMenuChat): void;
  /** Fetch a web page as markdown (a URL attached with `@`); absent: `@` offers no web pages. */
  readonly fetchPage?: (url: string, signal: AbortSignal) => Promise<FetchedPage>;
  /** Open a saved chat in a new tab (the history's button and Ctrl+Enter). */
  openInNewTab?(chatId: string): void;
}

/** What a Strata view keeps in the workspace layout: the chat it shows, reopened after a restart. */
interface ChatViewState {
  chatId?: string;
}

export class ChatView extends ItemView {
  controller!: ChatController;
  private composer!: Composer;
  /** The composer's draft of each chat not shown (the composer belongs to the chat shown). */
  private drafts!: ComposerDrafts;
  private messages!: MessageList;
  private panel!: ContextPanel;
  private header!: ChatHeader;
  private warningsEl!: HTMLElement;
  private unsubscribe: (() => void) | null = null;
  private lastBusy = false;
  /** Proposed edits the agent waits on: reviewed in the conversation (the edit session's onSettled calls `reviews.settled`). */
  get reviews(): PendingReviews {
    return this.host.reviews;
  }
  private editGroups: { state: ChatState; byTurn: Map<ChatTurn, readonly AppliedEdit[]> } | null = null;
  /** Measure the next request again with the composer's chips (they changed), once typing settles. */
  private readonly schedulePreview = debounce(() => this.previewNext(), 300, true);
  /** Markdown note of the last 'file-open' (null: none open); undefined until the first event. */
  private lastOpened: string | null | undefined = undefined;
  /** The tab's title and the chat id as last written to the workspace (refreshed when they change). */
  private shownTitle = '';
  private shownChatId: string | null = null;

  constructor(
    leaf: WorkspaceLeaf,
    private readonly host: ChatViewHost,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return VIEW_TYPE_CHAT;
  }

  /** The tab's title: the chat's once it has a message (a new one is "Strata chat"), with a dot while its reply is coming in. */
  getDisplayText(): string {
    if (!this.controller) return 'Strata chat';
    const state = this.controller.state;
    const title = state.conversation.turns.length > 0 ? state.conversation.title : 'Strata chat';
    return state.busy ? `● ${title}` : title;
  }

  /** The chat shown, once saved: the workspace keeps it, so the view reopens it after a restart. */
  getState(): Record<string, unknown> {
    const state = super.getState();
    if (this.controller?.state.saved) state.chatId = this.controller.chatId;
    return state;
  }

  async setState(state: unknown, result: ViewStateResult): Promise<void> {
    await super.setState(state, result);
    const chatId = (state as ChatViewState | null)?.chatId;
    if (typeof chatId === 'string' && this.controller && chatId !== this.controller.chatId) {
      try {
        await this.controller.open(chatId);
      } catch (error) {
        new Notice(`Could not reopen the chat: ${errorText(error)}`);
      }
    }
  }

  getIcon(): string {
    return 'messages-square';
  }

  async onOpen(): Promise<void> {
    this.controller = this.host.createController();
    this.drafts = new ComposerDrafts(this.controller.chatId);
    const root = this.contentEl;
    root.empty();
    root.addClass('strata-view');
    this.header = new ChatHeader(root, {
      owner: this,
      controller: () => this.controller,
      settings: () => this.host.settings,
      newChat: () => this.newChat(),
      openHistory: () => this.openHistory(),
      rename: (title) => this.run(() => this.controller.rename(title)),
      pickProject: (value) => this.pickProject(value),
      redraw: () => this.render(),
      fail: (error) => {
        new Notice(errorText(error));
      },
    });
    this.messages = new MessageList(root, this.app, this, {
      copy: (text) => void this.copy(text),
      regenerate: () => this.run(() => this.controller.regenerate(), undefined, true),
      editLast: (text) => this.run(() => this.controller.editLast(text), undefined, true),
      retry: () => this.run(() => this.controller.retry(), undefined, true),
      stop: () => this.controller.stop(),
      setupNotice: (parent) => {
        const problem = this.setupProblem();
        if (problem) renderSetupNotice(parent, problem, () => this.openSettings());
      },
      openLink: (href) => void this.app.workspace.openLinkText(href, '', false),
      // Only the shown chat's reviews: another chat's turn may be waiting on its own.
      pendingReviews: () => {
        const waiting = this.controller.edits.pending();
        return this.reviews.list().filter((r) => r.chat === this.controller.chatId || waiting.includes(r.draft.proposal));
      },
      undoEdit: (record) => void this.undoEdit(record.proposalId),
      unwrittenChanges: () => this.reviews.conflicts(),
      appliedEdits: (turn) => this.editsOf(turn),
      dismissUnwritten: (id) => this.reviews.dismiss(id),
      ...(this.host.replyMenu ? { replyMenu: (reply: string, anchor: HTMLElement) => this.host.replyMenu?.(reply, anchor, this.replyChat()) } : {}),
    });
    this.warningsEl = root.createDiv({ cls: 'strata-warnings' });
    const bottom = root.createDiv({ cls: 'strata-bottom' });
    this.panel = new ContextPanel(bottom, this, {
      removeLibraryItem: (id) => {
        try {
          const message = this.controller.removeLibraryItem(id);
          if (message) new Notice(message);
        } catch (error) {
          new Notice(errorText(error));
        }
      },
      setPlanOverride: (id, override) => {
        try {
          return this.controller.setPlanOverride(id, override);
        } catch (error) {
          new Notice(errorText(error));
          return null;
        }
      },
      condense: () => this.condense(),
      resized: () => this.messages.scrollToEnd(),
      keepMessages: () => this.host.settings.keepMessages,
    });
    this.composer = new Composer(bottom, {
      app: this.app,
      owner: this,
      // A message the controller cannot take (a chat is opening) goes back to the composer, never lost.
      onSend: (text, chips) => this.run(() => this.controller.send(text, chips), () => this.composer.restore(text, chips), true),
      onStop: () => this.controller.stop(),
      attachActiveNoteDefault: () => this.host.settings.attachActiveNote,
      onChipsChanged: () => this.schedulePreview(),
      chatFolder: () => (this.host.settings.chatFolder ? normalizeChatFolder(this.host.settings.chatFolder) : null),
      prompts: this.host.prompts,
      ...(this.host.fetchPage ? { fetchPage: this.host.fetchPage } : {}),
      readPdf: (path) => new ObsidianVaultReader(this.app).readPdf(path),
    });
    this.unsubscribe = this.controller.subscribe((change) => {
      if (change === 'stream') this.messages.updateStreaming(this.controller.state.streamingText ?? '');
      else this.render();
    });
    const unreview = this.reviews.subscribe(() => this.render());
    this.register(unreview);
    this.registerEvent(this.app.workspace.on('active-leaf-change', () => this.syncActiveNote()));
    this.registerEvent(
      this.app.workspace.on('file-open', (file) => {
        this.lastOpened = file instanceof TFile && file.extension === 'md' ? file.path : null;
        this.syncActiveNote();
      }),
    );
    keepAboveKeyboard(this, root);
    this.syncActiveNote();
    this.render();
    this.previewNext();
    await Promise.resolve();
  }

  /**
   * The tab closes: its chat's reply, if one is coming in, goes on and is saved in its note (the
   * history marks it); the plugin unloading stops every reply (main.ts).
   */
  async onClose(): Promise<void> {
    this.schedulePreview.cancel();
    this.unsubscribe?.();
    this.unsubscribe = null;
    this.controller.detach();
    this.messages.destroy();
    await this.controller.flush();
  }

  // ---- commands ----------------------------------------------------------------------------

  newChat(): void {
    this.run(async () => {
      await this.controller.newChat();
      // A new chat of a project starts with the project's notes attached.
      this.swapProjectNotes(undefined, this.controller.state.conversation.project);
      this.composer.focus();
    });
  }

  openHistory(): void {
    const actions = chatListActions(this.controller, this.host.archive);
    // The list reads the notes: saves still queued (a rename, the last reply) are written first.
    new HistoryModal(this.app, {
      ...actions,
      ...(this.host.openInNewTab ? { openInNewTab: (id: string) => this.host.openInNewTab?.(id) } : {}),
      list: async () => {
        await this.controller.flush();
        return actions.list();
      },
      search: async (query, options) => {
        await this.controller.flush();
        return actions.search(query, options);
      },
    }).open();
  }

  /** Resolves once the chat's queued saves are written (the workbench's flush waits on it). */
  flush(): Promise<void> {
    return this.controller.flush();
  }

  /** Open a saved chat by its id (e.g. one just imported); `notContext`: a note its composer leaves out (the note it was imported from). */
  openSavedChat(id: string, notContext?: string): void {
    if (notContext) this.drafts.prepare(id, { text: '', chips: [], activeNote: { path: notContext, on: false } });
    this.run(async () => {
      await this.controller.open(id);
      this.composer.focus();
    });
  }

  /** Condense the chat now (the panel's button, the "Condense chat" command); says what happened. */
  condense(): void {
    void (async () => {
      try {
        const message = await this.controller.condense();
        this.panel.showCondenseResult(message);
        new Notice(message);
      } catch (error) {
        this.panel.showCondenseResult(errorText(error), true);
        new Notice(errorText(error));
      }
    })();
  }

  /** Attach a chip; `focus: false` leaves the focus where it is (the related-notes view's add button). */
  addChip(chip: ContextChip, options: { focus?: boolean } = {}): void {
    this.composer.addChip(chip);
    if (options.focus !== false) this.composer.focus();
  }

  /** Settings changed: re-render (model list, active-note default) and measure the next request against the new budget. */
  refresh(): void {
    if (!this.controller) return;
    // A chat with no message yet whose provider is not set up follows the new default model.
    const state = this.controller.state;
    const follow = state.busy ? null : emptyChatModel(this.host.settings, { ...state.conversation, messages: state.conversation.turns.length });
    if (follow) this.controller.setModel(follow.provider, follow.model);
    this.render();
    this.schedulePreview();
  }

  focusComposer(): void {
    this.composer.focus();
  }

  /** A prompt run as a command: its text in the composer, to review and send. */
  insertPrompt(expansion: Extract<PromptExpansion, { ok: true }>): void {
    this.composer.insertPrompt(expansion);
  }

  // ---- projects ----------------------------------------------------------------------------

  /**
   * The chat goes into a project (or none). A chat with no message yet becomes a new chat of it: the
   * previous project's notes leave the composer and the new one's join. New chats started from here
   * belong to it too.
   */
  private pickProject(value: string): void {
    const before = this.controller.state.conversation;
    try {
      this.controller.setProject(value || null);
    } catch (error) {
      new Notice(errorText(error));
      this.render();
      return;
    }
    if (before.turns.length === 0) this.swapProjectNotes(before.project, value || undefined);
  }

  /** The composer's chips: `from`'s default notes removed, `to`'s added (projects by id). */
  private swapProjectNotes(from: string | undefined, to: string | undefined): void {
    const settings = this.host.settings;
    for (const path of findProject(settings, from)?.notes ?? []) this.composer.removeChip({ kind: 'note', path });
    for (const path of findProject(settings, to)?.notes ?? []) this.composer.addChip({ kind: 'note', path });
  }

  // ---- rendering ---------------------------------------------------------------------------

  private render(): void {
    const state = this.controller.state;
    const { conversation } = state;
    this.header.render(state);
    this.contentEl.toggleClass('is-opening', state.phase === 'opening');
    this.messages.render(state);
    this.panel.render(state);
    this.renderWarnings(state);
    this.composer.setBusy(state.busy);
    const draft = this.drafts.follow(conversation.id, state.phase === 'opening', () => this.composer.draft());
    if (draft) this.composer.setDraft(draft);
    this.composer.setOpening(state.phase === 'opening');
    this.composer.setBlocked(this.setupProblem());
    // The panel and warnings above the composer may have changed height: keep the newest message in view.
    this.messages.scrollToEnd();
    // A reply is in: back to the composer, unless the user is working in the usage panel (the Condense button).
    if (this.lastBusy && !state.busy && !this.panel.el.contains(activeDocument.activeElement)) this.composer.focus();
    this.lastBusy = state.busy;
    this.syncHeader();
  }

  /** The tab's title follows the chat (its title, its running mark); the layout remembers the chat shown. */
  private syncHeader(): void {
    const title = this.getDisplayText();
    if (title !== this.shownTitle) {
      this.shownTitle = title;
      // Not in Obsidian's typings, present on every leaf: redraws the tab header and the view header.
      (this.leaf as WorkspaceLeaf & { updateHeader?: () => void }).updateHeader?.();
    }
    const chatId = this.controller.state.saved ? this.controller.chatId : null;
    if (chatId !== this.shownChatId) {
      this.shownChatId = chatId;
      this.app.workspace.requestSaveLayout();
    }
  }

  /** What keeps a message from being sent (no provider, no key), said before the user types. */
  private setupProblem(): string | null {
    return setupProblem(this.host.settings, this.controller.state.conversation.provider, (id) => this.app.secretStorage.getSecret(id));
  }

  private openSettings(): void {
    if (this.host.openSettings) this.host.openSettings();
    else new Notice('To add a provider and its API key, open the settings tab of this plugin.');
  }

  private renderWarnings(state: ChatState): void {
    this.warningsEl.empty();
    this.warningsEl.toggle(state.warnings.length > 0);
    for (const warning of state.warnings) {
      const row = this.warningsEl.createDiv({ cls: 'strata-warning' });
      setIcon(row.createSpan({ cls: 'strata-warning-icon' }), 'info');
      row.createSpan({ text: warning.text });
    }
  }

  private syncActiveNote(): void {
    // The editor in focus wins; with the chat in focus, the note opened last (as Obsidian's active file).
    const markdown = this.app.workspace.getActiveViewOfType(MarkdownView);
    const file = this.app.workspace.getActiveFile();
    const fallback = file instanceof TFile && file.extension === 'md' ? file.path : null;
    const path = markdown?.file?.path ?? (this.lastOpened !== undefined ? this.lastOpened : fallback);
    if (path && chatFolders(this.host.settings).some((folder) => path.startsWith(`${folder}/`))) {
      // A chat note is not context for itself.
      this.composer.setActiveNote(null);
      return;
    }
    this.composer.setActiveNote(path);
  }

  /** The composer's chips go to the controller even while a reply runs: its own preview after the turn counts them. */
  private previewNext(): void {
    void this.controller.previewNext(this.composer.currentChips());
  }

  /** The chat shown, for a reply's menu: an edit applied from it is recorded in this chat (the one shown when it is written). */
  private replyChat(): ReplyMenuChat {
    const { title, provider, model } = this.controller.state.conversation;
    return { title, provider, model, applyEdit: (proposal, outcome) => this.controller.edits.apply(proposal, outcome) };
  }

  /** Undo an applied edit (a reverse change, when the note changed since, is reviewed in the chat); says what happened. */
  private async undoEdit(proposalId: string): Promise<void> {
    try {
      new Notice(await this.controller.edits.undo(proposalId));
    } catch (error) {
      new Notice(errorText(error));
    }
    this.render();
  }

  /** The applied edits under a turn; grouped once per state (a render asks for every turn). */
  private editsOf(turn: ChatTurn): readonly AppliedEdit[] {
    const state = this.controller.state;
    if (this.editGroups?.state !== state) {
      const groups = editsByTurn(state.conversation.edits ?? [], state.answered.map((t) => t.at));
      this.editGroups = { state, byTurn: new Map(state.answered.map((t, i) => [t, groups[i]])) };
    }
    return this.editGroups.byTurn.get(turn) ?? [];
  }

  /** Run a user action; its error becomes a Notice. `follow`: it adds to the conversation, so show its end. */
  private run(action: () => Promise<void>, onError?: () => void, follow = false): void {
    if (follow) this.messages.scrollToEnd(true);
    action().catch((error: unknown) => {
      onError?.();
      new Notice(errorText(error));
    });
  }

  private async copy(text: string): Promise<void> {
    try {
      await navigator.clipboard.writeText(text);
      new Notice('Copied');
    } catch {
      new Notice('Could not copy to the clipboard');
    }
  }
}

/** An error for a notice: its message, secrets redacted (issue 26). */
function errorText(error: unknown): string {
  return redactText(error instanceof Error ? error.message : String(error));
}

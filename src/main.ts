import { normalizePath, Notice, Plugin, type WorkspaceLeaf } from 'obsidian';
import { DAMAGED_SETTINGS_COPY, readSettingsFile } from './core/pluginFiles';
import { ChatController, type ChatControllerDeps } from './core/chat/chatController';
import { ChatHub } from './core/chat/chatHub';
import type { ChatArchivePort } from './core/ports/chatArchive';
import { adoptProvider, loadSettings, type StrataSettings } from './core/settings/settings';
import { costOf } from './providers/pricing';
import { SummaryCache } from './core/planning/summaryCache';
import { pluginSummaryStore } from './obsidian/summaryStore';
import { newChatId } from './obsidian/ids';
import { ObsidianChatStore } from './obsidian/chatStore';
import { ChatArchive } from './core/conversation/archive';
import { normalizeChatFolder } from './core/vaultFolders';
import { importCopilotChat } from './core/conversation/copilotImport';
import { ObsidianVaultReader } from './obsidian/obsidianVault';
import { withoutChatNotes } from './core/context/chatNotesHidden';
import { obsidianProviderFactory, obsidianSemanticChoice } from './obsidian/providerWiring';
import { StrataSettingTab } from './obsidian/settingsTab';
import { openPluginSettings } from './obsidian/view/setupNotice';
import { ChatView, VIEW_TYPE_CHAT } from './obsidian/view/chatView';
import { RelatedNotesView, VIEW_TYPE_RELATED } from './obsidian/view/relatedView';
import type { ContextChip } from './core/context/items';
import { registerAddToChatMenus } from './obsidian/addToChatMenus';
import { LastMarkdownEditor } from './obsidian/lastEditor';
import { expandWithApp } from './obsidian/promptContext';
import { PromptRegistry } from './obsidian/promptRegistry';
import { showReplyMenu } from './obsidian/replyMenu';
import type { VaultSearch } from './core/search/types';
import { ObsidianVaultSearch, type SemanticState } from './obsidian/searchIndex';
import { fetchPage, obsidianToolHost } from './obsidian/toolHost';
import { ObsidianNoteWriter } from './obsidian/noteWriter';
import { chatFolders, followRename } from './core/projects/projects';
import { PendingReviews } from './obsidian/view/pendingReviews';
import type { EditModelContext } from './obsidian/applyReply';
import { registerEditSelection } from './obsidian/editSelection';

export default class StrataPlugin extends Plugin {
  /** data.json as onload read it, until `config` validates it. */
  private settingsData: unknown = undefined;
  private validatedConfig: StrataSettings | null = null;
  /**
   * The settings, validated on first use (at layout-ready at the latest): building their schemas and
   * reading data.json with them was most of what evaluating the plugin and its onload cost, and
   * nothing in onload needs them; views, commands and the search index read them later. A notice
   * about invalid settings then comes with the workspace.
   */
  get config(): StrataSettings {
    if (this.validatedConfig) return this.validatedConfig;
    const { settings, warnings } = loadSettings(this.settingsData);
    this.settingsData = undefined;
    this.validatedConfig = settings;
    if (warnings.length > 0) {
      new Notice(`Strata: some settings were invalid and reset to defaults:\n${warnings.join('\n')}`);
    }
    return settings;
  }
  set config(settings: StrataSettings) {
    this.validatedConfig = settings;
  }
  /**
   * The vault search Vault QA turns use: null before the layout is ready (a Vault QA turn then says so
   * and sends nothing); a search during the first build waits for it.
   */
  vaultSearch: () => VaultSearch | null = () => this.searchIndex ?? null;
  private archive: ChatArchive | null = null;
  /** What every Strata view shares: the chats in memory, their replies and saves (issue 29). */
  private hub: ChatHub | null = null;
  /** Proposed edits waiting for the user (issue 28), shared by every view: each shows its own chat's. */
  readonly reviews = new PendingReviews((proposal) => this.hub?.edits.chatOf(proposal) ?? null);
  /** The Strata view focused last: commands act on it. */
  private lastChatLeaf: WorkspaceLeaf | null = null;
  /** Artifact summaries (context planning), shared by every chat view, kept in the plugin's folder. */
  private summariesCache: SummaryCache | null = null;
  private get summaries(): SummaryCache {
    return (this.summariesCache ??= new SummaryCache(pluginSummaryStore(this)));
  }
  /** The note editor the user worked in last (the chat is the active leaf when its menus run). */
  private editors!: LastMarkdownEditor;
  /** Custom prompts from the prompts folder, with a command each. */
  private prompts!: PromptRegistry;
  /** The vault search (issue 13): made and built in the background after the layout is ready, kept current from vault events. */
  searchIndex: ObsidianVaultSearch | undefined;
  semanticSearchState = (): SemanticState => this.searchIndex?.semanticState() ?? { state: 'off' };
  /** Saved chats, for the controller and the history. Looked up at each call: the archive is rebuilt when the chats folder setting changes. */
  private readonly chats: ChatArchivePort = {
    save: (c) => this.chatArchive().save(c),
    load: (id) => this.chatArchive().load(id),
    list: () => this.chatArchive().list(),
    search: (q, options) => this.chatArchive().search(q, options),
    rename: (id, title) => this.chatArchive().rename(id, title),
    setFlags: (id, flags) => this.chatArchive().setFlags(id, flags),
    delete: (id) => this.chatArchive().delete(id),
  };

  async onload(): Promise<void> {
    this.settingsData = await this.readSettingsData();
    this.editors = new LastMarkdownEditor(this.app);
    this.editors.track(this);
    this.prompts = new PromptRegistry(
      this.app.vault,
      () => this.config.promptsFolder,
      { add: (id, name, run) => this.addCommand({ id, name, callback: run }), remove: (id) => this.removeCommand(id) },
      (name) => void this.runPrompt(name),
    );
    // A project's folder or default note renamed or moved in the vault: the project follows it.
    this.registerEvent(
      this.app.vault.on('rename', (file, oldPath) => {
        if (followRename(this.config.projects, oldPath, file.path)) void this.saveSettings();
      }),
    );
    // After the vault is indexed: Obsidian fires 'create' for every file while it loads.
    // The search index is made here, not in onload: it reads the settings (see config).
    this.app.workspace.onLayoutReady(() => {
      this.prompts.watch((ref) => this.registerEvent(ref));
      void this.prompts.reload();
      this.searchIndex = new ObsidianVaultSearch(
        this,
        // Every folder chats are saved in (the chat folder, each project's chats folder) is left out.
        () => ({ excludedFolders: [...chatFolders(this.config), ...this.config.searchExcludedFolders] }),
        { semantic: () => obsidianSemanticChoice(this.app, this.config), notify: (message) => new Notice(message) },
      );
      this.searchIndex.start();
    });
    this.registerView(
      VIEW_TYPE_CHAT,
      (leaf) =>
        new ChatView(leaf, {
          settings: this.config,
          createController: () => this.createController(),
          reviews: this.reviews,
          archive: this.chats,
          prompts: {
            library: () => this.prompts.current,
            folder: () => this.prompts.folderPath(),
            expand: (prompt, input, activeNote) => expandWithApp(this.app, this.editors, prompt, input, activeNote, this.chatFolderPath()),
          },
          replyMenu: (reply, anchor, chat) =>
            showReplyMenu(anchor, reply, {
              app: this.app,
              editors: this.editors,
              chatTitle: chat.title,
              chatFolder: this.chatFolderPath(),
              apply: { context: this.editModel(), chat: { provider: chat.provider, model: chat.model, apply: (proposal, outcome) => chat.applyEdit(proposal, outcome) } },
            }),
          openSettings: () => this.openSettingsTab(),
          // A URL attached with `@`: fetched as the agent's fetchUrl tool fetches (requestUrl, htmlToMarkdown).
          fetchPage: (url, signal) => fetchPage(url, signal),
          openInNewTab: (chatId) => void this.openChatInNewTab(chatId),
        }),
    );
    // Related notes (issue 33): the active note's, from the vault search's index.
    this.registerView(
      VIEW_TYPE_RELATED,
      (leaf) =>
        new RelatedNotesView(leaf, {
          related: (path, text, signal) => this.searchIndex?.related(path, text, { signal }) ?? null,
          attach: (path) => this.attachNote(path),
        }),
    );
    // Commands act on the Strata view focused last (a tab, a split, the sidebar).
    this.registerEvent(
      this.app.workspace.on('active-leaf-change', (leaf) => {
        if (leaf?.view instanceof ChatView) this.lastChatLeaf = leaf;
      }),
    );
    registerAddToChatMenus(this, { addToChat: (chips) => void this.addToChat(chips), chatFolder: () => this.chatFolderPath() });
    // After "Add to Strata chat": the editor menu lists adding the selection first, then editing it.
    registerEditSelection(this, this.editModel());
    this.addRibbonIcon('messages-square', 'Open chat', () => void this.openChat());
    this.addSettingTab(new StrataSettingTab(this.app, this));

    this.addCommand({ id: 'open-chat', name: 'Open chat', callback: () => void this.openChat() });
    this.addCommand({
      id: 'new-chat',
      name: 'New chat',
      callback: () => void this.openChat().then((view) => view?.newChat()),
    });
    this.addCommand({ id: 'new-chat-in-new-tab', name: 'New chat in new tab', callback: () => void this.openChatInNewTab() });
    this.addCommand({
      id: 'add-current-note',
      name: 'Add current note to chat',
      checkCallback: (checking) => {
        const file = this.app.workspace.getActiveFile();
        if (!file || (file.extension !== 'md' && file.extension !== 'canvas')) return false;
        // The canvas open in a tab is attached as a canvas (issue 31).
        const chip = file.extension === 'canvas' ? ({ kind: 'canvas', path: file.path } as const) : ({ kind: 'note', path: file.path } as const);
        if (!checking) void this.openChat().then((view) => view?.addChip(chip));
        return true;
      },
    });
    this.addCommand({
      id: 'add-selection',
      name: 'Add selection to chat',
      editorCheckCallback: (checking, editor, ctx) => {
        const file = ctx.file;
        const text = editor.getSelection();
        if (!file || !text) return false;
        if (!checking) {
          const from = editor.getCursor('from').line + 1;
          const to = editor.getCursor('to').line + 1;
          void this.openChat().then((view) => view?.addChip({ kind: 'selection', path: file.path, fromLine: Math.min(from, to), toLine: Math.max(from, to), text }));
        }
        return true;
      },
    });
    this.addCommand({
      id: 'import-copilot-chat',
      name: 'Import chat from the current note',
      checkCallback: (checking) => {
        const file = this.app.workspace.getActiveFile();
        if (!file || file.extension !== 'md') return false;
        if (!checking) void this.importCopilotChat(file.path);
        return true;
      },
    });
    this.addCommand({ id: 'open-related-notes', name: 'Open related notes', callback: () => void this.openRelatedNotes() });
    this.addCommand({
      id: 'condense-chat',
      name: 'Condense chat',
      callback: () => void this.openChat().then((view) => view?.condense()),
    });
    this.addCommand({
      id: 'open-chat-history',
      name: 'Open chat history',
      callback: () => void this.openChat().then((view) => view?.openHistory()),
    });
  }

  onunload(): void {
    // Views, commands and events registered through this.register* are released by Obsidian. A
    // reply still coming in must stop: the code that would save it is going away (each is kept, stopped, in its note).
    this.hub?.runs.stopAll();
  }

  /** Strata's tab in the settings window (where Obsidian allows it; otherwise the user is told where). */
  openSettingsTab(): void {
    if (!openPluginSettings(this.app, this.manifest.id)) new Notice('To add a provider and its API key, open the settings tab of this plugin.');
  }

  /**
   * data.json as far as it can be read (src/core/pluginFiles.ts), never a reason not to load: too
   * big, unreadable or damaged, the user is told, a damaged one is copied to data.damaged.json
   * before the plugin writes its settings again, and every setting still readable is kept.
   */
  private async readSettingsData(): Promise<unknown> {
    const adapter = this.app.vault.adapter;
    const dir = this.manifest.dir ?? `${this.app.vault.configDir}/plugins/${this.manifest.id}`;
    const path = normalizePath(`${dir}/data.json`);
    const { value, problem, text } = await readSettingsFile({
      size: async () => (await adapter.stat(path))?.size ?? null,
      read: () => adapter.read(path),
    });
    if (problem === null) return value;
    // Kept aside before the plugin next saves its settings over it (a copy, so nothing is lost).
    let kept = '';
    const copy = normalizePath(`${dir}/${DAMAGED_SETTINGS_COPY}`);
    try {
      if (await adapter.exists(copy)) await adapter.remove(copy);
      if (text !== null) await adapter.write(copy, text);
      else await adapter.copy(path, copy);
      kept = ` The file as it was is kept in ${DAMAGED_SETTINGS_COPY}.`;
    } catch {
      // The notice still says what happened.
    }
    new Notice(`Strata: ${problem}.${kept}`);
    return value;
  }

  async saveSettings(): Promise<void> {
    await this.saveData(this.config);
    // The prompts folder may have changed: its prompts and their commands follow.
    void this.prompts.reload();
    this.searchIndex?.settingsChanged();
    // Open chats show the new provider and model list at once.
    for (const leaf of this.app.workspace.getLeavesOfType(VIEW_TYPE_CHAT)) if (leaf.view instanceof ChatView) leaf.view.refresh();
  }

  /** What "Apply to note" and "Edit with Strata" use: the settings, the providers, prices, and the folders never written. */
  private editModel(): EditModelContext {
    return {
      app: this.app,
      settings: () => this.config,
      providers: obsidianProviderFactory(this.app, () => this.config),
      costOf: (model, usage) => costOf(model, usage)?.usd ?? null,
      hiddenFolders: () => chatFolders(this.config),
    };
  }

  /** A controller for one view, over the hub every view shares. */
  createController(): ChatController {
    const deps = this.controllerDeps();
    this.hub ??= new ChatHub(deps);
    return new ChatController(deps, this.hub);
  }

  private controllerDeps(): ChatControllerDeps {
    return {
      vault: this.contextVault(),
      archive: this.chats,
      providers: obsidianProviderFactory(this.app, () => this.config),
      settings: () => this.config,
      now: () => Date.now(),
      newId: newChatId,
      costOf: (model, usage) => costOf(model, usage)?.usd ?? null,
      summaryCache: this.summaries,
      search: () => this.vaultSearch(),
      // The Agent mode's tools: read-only, over the same vault view as attachments (chat notes hidden).
      toolHost: () =>
        obsidianToolHost(this.app, {
          search: () => this.vaultSearch(),
          vault: this.contextVault(),
          hidden: chatFolders(this.config),
          allowLocalAddresses: () => this.config.agentAllowLocalAddresses,
        }),
      // The write tools (issue 28) change notes through Vault.process and FileManager; the review every view shares decides.
      writer: () => new ObsidianNoteWriter(this.app, () => this.config.searchExcludedFolders),
      reviewer: () => this.reviews,
    };
  }

  /** Convert a chat saved by the Copilot plugin into a Strata chat note, then open it. The source note is left as it is. */
  private async importCopilotChat(path: string): Promise<void> {
    try {
      const vault = this.contextVault();
      const text = await vault.read(path);
      if (text === null) throw new Error(`${path} could not be read`);
      const imported = await importCopilotChat(text, vault, { now: () => Date.now() }, {
        defaultModel: this.config.defaultModel,
        rendering: this.config.rendering,
        freshness: this.config.freshness,
      });
      // Continue on a provider configured here: Copilot's provider names are not Strata's ids.
      // A fresh id: importing the same note twice makes a second chat, never overwrites the first.
      const conversation = {
        ...imported.conversation,
        id: newChatId(),
        ...adoptProvider(this.config, imported.conversation.provider, imported.conversation.model),
      };
      const saved = await this.chatArchive().save(conversation);
      const notes = [...imported.warnings, ...saved.warnings];
      new Notice(`Imported ${conversation.turns.length} messages into ${saved.path}${notes.length ? `:\n${notes.join('\n')}` : '.'}`);
      const view = await this.openChat();
      // The Copilot note it came from is not context for it: not attached as the active note.
      view?.openSavedChat(saved.conversation.id, path);
    } catch (error) {
      new Notice(`Copilot import failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  /** Run a custom prompt (its command): filled in from the editor now, then put in the chat's composer to review and send. */
  private async runPrompt(name: string): Promise<void> {
    const prompt = this.prompts.find(name);
    if (!prompt) {
      new Notice(`There is no prompt named "${name}" in ${this.prompts.folderPath() || 'the prompts folder'} any more.`);
      return;
    }
    // Read the selection and the note before the chat opens and becomes the active leaf.
    const expansion = expandWithApp(this.app, this.editors, prompt, '', null, this.chatFolderPath());
    if (!expansion.ok) {
      new Notice(expansion.error);
      return;
    }
    const view = await this.openChat();
    view?.insertPrompt(expansion);
  }

  /** "Add to Strata chat" from a context menu: open the chat with the chips attached. */
  private async addToChat(chips: readonly ContextChip[]): Promise<void> {
    const view = await this.openChat();
    for (const chip of chips) view?.addChip(chip);
  }

  private chatFolderPath(): string | null {
    return this.config.chatFolder ? normalizeChatFolder(this.config.chatFolder) : null;
  }

  /** The vault as chats read their context from: chat notes are not listed (chatNotesHidden.ts). */
  private contextVault() {
    return withoutChatNotes(new ObsidianVaultReader(this.app), () => chatFolders(this.config));
  }

  /** The chats folder; rebuilt when the folder setting changes (it remembers what it last wrote, for merges). */
  private chatArchive(): ChatArchive {
    const folder = this.config.chatFolder;
    if (!this.archive || this.archive.folder !== normalizeChatFolder(folder)) {
      // Chats of a project are saved in (and listed from) its chats folder: read from the settings at each call.
      this.archive = new ChatArchive(new ObsidianChatStore(this.app), { now: () => Date.now() }, folder, () => this.config.projects);
    }
    return this.archive;
  }

  /**
   * Reveal the Strata view commands act on: the focused one, else the one focused last, else the
   * first; a new one in the right sidebar when there is none.
   */
  async openChat(): Promise<ChatView | null> {
    const { workspace } = this.app;
    const leaves = workspace.getLeavesOfType(VIEW_TYPE_CHAT);
    const last = this.lastChatLeaf && leaves.includes(this.lastChatLeaf) ? this.lastChatLeaf : null;
    let leaf: WorkspaceLeaf | null = last ?? leaves[0] ?? null;
    if (!leaf) {
      leaf = workspace.getRightLeaf(false);
      if (!leaf) return null;
      await leaf.setViewState({ type: VIEW_TYPE_CHAT, active: true });
    }
    await workspace.revealLeaf(leaf);
    const view = leaf.view instanceof ChatView ? leaf.view : null;
    view?.focusComposer();
    return view;
  }

  /** The related-notes view: the one open, else a new one in the right sidebar. */
  async openRelatedNotes(): Promise<void> {
    const { workspace } = this.app;
    const leaf = workspace.getLeavesOfType(VIEW_TYPE_RELATED)[0] ?? workspace.getRightLeaf(false);
    if (!leaf) return;
    if (!(leaf.view instanceof RelatedNotesView)) await leaf.setViewState({ type: VIEW_TYPE_RELATED, active: true });
    await workspace.revealLeaf(leaf);
    if (leaf.view instanceof RelatedNotesView) await leaf.view.focusList();
  }

  /** A note attached to the chat shown last without taking the focus (the related-notes view); a new chat when none is open. */
  private attachNote(path: string): void {
    const leaves = this.app.workspace.getLeavesOfType(VIEW_TYPE_CHAT);
    const leaf = this.lastChatLeaf && leaves.includes(this.lastChatLeaf) ? this.lastChatLeaf : (leaves[0] ?? null);
    if (leaf?.view instanceof ChatView) leaf.view.addChip({ kind: 'note', path }, { focus: false });
    else void this.openChat().then((view) => view?.addChip({ kind: 'note', path }));
  }

  /** A Strata view in a new tab: the saved chat `chatId`, or a new chat. */
  async openChatInNewTab(chatId?: string): Promise<ChatView | null> {
    const leaf = this.app.workspace.getLeaf('tab');
    await leaf.setViewState({ type: VIEW_TYPE_CHAT, active: true, state: chatId ? { chatId } : {} });
    await this.app.workspace.revealLeaf(leaf);
    const view = leaf.view instanceof ChatView ? leaf.view : null;
    view?.focusComposer();
    return view;
  }
}

import type { App } from './app';
import { Component } from './component';
import { Editor } from './editor';
import { Events } from './events';
import type { TFile } from './files';
import { setIcon } from './icons';
import { renderMarkdownInto } from './markdown';
import { Menu } from './menu';
import { debounce } from './util';

export interface ViewState {
  type: string;
  state?: Record<string, unknown>;
  active?: boolean;
  pinned?: boolean;
  group?: WorkspaceLeaf;
}

export type ViewCreator = (leaf: WorkspaceLeaf) => View;
export type Side = 'left' | 'right' | 'root';

/** Obsidian's View: a leaf's content. containerEl.children[0] is the header, [1] the content. */
export abstract class View extends Component {
  app: App;
  icon = '';
  navigation = false;
  leaf: WorkspaceLeaf;
  containerEl: HTMLElement;
  scope = null;

  constructor(leaf: WorkspaceLeaf) {
    super();
    this.leaf = leaf;
    this.app = leaf.app;
    this.containerEl = createDiv('workspace-leaf-content');
  }

  /** Called by the leaf: mounts, loads and opens the view (Obsidian's internal order). */
  async open(parentEl: HTMLElement): Promise<void> {
    this.containerEl.setAttr('data-type', this.getViewType());
    parentEl.appendChild(this.containerEl);
    this.load();
    await this.onOpen();
  }

  async close(): Promise<void> {
    await this.onClose();
    this.unload();
    this.containerEl.remove();
  }

  protected onOpen(): Promise<void> {
    return Promise.resolve();
  }
  protected onClose(): Promise<void> {
    return Promise.resolve();
  }
  abstract getViewType(): string;
  abstract getDisplayText(): string;
  getIcon(): string {
    return this.icon;
  }
  getState(): Record<string, unknown> {
    return {};
  }
  setState(_state: unknown, _result: { history: boolean }): Promise<void> {
    return Promise.resolve();
  }
  getEphemeralState(): Record<string, unknown> {
    return {};
  }
  setEphemeralState(_state: unknown): void {}
  onResize(): void {}
  onPaneMenu(): void {}
}

export abstract class ItemView extends View {
  headerEl: HTMLElement;
  titleEl: HTMLElement;
  actionsEl: HTMLElement;
  contentEl: HTMLElement;

  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.headerEl = this.containerEl.createDiv('view-header');
    this.titleEl = this.headerEl.createDiv('view-header-title');
    this.actionsEl = this.headerEl.createDiv('view-actions');
    this.contentEl = this.containerEl.createDiv('view-content');
  }

  override async open(parentEl: HTMLElement): Promise<void> {
    await super.open(parentEl);
    this.titleEl.setText(this.getDisplayText());
  }

  addAction(icon: string, title: string, callback: (evt: MouseEvent) => unknown): HTMLElement {
    const el = createEl('a', { cls: 'clickable-icon view-action', attr: { 'aria-label': title } });
    setIcon(el, icon);
    el.addEventListener('click', (evt) => void callback(evt));
    this.actionsEl.prepend(el);
    return el;
  }
}

class EmptyView extends ItemView {
  getViewType(): string {
    return 'empty';
  }
  getDisplayText(): string {
    return 'New tab';
  }
}

export abstract class FileView extends ItemView {
  allowNoFile = false;
  file: TFile | null = null;
  override navigation = true;

  override getDisplayText(): string {
    return this.file?.basename ?? 'No file';
  }
  override getState(): Record<string, unknown> {
    return this.file ? { file: this.file.path } : {};
  }
  override async setState(state: unknown, _result: { history: boolean }): Promise<void> {
    const path = (state as { file?: unknown } | null)?.file;
    if (typeof path !== 'string') return;
    const file = this.app.vault.getFileByPath(path);
    if (!file || file === this.file) return;
    if (this.file) await this.onUnloadFile(this.file);
    this.file = file;
    this.titleEl.setText(this.getDisplayText());
    await this.onLoadFile(file);
  }
  onLoadFile(_file: TFile): Promise<void> {
    return Promise.resolve();
  }
  onUnloadFile(_file: TFile): Promise<void> {
    return Promise.resolve();
  }
  canAcceptExtension(extension: string): boolean {
    return extension === 'md';
  }
}

/** A markdown note in source mode: the Editor is a textarea, saved to the vault as you type. */
export class MarkdownView extends FileView {
  /** Not Obsidian API: the mode new note panes open in (the page sets it from `?view=reading`). */
  static defaultMode: 'source' | 'preview' = 'source';
  editor: Editor;
  textarea: HTMLTextAreaElement;
  previewEl: HTMLElement;
  previewMode = { rerender: (): void => this.renderPreview() };
  private mode: 'source' | 'preview' = 'source';
  private readonly modeButton: HTMLElement;
  private data = '';
  private readonly save = debounce(() => void this.flush(), 400, true);

  constructor(leaf: WorkspaceLeaf) {
    super(leaf);
    this.contentEl.addClass('markdown-source-view');
    this.textarea = this.contentEl.createEl('textarea', { cls: 'workbench-editor', attr: { spellcheck: 'false', 'aria-label': 'Note editor' } });
    this.editor = new Editor(this.textarea, () => this.edited());
    this.textarea.addEventListener('input', () => this.edited());
    // The editor's context menu: plugins add their items on the workspace's 'editor-menu' event.
    this.textarea.addEventListener('contextmenu', (evt) => {
      evt.preventDefault();
      const menu = new Menu();
      this.app.workspace.trigger('editor-menu', menu, this.editor, this);
      if (menu.menuItems.length > 0) menu.showAtMouseEvent(evt);
    });
    this.previewEl = this.contentEl.createDiv('markdown-preview-view markdown-rendered workbench-preview');
    this.modeButton = this.addAction('book-open', 'Reading view', () => this.setMode(this.mode === 'source' ? 'preview' : 'source'));
    this.setMode(MarkdownView.defaultMode);
    this.registerEvent(this.app.vault.on('modify', (file) => {
      // A change made elsewhere (a plugin, the harness) shows up in the pane.
      if (this.file && file === this.file && !this.editor.hasFocus()) {
        const text = this.app.vault.contents.get(this.file.path);
        if (text !== undefined && text !== this.textarea.value) this.setViewData(text, false);
      }
    }));
  }

  private edited(): void {
    this.data = this.textarea.value;
    this.app.workspace.trigger('editor-change', this.editor, this);
    this.save();
  }

  /** Writes pending edits now (the harness calls this before reading the file on disk). */
  async flush(): Promise<void> {
    this.save.cancel();
    if (this.file && this.app.vault.contents.get(this.file.path) !== this.data) await this.app.vault.modify(this.file, this.data);
  }

  getViewType(): string {
    return 'markdown';
  }
  getMode(): 'source' | 'preview' {
    return this.mode;
  }
  /** Not Obsidian API: switches between the plain-text editor and a rendered reading view. */
  setMode(mode: 'source' | 'preview'): void {
    this.mode = mode;
    this.textarea.toggleClass('is-hidden', mode === 'preview');
    this.previewEl.toggleClass('is-hidden', mode === 'source');
    setIcon(this.modeButton, mode === 'source' ? 'book-open' : 'pencil');
    this.modeButton.setAttr('aria-label', mode === 'source' ? 'Reading view' : 'Editing view');
    this.renderPreview();
  }
  private renderPreview(): void {
    if (this.mode !== 'preview') return;
    this.previewEl.empty();
    renderMarkdownInto(this.data, this.previewEl);
  }
  getViewData(): string {
    return this.data;
  }
  setViewData(data: string, _clear: boolean): void {
    this.data = data;
    this.textarea.value = data;
    this.renderPreview();
  }
  clear(): void {
    this.setViewData('', true);
  }
  override async onLoadFile(file: TFile): Promise<void> {
    this.setViewData(await this.app.vault.cachedRead(file), true);
  }
  override async onUnloadFile(_file: TFile): Promise<void> {
    await this.flush();
  }
}

/** A tab in the workspace. Sidebar leaves have a tab header; the root leaf shows the note. */
export class WorkspaceLeaf extends Events {
  app: App;
  view: View;
  containerEl: HTMLElement;
  tabHeaderEl: HTMLElement | null = null;
  readonly side: Side;
  readonly id: string;
  isDeferred = false;
  pinned = false;
  private static counter = 0;

  constructor(app: App, side: Side) {
    super();
    this.app = app;
    this.side = side;
    this.id = `leaf-${++WorkspaceLeaf.counter}`;
    this.containerEl = createDiv({ cls: 'workspace-leaf', attr: { 'data-leaf-id': this.id } });
    this.view = new EmptyView(this);
    void this.view.open(this.containerEl);
    const activate = (): void => this.app.workspace.setActiveLeaf(this, { focus: false });
    this.containerEl.addEventListener('mousedown', activate);
    this.containerEl.addEventListener('focusin', activate);
  }

  getViewState(): ViewState {
    return { type: this.view.getViewType(), state: this.view.getState(), pinned: this.pinned };
  }

  async setViewState(viewState: ViewState, _eState?: unknown): Promise<void> {
    const ws = this.app.workspace;
    if (this.view.getViewType() !== viewState.type) {
      const creator = ws.viewCreator(viewState.type);
      await this.view.close();
      this.view = creator ? creator(this) : new EmptyView(this);
      await this.view.open(this.containerEl);
    }
    if (viewState.state) await this.view.setState(viewState.state, { history: false });
    if (this.view instanceof ItemView) this.view.titleEl.setText(this.view.getDisplayText());
    ws.leafChanged(this);
    if (viewState.active) ws.setActiveLeaf(this, { focus: true });
  }

  async openFile(file: TFile, openState?: { active?: boolean }): Promise<void> {
    await this.setViewState({ type: 'markdown', state: { file: file.path }, active: openState?.active ?? true });
    this.app.workspace.trigger('file-open', file);
  }

  getDisplayText(): string {
    return this.view.getDisplayText();
  }
  getIcon(): string {
    return this.view.getIcon();
  }
  setPinned(pinned: boolean): void {
    this.pinned = pinned;
  }
  togglePinned(): void {
    this.pinned = !this.pinned;
  }
  setGroup(_group: string): void {}
  loadIfDeferred(): Promise<void> {
    return Promise.resolve();
  }
  getRoot(): unknown {
    return this.side === 'root' ? this.app.workspace.rootSplit : this.side === 'left' ? this.app.workspace.leftSplit : this.app.workspace.rightSplit;
  }
  getContainer(): unknown {
    return this.getRoot();
  }
  onResize(): void {
    this.view.onResize();
  }
  detach(): void {
    void this.app.workspace.detachLeaf(this);
  }
  /** Not in Obsidian's typings, on every leaf there: redraws the tab header and the view's title. */
  updateHeader(): void {
    if (this.view instanceof ItemView) this.view.titleEl.setText(this.view.getDisplayText());
    this.app.workspace.leafChanged(this);
  }
}

/** A sidebar (or the root area): a box of leaves, with tab headers in the sidebars. */
export class WorkspaceSplit {
  containerEl: HTMLElement;
  tabHeadersEl: HTMLElement;
  leavesEl: HTMLElement;
  collapsed = false;

  constructor(parent: HTMLElement, readonly side: Side) {
    this.containerEl = parent.createDiv(`workspace-split mod-${side === 'root' ? 'root' : `${side}-split`}`);
    this.tabHeadersEl = this.containerEl.createDiv('workspace-tab-header-container');
    this.leavesEl = this.containerEl.createDiv('workspace-tab-container');
  }
  collapse(): void {
    this.collapsed = true;
    this.containerEl.addClass('is-collapsed');
  }
  expand(): void {
    this.collapsed = false;
    this.containerEl.removeClass('is-collapsed');
  }
  toggle(): void {
    if (this.collapsed) this.expand();
    else this.collapse();
  }
}

/** Obsidian's Workspace: a left sidebar, one root leaf for notes, a right sidebar with tabs. */
export class Workspace extends Events {
  containerEl: HTMLElement;
  leftRibbon: { containerEl: HTMLElement };
  leftSplit: WorkspaceSplit;
  rootSplit: WorkspaceSplit;
  rightSplit: WorkspaceSplit;
  activeLeaf: WorkspaceLeaf | null = null;
  layoutReady = false;
  requestSaveLayout = debounce(() => undefined, 1000);
  private readonly leaves: WorkspaceLeaf[] = [];
  private readonly creators = new Map<string, ViewCreator>();
  private readonly readyCallbacks: (() => unknown)[] = [];
  private readonly mainLeaf: WorkspaceLeaf;
  private lastFile: TFile | null = null;

  constructor(private readonly app: App, containerEl: HTMLElement) {
    super();
    this.containerEl = containerEl;
    this.leftRibbon = { containerEl: containerEl.createDiv('workspace-ribbon side-dock-ribbon mod-left') };
    this.leftSplit = new WorkspaceSplit(containerEl, 'left');
    this.rootSplit = new WorkspaceSplit(containerEl, 'root');
    this.rightSplit = new WorkspaceSplit(containerEl, 'right');
    this.mainLeaf = this.createLeaf('root');
    this.activeLeaf = this.mainLeaf;
    this.mainLeaf.containerEl.addClass('mod-active');
  }

  /** Not Obsidian API: the shim's view registry (Plugin.registerView fills it). */
  registerViewCreator(type: string, creator: ViewCreator): void {
    if (this.creators.has(type)) throw new Error(`Attempting to register an existing view type "${type}"`);
    this.creators.set(type, creator);
  }
  unregisterViewCreator(type: string): void {
    this.creators.delete(type);
  }
  viewCreator(type: string): ViewCreator | undefined {
    if (type === 'markdown') return (leaf) => new MarkdownView(leaf);
    return this.creators.get(type);
  }

  private createLeaf(side: Side): WorkspaceLeaf {
    const leaf = new WorkspaceLeaf(this.app, side);
    const split = side === 'root' ? this.rootSplit : side === 'left' ? this.leftSplit : this.rightSplit;
    split.leavesEl.appendChild(leaf.containerEl);
    // The root's first leaf (the note pane) gets a tab header once a second tab opens beside it.
    if (side !== 'root' || this.leaves.some((l) => l.side === 'root')) {
      if (side === 'root' && !this.mainLeaf.tabHeaderEl) this.addTabHeader(this.mainLeaf);
      this.addTabHeader(leaf);
      this.showTab(leaf);
    }
    this.leaves.push(leaf);
    return leaf;
  }

  private addTabHeader(leaf: WorkspaceLeaf): void {
    const split = leaf.side === 'root' ? this.rootSplit : leaf.side === 'left' ? this.leftSplit : this.rightSplit;
    leaf.tabHeaderEl = split.tabHeadersEl.createDiv({ cls: 'workspace-tab-header', attr: { 'data-leaf-id': leaf.id, tabindex: '0', role: 'tab' } });
    leaf.tabHeaderEl.addEventListener('click', () => void this.revealLeaf(leaf));
    leaf.tabHeaderEl.addEventListener('keydown', (evt) => {
      if (evt.key === 'Enter' || evt.key === ' ') void this.revealLeaf(leaf);
    });
    this.leafChanged(leaf);
  }

  /** Refreshes a sidebar tab header after the leaf's view changed. */
  leafChanged(leaf: WorkspaceLeaf): void {
    if (leaf.tabHeaderEl) {
      leaf.tabHeaderEl.empty();
      const icon = leaf.tabHeaderEl.createDiv('workspace-tab-header-inner-icon');
      setIcon(icon, leaf.getIcon() || 'file');
      leaf.tabHeaderEl.setAttr('aria-label', leaf.getDisplayText());
      leaf.tabHeaderEl.setAttr('data-type', leaf.view.getViewType());
      // Tabs in the root show their title, as Obsidian's do; the sidebars' only their icon.
      if (leaf.side === 'root') leaf.tabHeaderEl.createDiv({ cls: 'workspace-tab-header-inner-title', text: leaf.getDisplayText() });
    }
    this.trigger('layout-change');
  }

  private showTab(leaf: WorkspaceLeaf): void {
    const split = leaf.side === 'left' ? this.leftSplit : leaf.side === 'right' ? this.rightSplit : this.rootSplit;
    for (const other of this.leaves) {
      if (other.side !== leaf.side) continue;
      other.containerEl.toggleClass('is-hidden', other !== leaf);
      other.tabHeaderEl?.toggleClass('is-active', other === leaf);
    }
    leaf.containerEl.removeClass('is-hidden');
    leaf.tabHeaderEl?.addClass('is-active');
    split.expand();
  }

  onLayoutReady(callback: () => unknown): void {
    if (this.layoutReady) window.setTimeout(() => void callback(), 0);
    else this.readyCallbacks.push(callback);
  }

  /** Not Obsidian API: the page calls it once plugins are loaded. */
  markLayoutReady(): void {
    this.layoutReady = true;
    for (const cb of this.readyCallbacks.splice(0)) void cb();
    this.trigger('layout-ready');
  }

  get activeEditor(): { editor: Editor; file: TFile | null } | null {
    const view = this.activeLeaf?.view;
    return view instanceof MarkdownView ? { editor: view.editor, file: view.file } : null;
  }

  setActiveLeaf(leaf: WorkspaceLeaf, params?: { focus?: boolean } | boolean): void {
    if (this.activeLeaf === leaf) return;
    this.activeLeaf?.containerEl.removeClass('mod-active');
    this.activeLeaf = leaf;
    leaf.containerEl.addClass('mod-active');
    if (leaf.view instanceof FileView && leaf.view.file) this.lastFile = leaf.view.file;
    const focus = typeof params === 'boolean' ? params : params?.focus;
    if (focus && leaf.view instanceof MarkdownView) leaf.view.editor.focus();
    this.trigger('active-leaf-change', leaf);
  }

  getActiveFile(): TFile | null {
    const view = this.activeLeaf?.view;
    if (view instanceof FileView && view.file) return view.file;
    const mainView = this.mainLeaf.view;
    return this.lastFile ?? (mainView instanceof FileView ? mainView.file : null);
  }

  getActiveViewOfType<T extends View>(type: abstract new (...args: never[]) => T): T | null {
    const view = this.activeLeaf?.view;
    return view instanceof type ? view : null;
  }

  getLeavesOfType(viewType: string): WorkspaceLeaf[] {
    return this.leaves.filter((l) => l.view.getViewType() === viewType);
  }

  getLeafById(id: string): WorkspaceLeaf | null {
    return this.leaves.find((l) => l.id === id) ?? null;
  }

  iterateAllLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
    for (const leaf of [...this.leaves]) callback(leaf);
  }

  iterateRootLeaves(callback: (leaf: WorkspaceLeaf) => unknown): void {
    for (const leaf of this.leaves.filter((l) => l.side === 'root')) callback(leaf);
  }

  getMostRecentLeaf(): WorkspaceLeaf | null {
    return this.mainLeaf;
  }

  /** The note pane, or a new tab beside it ('split' and 'window' open a tab too). */
  getLeaf(newLeaf?: boolean | 'tab' | 'split' | 'window'): WorkspaceLeaf {
    return newLeaf ? this.createLeaf('root') : this.mainLeaf;
  }
  getUnpinnedLeaf(): WorkspaceLeaf {
    return this.mainLeaf;
  }

  getRightLeaf(_shouldSplit: boolean): WorkspaceLeaf {
    return this.createLeaf('right');
  }

  getLeftLeaf(_shouldSplit: boolean): WorkspaceLeaf {
    return this.createLeaf('left');
  }

  async ensureSideLeaf(type: string, side: 'left' | 'right', options?: { active?: boolean; split?: boolean; reveal?: boolean; state?: Record<string, unknown> }): Promise<WorkspaceLeaf> {
    const existing = this.getLeavesOfType(type).find((l) => l.side === side);
    const leaf = existing ?? this.createLeaf(side);
    if (!existing || options?.state) await leaf.setViewState({ type, state: options?.state, active: options?.active });
    if (options?.reveal !== false) await this.revealLeaf(leaf);
    return leaf;
  }

  revealLeaf(leaf: WorkspaceLeaf): Promise<void> {
    if (leaf.tabHeaderEl) this.showTab(leaf);
    return Promise.resolve();
  }

  async detachLeaf(leaf: WorkspaceLeaf): Promise<void> {
    if (leaf === this.mainLeaf) {
      await leaf.setViewState({ type: 'empty' });
      return;
    }
    this.leaves.remove(leaf);
    await leaf.view.close();
    leaf.containerEl.remove();
    leaf.tabHeaderEl?.remove();
    if (this.activeLeaf === leaf) this.setActiveLeaf(this.mainLeaf);
    const sibling = this.leaves.find((l) => l.side === leaf.side);
    if (sibling) this.showTab(sibling);
    this.trigger('layout-change');
  }

  detachLeavesOfType(viewType: string): void {
    for (const leaf of this.getLeavesOfType(viewType)) void this.detachLeaf(leaf);
  }

  async openLinkText(linktext: string, sourcePath: string, _newLeaf?: boolean | 'tab' | 'split' | 'window', _openViewState?: unknown): Promise<void> {
    const path = linktext.split(/[#^|]/)[0].trim();
    let file = this.app.metadataCache.getFirstLinkpathDest(path, sourcePath);
    if (!file) file = await this.app.vault.create(path.endsWith('.md') ? path : `${path}.md`, '');
    await this.mainLeaf.openFile(file);
  }

  changeLayout(_workspace: unknown): Promise<void> {
    return Promise.resolve();
  }
  getLayout(): Record<string, unknown> {
    return {};
  }
  updateOptions(): void {}
}


/**
 * The related-notes view (issue 33): the notes most related to the active note, from the vault
 * search's index (core/search/relatedNotes.ts: the note's telling words, its links, embeddings when
 * configured), following the user from note to note. Its own leaf type, opened by the command
 * "Open related notes" (no default hotkey).
 *
 * Stable selectors (used by the end-to-end tests; keep them):
 *   .strata-related                      the view's content element
 *   .strata-related-heading              "Related to <note>" (or what the view is waiting for)
 *   .strata-related-status               an empty list, indexing, or an error, in words
 *   .strata-related-list                 the list; .strata-related-row[data-path] per note with
 *                                        .strata-related-open (opens it: click or Enter; Ctrl/Cmd: a new tab),
 *                                        .strata-related-link (linked to / from / both ways) and
 *                                        .strata-related-attach (adds it to the chat; .is-added after)
 */
import { debounce, ItemView, Keymap, setIcon, TFile, type WorkspaceLeaf } from 'obsidian';
import type { RelatedNote } from '../../core/search/relatedNotes';

export const VIEW_TYPE_RELATED = 'strata-related-notes';

/** What the view needs from the plugin. */
export interface RelatedViewDeps {
  /** The notes related to `path`; null while there is no vault search (the plugin is still loading). */
  related(path: string, text: string, signal: AbortSignal): Promise<RelatedNote[]> | null;
  /** Attach a note to the chat (the chat view shown last, or a new one), leaving the focus here. */
  attach(path: string): void;
}

/** Quiet time after the last note switch before the list is looked up (a run of quick switches costs one lookup). */
const SWITCH_DEBOUNCE_MS = 200;

const LINK_LABEL: Record<NonNullable<RelatedNote['link']>, string> = {
  to: 'Linked from this note',
  from: 'Links to this note',
  both: 'Linked both ways',
};

export class RelatedNotesView extends ItemView {
  private headingEl!: HTMLElement;
  private statusEl!: HTMLElement;
  private listEl!: HTMLElement;
  /** The note the list is for, and its text when looked up (an edit that changes it looks again). */
  private shown: { path: string; text: string } | null = null;
  private lookup: AbortController | null = null;
  /** The lookup under way (or the last one), so a command can wait for the list it shows. */
  private updating: Promise<void> = Promise.resolve();
  private readonly scheduleUpdate = debounce(() => void this.update(), SWITCH_DEBOUNCE_MS, true);

  constructor(
    leaf: WorkspaceLeaf,
    private readonly deps: RelatedViewDeps,
  ) {
    super(leaf);
  }

  getViewType(): string {
    return VIEW_TYPE_RELATED;
  }

  getDisplayText(): string {
    return 'Related notes';
  }

  getIcon(): string {
    return 'link';
  }

  async onOpen(): Promise<void> {
    this.contentEl.empty();
    this.contentEl.addClass('strata-related');
    this.contentEl.setAttr('tabindex', '-1');
    this.headingEl = this.contentEl.createDiv({ cls: 'strata-related-heading' });
    this.statusEl = this.contentEl.createDiv({ cls: 'strata-related-status strata-muted', attr: { 'aria-live': 'polite' } });
    this.listEl = this.contentEl.createEl('ul', { cls: 'strata-related-list' });
    this.listEl.addEventListener('keydown', (event) => this.onListKey(event));
    const { workspace, vault } = this.app;
    // A note opened in the same pane fires file-open only; another pane brought forward, active-leaf-change.
    this.registerEvent(workspace.on('active-leaf-change', () => this.scheduleUpdate()));
    this.registerEvent(workspace.on('file-open', () => this.scheduleUpdate()));
    this.registerEvent(
      vault.on('modify', (file) => {
        if (file.path === this.shown?.path) this.scheduleUpdate();
      }),
    );
    this.registerEvent(vault.on('rename', () => this.scheduleUpdate()));
    this.registerEvent(vault.on('delete', () => this.scheduleUpdate()));
    await this.update();
  }

  async onClose(): Promise<void> {
    this.scheduleUpdate.cancel();
    this.lookup?.abort();
    this.lookup = null;
  }

  /** The keyboard's way in (the command): the first row once the list is there, else the view. */
  async focusList(): Promise<void> {
    await this.updating;
    const first = this.listEl.querySelector<HTMLElement>('.strata-related-open');
    if (first) first.focus();
    else this.contentEl.focus();
  }

  /** Look up the active note's related notes, unless the list already shows them. */
  update(): Promise<void> {
    this.updating = this.lookUp();
    return this.updating;
  }

  private async lookUp(): Promise<void> {
    const file = this.app.workspace.getActiveFile();
    if (!(file instanceof TFile) || file.extension !== 'md') {
      // Focus in this view (or the chat) keeps the last note's list: the user is using it.
      if (this.shown) return;
      this.showStatus('', 'Open a note to see the notes related to it.');
      return;
    }
    const text = await this.app.vault.cachedRead(file);
    if (this.shown && this.shown.path === file.path && this.shown.text === text) return;
    this.lookup?.abort();
    const controller = new AbortController();
    this.lookup = controller;
    this.shown = { path: file.path, text };
    const pending = this.deps.related(file.path, text, controller.signal);
    if (pending === null) {
      this.showStatus(file.basename, 'The vault search is not ready yet.');
      this.shown = null;
      return;
    }
    this.headingEl.setText(`Related to ${file.basename}`);
    this.statusEl.setText('Finding related notes…');
    try {
      const related = await pending;
      if (controller.signal.aborted) return;
      this.render(file.basename, related);
    } catch (error) {
      if (controller.signal.aborted) return;
      this.shown = null;
      this.showStatus(file.basename, `Related notes could not be found: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  private showStatus(title: string, message: string): void {
    this.headingEl.setText(title === '' ? 'Related notes' : `Related to ${title}`);
    this.statusEl.setText(message);
    this.listEl.empty();
  }

  private render(title: string, related: readonly RelatedNote[]): void {
    this.headingEl.setText(`Related to ${title}`);
    this.listEl.empty();
    this.statusEl.setText(related.length === 0 ? 'No related notes: no other note shares its words or links with it.' : '');
    for (const note of related) this.renderRow(note);
  }

  private renderRow(note: RelatedNote): void {
    const row = this.listEl.createEl('li', { cls: 'strata-related-row', attr: { 'data-path': note.path } });
    const name = note.path.slice(note.path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
    const folder = note.path.includes('/') ? note.path.slice(0, note.path.lastIndexOf('/')) : '';
    const open = row.createEl('button', { cls: 'strata-related-open', attr: { type: 'button', title: note.path } });
    const nameEl = open.createSpan({ cls: 'strata-related-name', text: name });
    if (note.link) {
      const badge = nameEl.createSpan({ cls: 'strata-related-link', attr: { 'aria-label': LINK_LABEL[note.link], title: LINK_LABEL[note.link] } });
      setIcon(badge, 'link');
    }
    if (folder !== '') open.createSpan({ cls: 'strata-related-folder', text: folder });
    open.addEventListener('click', (event) => void this.openNote(note.path, Keymap.isModEvent(event)));
    const attach = row.createEl('button', {
      cls: 'strata-related-attach clickable-icon',
      attr: { type: 'button', 'aria-label': `Add ${name} to the chat`, title: 'Add to chat' },
    });
    setIcon(attach, 'plus');
    attach.addEventListener('click', () => {
      this.deps.attach(note.path);
      attach.addClass('is-added');
      attach.setAttr('aria-label', `${name} added to the chat`);
      attach.setAttr('title', 'Added to chat');
      setIcon(attach, 'check');
    });
  }

  /** Open a listed note (a new tab with Ctrl/Cmd); one deleted since the list was made is dropped from it. */
  private async openNote(path: string, pane: boolean | 'tab' | 'split' | 'window'): Promise<void> {
    const file = this.app.vault.getFileByPath(path);
    if (!file) {
      this.listEl.querySelector(`[data-path="${CSS.escape(path)}"]`)?.remove();
      return;
    }
    await this.app.workspace.getLeaf(pane === true ? 'tab' : pane).openFile(file);
  }

  /** Up and down move between the rows (the same column: open, or add to chat). */
  private onListKey(event: KeyboardEvent): void {
    if (event.key !== 'ArrowDown' && event.key !== 'ArrowUp') return;
    const target = event.target;
    if (!(target instanceof HTMLElement)) return;
    const row = target.closest('.strata-related-row');
    if (!row) return;
    const next = event.key === 'ArrowDown' ? row.nextElementSibling : row.previousElementSibling;
    const cls = target.hasClass('strata-related-attach') ? '.strata-related-attach' : '.strata-related-open';
    const button = next?.querySelector<HTMLElement>(cls);
    if (!button) return;
    event.preventDefault();
    button.focus();
  }
}

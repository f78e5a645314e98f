import { Modal, Notice, setIcon, type App } from 'obsidian';
import type { ChatListActions } from '../../core/chat/chatList';
import { fuzzyFilter } from '../../core/fuzzy';
import type { ChatListRow } from '../../core/ports/chatArchive';

let modalCount = 0;

/** The keys of the history list, shown in the footer as Obsidian's suggest modals show theirs. */
const INSTRUCTIONS: readonly [string, string][] = [
  ['↑↓', 'to navigate'],
  ['↵', 'to open'],
  ['Ctrl+↵', 'to open in a new tab'],
  ['Alt+P', 'to pin'],
  ['Alt+A', 'to archive'],
  ['F2', 'to rename'],
  ['Shift+Del', 'to delete'],
  ['esc', 'to dismiss'],
];

/**
 * Saved chats: search, open (here or in a new tab), pin, archive, rename, delete (to the trash,
 * through the chat store). Pinned chats come first; archived ones leave the list (a toggle shows
 * them) and a search still finds them; a chat whose reply is running says so. Keyboard like
 * Obsidian's SuggestModal (the search keeps focus, arrows move the selected row, Enter opens it,
 * Escape closes), plus F2 and Shift+Delete for the selected row. Not a SuggestModal because a row
 * turns into a rename field or a delete confirmation in place, and message search reports progress.
 */
export class HistoryModal extends Modal {
  private entries: ChatListRow[] = [];
  /** Full-text hits for the current query (null: filter titles locally). */
  private hits: ChatListRow[] | null = null;
  private searching: AbortController | null = null;
  /** While a search reads message bodies: how far it got. */
  private progress: string | null = null;
  private query = '';
  private searchEl!: HTMLInputElement;
  private listEl!: HTMLElement;
  private renaming: string | null = null;
  private deleting: string | null = null;
  /** The rows shown, in order, and the selected one (kept by id across re-renders). */
  private shown: ChatListRow[] = [];
  private selectedId: string | null = null;
  private readonly idPrefix = `strata-history-${++modalCount}`;
  /** Archived chats listed too (the toggle); a search always includes them. */
  private showArchived = false;
  private archivedToggle!: HTMLButtonElement;
  private unwatch: (() => void) | null = null;

  constructor(
    app: App,
    private readonly actions: ChatListActions,
  ) {
    super(app);
    this.scope.register([], 'ArrowDown', (evt) => this.onListKey(evt, () => this.move(1)));
    this.scope.register([], 'ArrowUp', (evt) => this.onListKey(evt, () => this.move(-1)));
    this.scope.register([], 'Enter', (evt) => this.onListKey(evt, (entry) => this.openEntry(entry)));
    this.scope.register([], 'F2', (evt) => this.onListKey(evt, (entry) => this.startRename(entry.id)));
    this.scope.register(['Shift'], 'Delete', (evt) => this.onListKey(evt, (entry) => this.askDelete(entry.id)));
    this.scope.register(['Mod'], 'Enter', (evt) => this.onListKey(evt, (entry) => this.openInNewTab(entry)));
    this.scope.register(['Alt'], 'p', (evt) => this.onListKey(evt, (entry) => this.toggleFlag(entry, 'pinned')));
    this.scope.register(['Alt'], 'a', (evt) => this.onListKey(evt, (entry) => this.toggleFlag(entry, 'archived')));
  }

  onOpen(): void {
    this.modalEl.addClass('strata-history-modal');
    this.titleEl.setText('Chat history');
    const listId = `${this.idPrefix}-list`;
    this.searchEl = this.contentEl.createEl('input', {
      cls: 'strata-history-search',
      attr: { type: 'search', placeholder: 'Search chats', 'aria-label': 'Search chats', role: 'combobox', 'aria-controls': listId, 'aria-expanded': 'true', 'aria-autocomplete': 'list' },
    });
    this.searchEl.addEventListener('input', () => {
      this.query = this.searchEl.value;
      void this.runSearch();
    });
    if (this.actions.setFlags) {
      this.archivedToggle = this.contentEl.createEl('button', { cls: 'strata-history-archived-toggle', text: 'Show archived', attr: { 'aria-pressed': 'false' } });
      this.archivedToggle.addEventListener('click', () => {
        this.showArchived = !this.showArchived;
        this.archivedToggle.setText(this.showArchived ? 'Hide archived' : 'Show archived');
        this.archivedToggle.setAttribute('aria-pressed', String(this.showArchived));
        this.renderList();
        this.refocus();
      });
    }
    this.listEl = this.contentEl.createDiv({ cls: 'strata-history-list', attr: { id: listId, role: 'listbox', 'aria-label': 'Saved chats' } });
    this.listEl.createDiv({ cls: 'strata-muted', text: 'Loading…' });
    const help = this.contentEl.createDiv({ cls: 'prompt-instructions strata-history-keys' });
    for (const [command, purpose] of INSTRUCTIONS) {
      const el = help.createDiv({ cls: 'prompt-instruction' });
      el.createSpan({ cls: 'prompt-instruction-command', text: command });
      el.createSpan({ text: purpose });
    }
    void this.reload();
    // A reply that starts or ends while the list is open: its mark follows.
    this.unwatch = this.actions.watchRuns(() => this.renderList());
    this.searchEl.focus();
  }

  onClose(): void {
    this.unwatch?.();
    this.unwatch = null;
    this.searching?.abort();
    this.contentEl.empty();
  }

  /**
   * A list key acts on the selected row, unless focus is in a rename field or on a button (their
   * own Enter and arrows win). Returning false makes the keymap prevent the default.
   */
  private onListKey(evt: KeyboardEvent, act: (entry: ChatListRow) => void): boolean {
    const target = evt.target;
    const elsewhere = target instanceof HTMLElement && target !== this.searchEl && (target.tagName === 'INPUT' || target.tagName === 'BUTTON' || target.tagName === 'TEXTAREA');
    if (elsewhere || this.renaming !== null) return true;
    const entry = this.selected();
    if (entry) act(entry);
    return false;
  }

  private selected(): ChatListRow | undefined {
    return this.shown.find((e) => e.id === this.selectedId);
  }

  private move(step: number): void {
    if (this.shown.length === 0) return;
    const at = this.shown.findIndex((e) => e.id === this.selectedId);
    const next = (at + step + this.shown.length) % this.shown.length;
    this.select(this.shown[next].id);
  }

  private select(id: string): void {
    this.selectedId = id;
    let active: HTMLElement | null = null;
    for (const row of Array.from(this.listEl.querySelectorAll<HTMLElement>('.strata-history-item'))) {
      const on = row.dataset.id === id;
      row.toggleClass('is-selected', on);
      row.setAttribute('aria-selected', String(on));
      if (on) active = row;
    }
    if (active) {
      this.searchEl.setAttribute('aria-activedescendant', active.id);
      active.scrollIntoView({ block: 'nearest' });
    } else {
      this.searchEl.removeAttribute('aria-activedescendant');
    }
  }

  private openEntry(entry: ChatListRow): void {
    // Closed at once: the chat view says the chat is opening (its composer waits) until it is shown.
    this.close();
    void this.actions.open(entry.id).catch((error: unknown) => new Notice(`Could not open the chat: ${error instanceof Error ? error.message : String(error)}`));
  }

  private openInNewTab(entry: ChatListRow): void {
    if (!this.actions.openInNewTab) return;
    this.close();
    this.actions.openInNewTab(entry.id);
  }

  /** Pin or unpin, archive or bring back: written to the chat's note, then the list is read again. */
  private toggleFlag(entry: ChatListRow, flag: 'pinned' | 'archived'): void {
    if (!this.actions.setFlags) return;
    const on = entry[flag] !== true;
    void this.actions.setFlags(entry.id, { [flag]: on }).then(
      () => this.reload().then(() => this.refocus()),
      (error: unknown) => new Notice(`Could not ${flag === 'pinned' ? (on ? 'pin' : 'unpin') : on ? 'archive' : 'unarchive'}: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  private startRename(id: string): void {
    this.deleting = null;
    this.renaming = id;
    this.renderList();
  }

  private askDelete(id: string): void {
    this.renaming = null;
    this.deleting = id;
    this.renderList();
    this.listEl.querySelector<HTMLElement>('.strata-history-confirm-delete')?.focus();
  }

  /** Back to the search field after a rename or a delete question, so the list keys work again. */
  private refocus(): void {
    this.searchEl.focus();
  }

  private async reload(): Promise<void> {
    try {
      this.entries = await this.actions.list();
      if (this.query.trim()) await this.runSearch();
    } catch (error) {
      this.entries = [];
      new Notice(`Could not list chats: ${error instanceof Error ? error.message : String(error)}`);
    }
    this.renderList();
  }

  private async runSearch(): Promise<void> {
    this.searching?.abort();
    const query = this.query.trim();
    if (!query) {
      this.hits = null;
      this.progress = null;
      this.renderList();
      return;
    }
    // Titles match at once; message bodies are read chat by chat, the hits shown as they come.
    const search = new AbortController();
    this.searching = search;
    try {
      const hits = await this.actions.search(query, {
        signal: search.signal,
        progress: (done, total, found) => {
          if (search.signal.aborted) return;
          this.hits = [...found];
          this.progress = done < total ? `Searching messages… ${done} of ${total} chats` : null;
          this.renderList();
        },
      });
      if (search.signal.aborted) return;
      this.hits = hits;
    } catch {
      if (search.signal.aborted) return;
      this.hits = null;
    }
    this.progress = null;
    this.renderList();
  }

  private renderList(): void {
    this.listEl.empty();
    if (this.progress) this.listEl.createDiv({ cls: 'strata-muted strata-history-progress', text: this.progress, attr: { role: 'status' } });
    const query = this.query.trim();
    const found = !query
      ? this.entries.filter((e) => this.showArchived || e.archived !== true)
      : (this.hits ?? fuzzyFilter(query, this.entries.map((e) => ({ item: e, text: e.title })), 200));
    // Pinned chats first, each group in its own order (newest first, or by match).
    this.shown = [...found.filter((e) => e.pinned === true), ...found.filter((e) => e.pinned !== true)];
    if (this.shown.length === 0 && !this.progress) {
      const archived = this.entries.some((e) => e.archived === true);
      const text = this.entries.length === 0 ? 'No saved chats yet.' : query ? 'No chat matches.' : archived ? 'Every chat is archived: search, or show archived chats.' : 'No saved chats yet.';
      this.listEl.createDiv({ cls: 'strata-muted strata-history-empty', text });
    }
    this.shown.forEach((entry, i) => this.renderEntry(entry, i));
    // The selection follows its chat while hits arrive; when that chat is gone, the first row.
    const keep = this.shown.some((e) => e.id === this.selectedId);
    if (!keep) this.selectedId = this.shown[0]?.id ?? null;
    if (this.selectedId !== null) this.select(this.selectedId);
    else this.searchEl.removeAttribute('aria-activedescendant');
  }

  private renderEntry(entry: ChatListRow, index: number): void {
    const row = this.listEl.createDiv({
      cls: 'strata-history-item',
      attr: { 'data-id': entry.id, id: `${this.idPrefix}-${index}`, role: 'option', 'aria-selected': 'false' },
    });
    row.addEventListener('mousemove', () => {
      if (this.selectedId !== entry.id) this.select(entry.id);
    });
    if (this.renaming === entry.id) {
      const input = row.createEl('input', { cls: 'strata-history-rename-input', attr: { type: 'text', 'aria-label': 'New title' } });
      input.value = entry.title;
      const commit = async () => {
        const title = input.value.trim();
        this.renaming = null;
        if (title && title !== entry.title) {
          try {
            await this.actions.rename(entry.id, title);
          } catch (error) {
            new Notice(`Could not rename: ${error instanceof Error ? error.message : String(error)}`);
          }
        }
        await this.reload();
        this.refocus();
      };
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          void commit();
        } else if (event.key === 'Escape') {
          // Escape leaves the rename, not the modal.
          event.preventDefault();
          event.stopPropagation();
          this.renaming = null;
          this.renderList();
          this.refocus();
        }
      });
      const save = row.createEl('button', { cls: 'mod-cta strata-history-rename-save', text: 'Save' });
      save.addEventListener('click', () => void commit());
      window.setTimeout(() => input.select(), 0);
      return;
    }
    const main = row.createDiv({ cls: 'strata-history-main' });
    const titleRow = main.createDiv({ cls: 'strata-history-title' });
    if (entry.pinned) setIcon(titleRow.createSpan({ cls: 'strata-history-pin-mark', attr: { 'aria-label': 'Pinned' } }), 'pin');
    titleRow.createSpan({ text: entry.title });
    if (this.actions.running().has(entry.id)) titleRow.createSpan({ cls: 'strata-history-badge strata-history-running', text: 'Replying…' });
    if (entry.archived) titleRow.createSpan({ cls: 'strata-history-badge strata-history-archived', text: 'Archived' });
    main.createDiv({ cls: 'strata-history-date', text: new Date(entry.updated).toLocaleString() });
    main.addEventListener('click', () => this.openEntry(entry));
    const buttons = row.createDiv({ cls: 'strata-history-buttons' });
    if (this.deleting === entry.id) {
      buttons.createSpan({ cls: 'strata-history-confirm-text', text: 'Move to trash?' });
      const confirm = buttons.createEl('button', { cls: 'mod-warning strata-history-confirm-delete', text: 'Move to trash' });
      const cancel = buttons.createEl('button', { cls: 'strata-history-cancel-delete', text: 'Cancel' });
      const stop = () => {
        this.deleting = null;
        this.renderList();
        this.refocus();
      };
      confirm.addEventListener('click', () => {
        this.deleting = null;
        // The row below takes the selection (or the one above, for the last row).
        const at = this.shown.findIndex((e) => e.id === entry.id);
        this.selectedId = (this.shown[at + 1] ?? this.shown[at - 1])?.id ?? null;
        void this.actions.remove(entry.id).then(
          () => this.reload().then(() => this.refocus()),
          (error: unknown) => new Notice(`Could not delete: ${error instanceof Error ? error.message : String(error)}`),
        );
      });
      cancel.addEventListener('click', stop);
      // Escape on the question cancels it, and leaves the modal open.
      buttons.addEventListener('keydown', (event) => {
        if (event.key !== 'Escape') return;
        event.preventDefault();
        event.stopPropagation();
        stop();
      });
      return;
    }
    if (this.actions.openInNewTab) {
      const tab = buttons.createEl('button', { cls: 'clickable-icon strata-history-new-tab', attr: { 'aria-label': 'Open in new tab' } });
      setIcon(tab, 'file-plus-2');
      tab.addEventListener('click', () => this.openInNewTab(entry));
    }
    if (this.actions.setFlags) {
      const pin = buttons.createEl('button', { cls: 'clickable-icon strata-history-pin', attr: { 'aria-label': entry.pinned ? 'Unpin' : 'Pin', 'aria-pressed': String(entry.pinned === true) } });
      setIcon(pin, entry.pinned ? 'pin-off' : 'pin');
      pin.addEventListener('click', () => this.toggleFlag(entry, 'pinned'));
      const archive = buttons.createEl('button', { cls: 'clickable-icon strata-history-archive', attr: { 'aria-label': entry.archived ? 'Unarchive' : 'Archive' } });
      setIcon(archive, entry.archived ? 'archive-restore' : 'archive');
      archive.addEventListener('click', () => this.toggleFlag(entry, 'archived'));
    }
    const rename = buttons.createEl('button', { cls: 'clickable-icon strata-history-rename', attr: { 'aria-label': 'Rename' } });
    setIcon(rename, 'pencil');
    rename.addEventListener('click', () => this.startRename(entry.id));
    const del = buttons.createEl('button', { cls: 'clickable-icon strata-history-delete', attr: { 'aria-label': 'Delete' } });
    setIcon(del, 'trash-2');
    del.addEventListener('click', () => this.askDelete(entry.id));
  }
}

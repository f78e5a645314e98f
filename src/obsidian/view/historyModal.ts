import { Modal, Notice, setIcon, type App } from 'obsidian';
import type { ChatListActions } from '../../core/chat/chatList';
import { fuzzyFilter } from '../../core/chat/fuzzy';
import type { ChatSummary } from '../../core/ports/chatArchive';

/** Saved chats: search, open, rename, delete (to the trash, through the chat store). */
export class HistoryModal extends Modal {
  private entries: ChatSummary[] = [];
  /** Full-text hits for the current query (null: filter titles locally). */
  private hits: ChatSummary[] | null = null;
  private searching: AbortController | null = null;
  /** While a search reads message bodies: how far it got. */
  private progress: string | null = null;
  private query = '';
  private listEl!: HTMLElement;
  private renaming: string | null = null;
  private deleting: string | null = null;

  constructor(
    app: App,
    private readonly actions: ChatListActions,
  ) {
    super(app);
  }

  onOpen(): void {
    this.modalEl.addClass('strata-history-modal');
    this.titleEl.setText('Chat history');
    const search = this.contentEl.createEl('input', {
      cls: 'strata-history-search',
      attr: { type: 'search', placeholder: 'Search chats', 'aria-label': 'Search chats' },
    });
    search.addEventListener('input', () => {
      this.query = search.value;
      void this.runSearch();
    });
    this.listEl = this.contentEl.createDiv({ cls: 'strata-history-list' });
    this.listEl.createDiv({ cls: 'strata-muted', text: 'Loading…' });
    void this.reload();
    search.focus();
  }

  onClose(): void {
    this.searching?.abort();
    this.contentEl.empty();
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
    if (this.progress) this.listEl.createDiv({ cls: 'strata-muted strata-history-progress', text: this.progress });
    const query = this.query.trim();
    const shown = !query
      ? this.entries
      : (this.hits ?? fuzzyFilter(query, this.entries.map((e) => ({ item: e, text: e.title })), 200));
    if (shown.length === 0 && !this.progress) {
      this.listEl.createDiv({ cls: 'strata-muted strata-history-empty', text: this.entries.length === 0 ? 'No saved chats yet.' : 'No chat matches.' });
      return;
    }
    for (const entry of shown) this.renderEntry(entry);
  }

  private renderEntry(entry: ChatSummary): void {
    const row = this.listEl.createDiv({ cls: 'strata-history-item', attr: { 'data-id': entry.id } });
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
      };
      input.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') {
          event.preventDefault();
          void commit();
        } else if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          this.renaming = null;
          this.renderList();
        }
      });
      const save = row.createEl('button', { cls: 'mod-cta strata-history-rename-save', text: 'Save' });
      save.addEventListener('click', () => void commit());
      window.setTimeout(() => input.select(), 0);
      return;
    }
    const main = row.createDiv({ cls: 'strata-history-main' });
    main.createDiv({ cls: 'strata-history-title', text: entry.title });
    main.createDiv({ cls: 'strata-history-date', text: new Date(entry.updated).toLocaleString() });
    main.addEventListener('click', () => {
      void this.actions.open(entry.id).then(
        () => this.close(),
        (error: unknown) => new Notice(`Could not open the chat: ${error instanceof Error ? error.message : String(error)}`),
      );
    });
    const buttons = row.createDiv({ cls: 'strata-history-buttons' });
    if (this.deleting === entry.id) {
      const confirm = buttons.createEl('button', { cls: 'mod-warning strata-history-confirm-delete', text: 'Move to trash' });
      const cancel = buttons.createEl('button', { text: 'Cancel' });
      confirm.addEventListener('click', () => {
        this.deleting = null;
        void this.actions.remove(entry.id).then(
          () => this.reload(),
          (error: unknown) => new Notice(`Could not delete: ${error instanceof Error ? error.message : String(error)}`),
        );
      });
      cancel.addEventListener('click', () => {
        this.deleting = null;
        this.renderList();
      });
      return;
    }
    const rename = buttons.createEl('button', { cls: 'clickable-icon strata-history-rename', attr: { 'aria-label': 'Rename' } });
    setIcon(rename, 'pencil');
    rename.addEventListener('click', () => {
      this.renaming = entry.id;
      this.renderList();
    });
    const del = buttons.createEl('button', { cls: 'clickable-icon strata-history-delete', attr: { 'aria-label': 'Delete' } });
    setIcon(del, 'trash-2');
    del.addEventListener('click', () => {
      this.deleting = entry.id;
      this.renderList();
    });
  }
}

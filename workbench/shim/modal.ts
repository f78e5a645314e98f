import type { App } from './app';
import { Scope } from './scope';
import { prepareFuzzySearch, renderResults, type FuzzyMatch } from './search';

/** Obsidian's Modal: a dimmed container with a close button, a title and a content element. */
export class Modal {
  app: App;
  scope: Scope;
  containerEl: HTMLElement;
  modalEl: HTMLElement;
  headerEl: HTMLElement;
  titleEl: HTMLElement;
  contentEl: HTMLElement;
  shouldRestoreSelection = false;
  private closeCallback: (() => unknown) | null = null;
  private isOpen = false;

  constructor(app: App) {
    this.app = app;
    this.scope = new Scope(app.scope);
    this.scope.register([], 'Escape', () => {
      this.close();
      return false;
    });
    this.containerEl = createDiv('modal-container mod-dim');
    const bg = this.containerEl.createDiv('modal-bg');
    bg.addEventListener('click', () => this.close());
    this.modalEl = this.containerEl.createDiv('modal');
    const close = this.modalEl.createDiv({ cls: 'modal-close-button', attr: { 'aria-label': 'Close' } });
    close.addEventListener('click', () => this.close());
    this.headerEl = this.modalEl.createDiv('modal-header');
    this.titleEl = this.headerEl.createDiv('modal-title');
    this.contentEl = this.modalEl.createDiv('modal-content');
  }

  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    document.body.appendChild(this.containerEl);
    this.app.keymap.pushScope(this.scope);
    void this.onOpen();
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.app.keymap.popScope(this.scope);
    this.containerEl.remove();
    this.onClose();
    this.closeCallback?.();
  }

  onOpen(): void | Promise<void> {}
  onClose(): void {}

  setTitle(title: string): this {
    this.titleEl.setText(title);
    return this;
  }

  setContent(content: string | DocumentFragment): this {
    this.contentEl.setText(content);
    return this;
  }

  setCloseCallback(callback: () => unknown): this {
    this.closeCallback = callback;
    return this;
  }
}

export interface Instruction {
  command: string;
  purpose: string;
}

/** Obsidian's SuggestModal: an input, a list of suggestions, arrow keys and Enter. */
export abstract class SuggestModal<T> extends Modal {
  limit = 100;
  emptyStateText = 'No results found.';
  inputEl: HTMLInputElement;
  resultContainerEl: HTMLElement;
  private instructionsEl: HTMLElement;
  private values: T[] = [];
  private items: HTMLElement[] = [];
  private selected = 0;
  private generation = 0;

  constructor(app: App) {
    super(app);
    this.modalEl.addClass('prompt');
    this.headerEl.remove();
    this.contentEl.remove();
    const inputContainer = this.modalEl.createDiv('prompt-input-container');
    this.inputEl = inputContainer.createEl('input', { cls: 'prompt-input', type: 'text', attr: { enterkeyhint: 'done' } });
    this.resultContainerEl = this.modalEl.createDiv('prompt-results');
    this.instructionsEl = this.modalEl.createDiv('prompt-instructions');
    this.inputEl.addEventListener('input', () => void this.updateSuggestions());
    this.scope.register([], 'ArrowDown', () => {
      this.select(this.selected + 1);
      return false;
    });
    this.scope.register([], 'ArrowUp', () => {
      this.select(this.selected - 1);
      return false;
    });
    this.scope.register(null, 'Enter', (evt) => {
      const value = this.values[this.selected];
      if (value !== undefined) this.selectSuggestion(value, evt);
      return false;
    });
  }

  setPlaceholder(placeholder: string): void {
    this.inputEl.placeholder = placeholder;
  }

  setInstructions(instructions: Instruction[]): void {
    this.instructionsEl.empty();
    for (const i of instructions) {
      const el = this.instructionsEl.createDiv('prompt-instruction');
      el.createSpan({ cls: 'prompt-instruction-command', text: i.command });
      el.createSpan({ text: i.purpose });
    }
  }

  override onOpen(): void {
    this.inputEl.focus();
    void this.updateSuggestions();
  }

  private select(index: number): void {
    if (!this.items.length) return;
    const n = (index + this.items.length) % this.items.length;
    this.items[this.selected]?.removeClass('is-selected');
    this.selected = n;
    this.items[n].addClass('is-selected');
    this.items[n].scrollIntoView({ block: 'nearest' });
  }

  async updateSuggestions(): Promise<void> {
    const generation = ++this.generation;
    const values = await this.getSuggestions(this.inputEl.value);
    if (generation !== this.generation) return;
    this.values = values.slice(0, this.limit > 0 ? this.limit : undefined);
    this.resultContainerEl.empty();
    this.items = [];
    this.selected = 0;
    if (!this.values.length) {
      this.resultContainerEl.createDiv({ cls: 'suggestion-empty', text: this.emptyStateText });
      this.onNoSuggestion();
      return;
    }
    this.values.forEach((value, i) => {
      const el = this.resultContainerEl.createDiv('suggestion-item');
      this.renderSuggestion(value, el);
      el.addEventListener('mousemove', () => this.select(i));
      el.addEventListener('click', (evt) => this.selectSuggestion(value, evt));
      this.items.push(el);
    });
    this.select(0);
  }

  selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
    this.close();
    void this.onChooseSuggestion(value, evt);
  }

  onNoSuggestion(): void {}

  abstract getSuggestions(query: string): T[] | Promise<T[]>;
  abstract renderSuggestion(value: T, el: HTMLElement): void;
  abstract onChooseSuggestion(item: T, evt: MouseEvent | KeyboardEvent): unknown;
}

/** Obsidian's FuzzySuggestModal: SuggestModal over getItems() with fuzzy matching and highlights. */
export abstract class FuzzySuggestModal<T> extends SuggestModal<FuzzyMatch<T>> {
  getSuggestions(query: string): FuzzyMatch<T>[] {
    const search = prepareFuzzySearch(query);
    const out: FuzzyMatch<T>[] = [];
    for (const item of this.getItems()) {
      const match = search(this.getItemText(item));
      if (match) out.push({ item, match });
    }
    if (query.trim()) out.sort((a, b) => b.match.score - a.match.score);
    return out;
  }

  renderSuggestion(value: FuzzyMatch<T>, el: HTMLElement): void {
    renderResults(el, this.getItemText(value.item), value.match);
  }

  onChooseSuggestion(item: FuzzyMatch<T>, evt: MouseEvent | KeyboardEvent): void {
    this.onChooseItem(item.item, evt);
  }

  abstract getItems(): T[];
  abstract getItemText(item: T): string;
  abstract onChooseItem(item: T, evt: MouseEvent | KeyboardEvent): void;
}

import type { App } from './app';
import { Scope } from './scope';

/** Obsidian's PopoverSuggest: a floating list of suggestions under an element. */
export abstract class PopoverSuggest<T> {
  app: App;
  scope: Scope;
  suggestEl: HTMLElement;
  protected values: T[] = [];
  protected itemEls: HTMLElement[] = [];
  protected selected = 0;
  protected isOpen = false;

  constructor(app: App, scope?: Scope) {
    this.app = app;
    this.scope = scope ?? new Scope();
    this.suggestEl = createDiv('suggestion-container');
    this.suggestEl.createDiv('suggestion');
  }

  open(): void {
    if (this.isOpen) return;
    this.isOpen = true;
    document.body.appendChild(this.suggestEl);
  }

  close(): void {
    if (!this.isOpen) return;
    this.isOpen = false;
    this.suggestEl.remove();
  }

  protected show(values: T[]): void {
    this.values = values;
    const list = this.suggestEl.querySelector<HTMLElement>('.suggestion') ?? this.suggestEl;
    list.empty();
    this.itemEls = values.map((value, i) => {
      const el = list.createDiv('suggestion-item');
      this.renderSuggestion(value, el);
      el.addEventListener('mousedown', (evt) => evt.preventDefault());
      el.addEventListener('mousemove', () => this.setSelected(i));
      el.addEventListener('click', (evt) => this.selectSuggestion(value, evt));
      return el;
    });
    this.setSelected(0);
  }

  protected setSelected(index: number): void {
    if (!this.itemEls.length) return;
    const n = (index + this.itemEls.length) % this.itemEls.length;
    this.itemEls[this.selected]?.removeClass('is-selected');
    this.selected = n;
    this.itemEls[n].addClass('is-selected');
  }

  abstract renderSuggestion(value: T, el: HTMLElement): void;
  abstract selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void;
}

/** Obsidian's AbstractInputSuggest: type-ahead for an input or a contenteditable div. */
export abstract class AbstractInputSuggest<T> extends PopoverSuggest<T> {
  limit = 100;
  private selectCb: ((value: T, evt: MouseEvent | KeyboardEvent) => unknown) | null = null;
  private generation = 0;

  constructor(app: App, private readonly textInputEl: HTMLInputElement | HTMLDivElement) {
    super(app);
    const el: HTMLElement = textInputEl;
    el.addEventListener('input', () => void this.refresh());
    el.addEventListener('focus', () => void this.refresh());
    el.addEventListener('blur', () => this.close());
    el.addEventListener('keydown', (evt: KeyboardEvent) => {
      if (!this.isOpen || !this.values.length) return;
      if (evt.key === 'ArrowDown' || evt.key === 'ArrowUp') {
        this.setSelected(this.selected + (evt.key === 'ArrowDown' ? 1 : -1));
        evt.preventDefault();
      } else if (evt.key === 'Enter') {
        const value = this.values[this.selected];
        if (value !== undefined) {
          evt.preventDefault();
          this.selectSuggestion(value, evt);
        }
      } else if (evt.key === 'Escape') {
        this.close();
        evt.preventDefault();
      }
    });
  }

  private async refresh(): Promise<void> {
    const generation = ++this.generation;
    const values = await this.getSuggestions(this.getValue());
    if (generation !== this.generation) return;
    if (!values.length) {
      this.close();
      return;
    }
    this.open();
    const rect = this.textInputEl.getBoundingClientRect();
    this.suggestEl.setCssStyles({ position: 'fixed', left: `${rect.left}px`, top: `${rect.bottom + 4}px`, minWidth: `${rect.width}px` });
    this.show(values.slice(0, this.limit > 0 ? this.limit : undefined));
  }

  setValue(value: string): void {
    if (this.textInputEl instanceof HTMLInputElement) this.textInputEl.value = value;
    else this.textInputEl.textContent = value;
  }

  getValue(): string {
    return this.textInputEl instanceof HTMLInputElement ? this.textInputEl.value : (this.textInputEl.textContent ?? '');
  }

  onSelect(callback: (value: T, evt: MouseEvent | KeyboardEvent) => unknown): this {
    this.selectCb = callback;
    return this;
  }

  selectSuggestion(value: T, evt: MouseEvent | KeyboardEvent): void {
    this.selectCb?.(value, evt);
    this.close();
  }

  protected abstract getSuggestions(query: string): T[] | Promise<T[]>;
}

import { Component } from './component';
import { setIcon } from './icons';

/** Obsidian's Menu and MenuItem: a context menu at the mouse or at a position. */
export class MenuItem {
  dom: HTMLElement;
  private readonly iconEl: HTMLElement;
  private readonly titleEl: HTMLElement;
  private clickCb: ((evt: MouseEvent | KeyboardEvent) => unknown) | null = null;
  disabled = false;
  isLabel = false;
  section = '';

  constructor(private readonly menu: Menu) {
    this.dom = createDiv({ cls: 'menu-item', attr: { tabindex: '-1' } });
    this.iconEl = this.dom.createDiv('menu-item-icon');
    this.titleEl = this.dom.createDiv('menu-item-title');
    this.dom.addEventListener('click', (evt) => this.handleEvent(evt));
    this.dom.addEventListener('mouseenter', () => this.menu.select(this));
  }
  /** Runs the item as a click or Enter does: disabled items and labels do nothing. */
  handleEvent(evt: MouseEvent | KeyboardEvent): void {
    if (this.disabled || this.isLabel) return;
    this.menu.hide();
    void this.clickCb?.(evt);
  }
  setTitle(title: string | DocumentFragment): this {
    this.titleEl.setText(title);
    return this;
  }
  setIcon(icon: string | null): this {
    this.iconEl.empty();
    if (icon) setIcon(this.iconEl, icon);
    return this;
  }
  setChecked(checked: boolean | null): this {
    this.dom.toggleClass('mod-checked', checked === true);
    return this;
  }
  setDisabled(disabled: boolean): this {
    this.disabled = disabled;
    this.dom.toggleClass('is-disabled', disabled);
    return this;
  }
  setWarning(isWarning: boolean): this {
    this.dom.toggleClass('is-warning', isWarning);
    return this;
  }
  setIsLabel(isLabel: boolean): this {
    this.isLabel = isLabel;
    this.dom.toggleClass('is-label', isLabel);
    return this;
  }
  setSection(section: string): this {
    this.section = section;
    this.dom.setAttr('data-section', section);
    return this;
  }
  onClick(callback: (evt: MouseEvent | KeyboardEvent) => unknown): this {
    this.clickCb = callback;
    return this;
  }
}

/**
 * Obsidian's Menu. As in Obsidian, items and separators are added before it is shown, it closes on
 * a click outside or Escape, and the arrow keys move a highlight over the enabled items (Enter runs one).
 */
export class Menu extends Component {
  dom: HTMLElement;
  private readonly items: MenuItem[] = [];
  private selected = -1;
  /** Set by setParentElement (Obsidian uses it for a native menu's owner; the DOM menu ignores it). */
  parentEl: HTMLElement | null = null;
  private hideCb: (() => unknown) | null = null;
  private readonly outside = (evt: MouseEvent): void => {
    if (!this.dom.contains(evt.target as Node)) this.hide();
  };
  private readonly keys = (evt: KeyboardEvent): void => this.onKey(evt);

  constructor() {
    super();
    this.dom = createDiv('menu');
  }
  /** A menu for a mouse event (the workbench has no native menus: always a DOM menu). */
  static forEvent(_evt: PointerEvent | MouseEvent): Menu {
    return new Menu();
  }
  setNoIcon(): this {
    this.dom.addClass('mod-no-icon');
    return this;
  }
  setUseNativeMenu(_useNativeMenu: boolean): this {
    return this;
  }
  setParentElement(el: HTMLElement): this {
    this.parentEl = el;
    return this;
  }
  addItem(cb: (item: MenuItem) => unknown): this {
    const item = new MenuItem(this);
    cb(item);
    this.items.push(item);
    this.dom.appendChild(item.dom);
    return this;
  }
  addSeparator(): this {
    this.dom.createDiv('menu-separator');
    return this;
  }
  /** Not Obsidian API: the items, for the workbench's tests. */
  get menuItems(): readonly MenuItem[] {
    return this.items;
  }
  showAtMouseEvent(evt: MouseEvent): this {
    return this.showAtPosition({ x: evt.clientX, y: evt.clientY });
  }
  showAtPosition(position: { x: number; y: number; width?: number; overlap?: boolean; left?: boolean }, doc: Document = document): this {
    this.dom.setCssStyles({ position: 'fixed', left: `${position.x}px`, top: `${position.y}px` });
    doc.body.appendChild(this.dom);
    // Kept inside the window, as Obsidian places it.
    const rect = this.dom.getBoundingClientRect();
    const view = doc.defaultView ?? window;
    if (rect.right > view.innerWidth) this.dom.style.left = `${Math.max(0, view.innerWidth - rect.width - 4)}px`;
    if (rect.bottom > view.innerHeight) this.dom.style.top = `${Math.max(0, position.y - rect.height)}px`;
    this.load();
    window.setTimeout(() => document.addEventListener('mousedown', this.outside), 0);
    document.addEventListener('keydown', this.keys, true);
    return this;
  }
  hide(): this {
    document.removeEventListener('mousedown', this.outside);
    document.removeEventListener('keydown', this.keys, true);
    if (this.dom.isConnected) {
      this.dom.remove();
      this.unload();
      this.hideCb?.();
    }
    return this;
  }
  close(): void {
    this.hide();
  }
  onHide(callback: () => unknown): void {
    this.hideCb = callback;
  }

  /** Not Obsidian API: highlights an item (the mouse over it, or the arrow keys). */
  select(item: MenuItem | null): void {
    this.selected = item ? this.items.indexOf(item) : -1;
    for (const [i, it] of this.items.entries()) it.dom.toggleClass('selected', i === this.selected);
  }

  private onKey(evt: KeyboardEvent): void {
    const usable = this.items.filter((it) => !it.disabled && !it.isLabel);
    if (evt.key === 'Escape') {
      evt.preventDefault();
      evt.stopPropagation();
      this.hide();
    } else if ((evt.key === 'ArrowDown' || evt.key === 'ArrowUp') && usable.length > 0) {
      evt.preventDefault();
      evt.stopPropagation();
      const at = usable.indexOf(this.items[this.selected]);
      const next = at < 0 ? (evt.key === 'ArrowDown' ? 0 : usable.length - 1) : (at + (evt.key === 'ArrowDown' ? 1 : usable.length - 1)) % usable.length;
      this.select(usable[next]);
    } else if (evt.key === 'Enter' && this.selected >= 0) {
      evt.preventDefault();
      evt.stopPropagation();
      this.items[this.selected].handleEvent(evt);
    }
  }
}

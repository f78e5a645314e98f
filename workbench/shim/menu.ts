import { Component } from './component';
import { setIcon } from './icons';

/** Obsidian's Menu and MenuItem: a context menu at the mouse or at a position. */
export class MenuItem {
  dom: HTMLElement;
  private readonly iconEl: HTMLElement;
  private readonly titleEl: HTMLElement;
  private clickCb: ((evt: MouseEvent | KeyboardEvent) => unknown) | null = null;
  disabled = false;

  constructor(private readonly menu: Menu) {
    this.dom = createDiv({ cls: 'menu-item', attr: { tabindex: '-1' } });
    this.iconEl = this.dom.createDiv('menu-item-icon');
    this.titleEl = this.dom.createDiv('menu-item-title');
    this.dom.addEventListener('click', (evt) => {
      if (this.disabled) return;
      this.menu.hide();
      void this.clickCb?.(evt);
    });
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
    this.dom.toggleClass('is-label', isLabel);
    return this;
  }
  setSection(_section: string): this {
    return this;
  }
  onClick(callback: (evt: MouseEvent | KeyboardEvent) => unknown): this {
    this.clickCb = callback;
    return this;
  }
}

export class Menu extends Component {
  dom: HTMLElement;
  private hideCb: (() => unknown) | null = null;
  private readonly outside = (evt: MouseEvent): void => {
    if (!this.dom.contains(evt.target as Node)) this.hide();
  };

  constructor() {
    super();
    this.dom = createDiv('menu');
  }
  setNoIcon(): this {
    return this;
  }
  setUseNativeMenu(_useNativeMenu: boolean): this {
    return this;
  }
  addItem(cb: (item: MenuItem) => unknown): this {
    const item = new MenuItem(this);
    cb(item);
    this.dom.appendChild(item.dom);
    return this;
  }
  addSeparator(): this {
    this.dom.createDiv('menu-separator');
    return this;
  }
  showAtMouseEvent(evt: MouseEvent): this {
    return this.showAtPosition({ x: evt.clientX, y: evt.clientY });
  }
  showAtPosition(position: { x: number; y: number }): this {
    this.dom.setCssStyles({ position: 'fixed', left: `${position.x}px`, top: `${position.y}px` });
    document.body.appendChild(this.dom);
    this.load();
    window.setTimeout(() => document.addEventListener('mousedown', this.outside), 0);
    return this;
  }
  hide(): this {
    document.removeEventListener('mousedown', this.outside);
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
}

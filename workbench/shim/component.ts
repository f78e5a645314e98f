import type { EventRef } from './events';

/** Obsidian's `Component`: a lifecycle with children and registered clean-ups. */
export class Component {
  _loaded = false;
  private cleanups: (() => unknown)[] = [];
  private children: Component[] = [];

  load(): void {
    if (this._loaded) return;
    this._loaded = true;
    void this.onload();
    for (const child of [...this.children]) child.load();
  }

  onload(): void | Promise<void> {}

  unload(): void {
    if (!this._loaded) return;
    this._loaded = false;
    while (this.children.length) this.children.pop()?.unload();
    while (this.cleanups.length) {
      try {
        this.cleanups.pop()?.();
      } catch (e) {
        console.error(e);
      }
    }
    this.onunload();
  }

  onunload(): void {}

  addChild<T extends Component>(component: T): T {
    this.children.push(component);
    if (this._loaded) component.load();
    return component;
  }

  removeChild<T extends Component>(component: T): T {
    const i = this.children.indexOf(component);
    if (i >= 0) {
      this.children.splice(i, 1);
      component.unload();
    }
    return component;
  }

  register(cb: () => unknown): void {
    this.cleanups.push(cb);
  }

  registerEvent(eventRef: EventRef): void {
    this.register(() => eventRef.e.offref(eventRef));
  }

  registerDomEvent(el: EventTarget, type: string, callback: (ev: Event) => unknown, options?: boolean | AddEventListenerOptions): void {
    el.addEventListener(type, callback, options);
    this.register(() => el.removeEventListener(type, callback, options));
  }

  registerScopeEvent(): void {}

  registerInterval(id: number): number {
    this.register(() => window.clearInterval(id));
    return id;
  }
}

/** Obsidian's Scope and Keymap: keyboard handlers stacked by modal, top scope first. */
export type Modifier = 'Mod' | 'Ctrl' | 'Meta' | 'Shift' | 'Alt';

export interface KeymapEventHandler {
  scope: Scope;
  modifiers: string | null;
  key: string | null;
  func: (evt: KeyboardEvent, ctx: { modifiers: string | null; key: string | null; vkey: string }) => unknown;
}

export class Scope {
  readonly keys: KeymapEventHandler[] = [];
  constructor(readonly parent?: Scope) {}

  register(modifiers: Modifier[] | null, key: string | null, func: KeymapEventHandler['func']): KeymapEventHandler {
    const handler: KeymapEventHandler = { scope: this, modifiers: modifiers ? modifiers.join(',') : null, key, func };
    this.keys.push(handler);
    return handler;
  }

  unregister(handler: KeymapEventHandler): void {
    this.keys.remove(handler);
  }

  /** Returns true when a handler took the event. */
  handle(evt: KeyboardEvent): boolean {
    for (const h of this.keys) {
      if (h.key !== null && h.key.toLowerCase() !== evt.key.toLowerCase()) continue;
      if (h.modifiers !== null && h.modifiers !== modifiersOf(evt)) continue;
      if (h.func(evt, { modifiers: modifiersOf(evt), key: evt.key, vkey: evt.key }) === false) {
        evt.preventDefault();
        return true;
      }
      return true;
    }
    return this.parent ? this.parent.handle(evt) : false;
  }
}

function modifiersOf(evt: KeyboardEvent): string {
  const m: string[] = [];
  if (evt.ctrlKey || evt.metaKey) m.push('Mod');
  if (evt.shiftKey) m.push('Shift');
  if (evt.altKey) m.push('Alt');
  return m.join(',');
}

export class Keymap {
  private readonly stack: Scope[] = [];

  pushScope(scope: Scope): void {
    this.stack.push(scope);
  }

  popScope(scope: Scope): void {
    this.stack.remove(scope);
  }

  /** Dispatches a keydown to the top scope (the open modal), as Obsidian does. */
  handle(evt: KeyboardEvent): boolean {
    const top = this.stack[this.stack.length - 1];
    return top ? top.handle(evt) : false;
  }

  static isModEvent(evt?: UIEvent | null): boolean | 'tab' | 'split' | 'window' {
    if (!evt || !('ctrlKey' in evt)) return false;
    const e = evt as MouseEvent | KeyboardEvent;
    if ((e.ctrlKey || e.metaKey) && e.altKey && e.shiftKey) return 'window';
    if ((e.ctrlKey || e.metaKey) && e.altKey) return 'split';
    if (e.ctrlKey || e.metaKey) return 'tab';
    return false;
  }

  static isModifier(evt: MouseEvent | TouchEvent | KeyboardEvent, modifier: Modifier): boolean {
    const e = evt as KeyboardEvent;
    switch (modifier) {
      case 'Mod':
        return e.ctrlKey || e.metaKey;
      case 'Ctrl':
        return e.ctrlKey;
      case 'Meta':
        return e.metaKey;
      case 'Shift':
        return e.shiftKey;
      case 'Alt':
        return e.altKey;
    }
  }
}

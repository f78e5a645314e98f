/** Obsidian's `Events` and `EventRef`: named callbacks with a context, removable by reference. */
export interface EventRef {
  e: Events;
  name: string;
  fn: (...data: unknown[]) => unknown;
  ctx?: unknown;
}

export class Events {
  private handlers = new Map<string, EventRef[]>();

  on(name: string, callback: (...data: unknown[]) => unknown, ctx?: unknown): EventRef {
    const ref: EventRef = { e: this, name, fn: callback, ctx };
    const list = this.handlers.get(name) ?? [];
    list.push(ref);
    this.handlers.set(name, list);
    return ref;
  }

  off(name: string, callback: (...data: unknown[]) => unknown): void {
    const list = this.handlers.get(name);
    if (list) this.handlers.set(name, list.filter((r) => r.fn !== callback));
  }

  offref(ref: EventRef): void {
    const list = this.handlers.get(ref.name);
    if (list) this.handlers.set(ref.name, list.filter((r) => r !== ref));
  }

  trigger(name: string, ...data: unknown[]): void {
    for (const ref of [...(this.handlers.get(name) ?? [])]) this.tryTrigger(ref, data);
  }

  /** Not Obsidian API: how many handlers are registered, so tests can see what unload leaves behind. */
  _handlerCount(): number {
    let n = 0;
    for (const list of this.handlers.values()) n += list.length;
    return n;
  }

  tryTrigger(evt: EventRef, args: unknown[]): void {
    try {
      evt.fn.apply(evt.ctx, args);
    } catch (e) {
      // Obsidian logs and carries on, so one faulty handler does not break the others.
      console.error(e);
    }
  }
}

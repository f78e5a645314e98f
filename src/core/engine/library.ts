import type { LibraryItem } from './types';

/**
 * The Context Library: every item version sent in this conversation, in the order it entered.
 * Cumulative: it only shrinks when the user removes an item or on a deliberate compaction.
 */
export class ContextLibrary {
  private items: LibraryItem[] = [];
  private latestById = new Map<string, LibraryItem>();
  /** latest() and latestVersions() as of the last change: asked several times a turn, changed by add/remove/compact only. */
  private views: { latest?: readonly LibraryItem[]; versions?: ReadonlyMap<string, LibraryItem> } = {};

  constructor(items: readonly LibraryItem[] = []) {
    for (const item of items) this.add(item);
  }

  /** Every version, in entry order. */
  all(): readonly LibraryItem[] {
    return this.items;
  }

  /** The latest version of each id, in order of the id's first appearance (the same array until the library changes). */
  latest(): readonly LibraryItem[] {
    return (this.views.latest ??= [...this.latestVersions().values()]);
  }

  /** The same as latest(), keyed by id (iteration keeps first-appearance order). */
  latestVersions(): ReadonlyMap<string, LibraryItem> {
    if (this.views.versions) return this.views.versions;
    const out = new Map<string, LibraryItem>();
    for (const item of this.items) if (!out.has(item.id)) out.set(item.id, this.latestById.get(item.id) as LibraryItem);
    this.views.versions = out;
    return out;
  }

  get(id: string): LibraryItem | undefined {
    return this.latestById.get(id);
  }

  has(id: string): boolean {
    return this.latestById.has(id);
  }

  get size(): number {
    return this.latestById.size;
  }

  add(item: LibraryItem): void {
    const latest = this.latestById.get(item.id);
    if (latest && item.version <= latest.version) {
      throw new Error(`library already holds ${item.id} version ${latest.version}; cannot add version ${item.version}`);
    }
    this.items.push(item);
    this.latestById.set(item.id, item);
    this.views = {};
  }

  /** Remove every version of an id. Returns whether anything was removed. */
  remove(id: string): boolean {
    if (!this.latestById.has(id)) return false;
    this.items = this.items.filter((item) => item.id !== id);
    this.latestById.delete(id);
    this.views = {};
    return true;
  }

  /** Drop superseded versions, keeping each id's latest where it entered. Returns how many were dropped. */
  compact(): number {
    const before = this.items.length;
    this.items = this.items.filter((item) => this.latestById.get(item.id) === item);
    this.views = {};
    return before - this.items.length;
  }

  clone(): ContextLibrary {
    return new ContextLibrary(this.items);
  }
}

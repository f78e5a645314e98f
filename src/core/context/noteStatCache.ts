import type { ContextItem } from './items';
import type { NoteStat, VaultReader } from '../ports/vault';

/** A note as last read: the vault's modification time and size taken just before the read, and what it gave. */
interface Seen {
  readonly mtime: number;
  readonly size: number;
  readonly item: ContextItem;
}

/**
 * Library notes as last read, by path, so a turn reads again only the notes whose modification time
 * or size the vault reports changed: a turn's cost does not grow with the library. The stat is taken
 * before the read, so a note edited in between is read again next time rather than missed. A host
 * without `stat` (or a failing one), a note gone, or one that did not read (binary, unreadable) is
 * read every time, as before.
 *
 * Why stat and no change events: in Obsidian a stat is a lookup in memory (TFile.stat), cheaper than
 * keeping a subscription right across reloads and renames; and a missed event would leave a note
 * stale for good, where a stat is asked every turn.
 */
export class NoteStatCache {
  private seen = new Map<string, Seen>();

  /** The note at `path` now: the item last read when its stat is unchanged, else `read()`. */
  async current(vault: VaultReader, path: string, read: () => Promise<ContextItem | null>): Promise<ContextItem | null> {
    const stat = await statOf(vault, path);
    const known = this.seen.get(path);
    if (stat && known && known.mtime === stat.mtime && known.size === stat.size) return known.item;
    const item = await read();
    if (stat && item) this.seen.set(path, { mtime: stat.mtime, size: stat.size, item });
    else this.seen.delete(path);
    return item;
  }

  /** Forget every path but these (the library just checked): memory stays the size of one library. */
  keepOnly(paths: ReadonlySet<string>): void {
    if ([...this.seen.keys()].every((p) => paths.has(p))) return;
    this.seen = new Map([...this.seen].filter(([p]) => paths.has(p)));
  }
}

/** The vault's stat, or null when it has none to give (no stat on this host, no file, or an error). */
async function statOf(vault: VaultReader, path: string): Promise<NoteStat | null> {
  if (!vault.stat) return null;
  try {
    return await vault.stat(path);
  } catch {
    return null;
  }
}

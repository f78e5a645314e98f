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
    return this.unchanged(path, stat) ?? this.reread(path, stat, read);
  }

  /**
   * The notes at `paths` now, as `current` gives them: every stat is asked at once (a lookup in
   * memory in Obsidian, no file opened on disk), then only the changed notes are read, `concurrency`
   * at a time. A turn over a library of 700 notes costs one round of stats, not 44 rounds of 16.
   */
  async currentAll(vault: VaultReader, paths: readonly string[], read: (path: string) => Promise<ContextItem | null>, concurrency: number): Promise<(ContextItem | null)[]> {
    const stats = await statsOf(vault, paths);
    const out: (ContextItem | null | undefined)[] = paths.map((p, i) => this.unchanged(p, stats[i]));
    const changed = out.flatMap((item, i) => (item === undefined ? [i] : []));
    for (let k = 0; k < changed.length; k += concurrency) {
      const batch = changed.slice(k, k + concurrency);
      const items = await Promise.all(batch.map((i) => this.reread(paths[i], stats[i], () => read(paths[i]))));
      batch.forEach((i, j) => (out[i] = items[j]));
    }
    return out.map((item) => item ?? null);
  }

  /**
   * The item last read at `path` when the host has its stat in memory and it is unchanged, at once
   * (no await: a reopen checks a library of 700 notes in one pass); undefined otherwise, for `current`.
   */
  known(vault: VaultReader, path: string): ContextItem | undefined {
    const stat = statNowOf(vault, path);
    return stat === undefined ? undefined : this.unchanged(path, stat);
  }

  private unchanged(path: string, stat: NoteStat | null): ContextItem | undefined {
    const known = this.seen.get(path);
    return stat && known && known.mtime === stat.mtime && known.size === stat.size ? known.item : undefined;
  }

  private async reread(path: string, stat: NoteStat | null, read: () => Promise<ContextItem | null>): Promise<ContextItem | null> {
    const item = await read();
    if (stat && item) this.seen.set(path, { mtime: stat.mtime, size: stat.size, item });
    else this.seen.delete(path);
    return item;
  }

  /** Forget every path but these (the library just checked): memory stays the size of one library. */
  keepOnly(paths: ReadonlySet<string>): void {
    // Usually every path kept is among them (a library only grows between removals): nothing to drop.
    let all = true;
    for (const p of this.seen.keys()) if (!paths.has(p)) all = false;
    if (all) return;
    this.seen = new Map([...this.seen].filter(([p]) => paths.has(p)));
  }
}

/** Every path's stat: from the host's memory where it has them, the rest asked at once. */
async function statsOf(vault: VaultReader, paths: readonly string[]): Promise<(NoteStat | null)[]> {
  const known: (NoteStat | null)[] = [];
  const asked: Promise<void>[] = [];
  paths.forEach((p, i) => {
    const now = statNowOf(vault, p);
    if (now !== undefined) known[i] = now;
    else asked.push(statOf(vault, p).then((stat) => void (known[i] = stat)));
  });
  if (asked.length > 0) await Promise.all(asked);
  return known;
}

function statNowOf(vault: VaultReader, path: string): NoteStat | null | undefined {
  if (!vault.statNow) return undefined;
  try {
    return vault.statNow(path);
  } catch {
    return null;
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

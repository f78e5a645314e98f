import type { ContextItem } from './items';
import type { ChipResolver } from './resolver';

/** A library note as the freshness check needs it: its library id and where it is now. */
export interface LibraryNote {
  readonly id: string;
  readonly source: string;
}

/**
 * A resolver step before assembly: re-read the library's notes that were not attached this turn, so
 * the freshness policy can tell edited or deleted ones. Keyed by library id (a moved note keeps its
 * id); null means the note is gone.
 */
export async function reReadLibraryNotes(
  resolver: ChipResolver,
  notes: readonly LibraryNote[],
  attached: readonly ContextItem[],
): Promise<Map<string, ContextItem | null>> {
  const attachedIds = new Set(attached.map((i) => i.id));
  const current = new Map<string, ContextItem | null>();
  for (const { id, source } of notes) {
    if (attachedIds.has(id)) continue;
    const { items } = await resolver.resolve([{ kind: 'note', path: source }]);
    current.set(id, items[0] ? { ...items[0], id } : null);
  }
  return current;
}

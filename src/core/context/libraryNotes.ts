import type { ContextItem, ItemKind } from './items';
import type { ChipResolver } from './resolver';
import { madeOnce } from '../memo';
import { isPdfPath } from './pdf/pdfContent';

/** A library note as the freshness check needs it: its library id and where it is now. */
export interface LibraryNote {
  readonly id: string;
  readonly source: string;
  /** A canvas is read as a canvas; a Dataview block is run again every turn (its result follows other notes). */
  readonly kind?: ItemKind;
}

/** The paths of a library's notes (the engine hands the same list until the library changes). */
const sources = new WeakMap<readonly LibraryNote[], ReadonlySet<string>>();

function sourcesOf(notes: readonly LibraryNote[]): ReadonlySet<string> {
  return madeOnce(sources, notes, (list) => new Set(list.map((n) => n.source)));
}

/** Changed notes read at once: a few files open at a time. */
const CONCURRENCY = 16;

/**
 * A resolver step before assembly: the library's notes that were not attached this turn, as they
 * are now, so the freshness policy can tell edited or deleted ones. Keyed by library id (a moved note
 * keeps its id); null means the note is gone. Only notes the vault reports changed are read again
 * (the resolver's NoteStatCache): the same answers as reading them all.
 */
export async function reReadLibraryNotes(
  resolver: ChipResolver,
  notes: readonly LibraryNote[],
  attached: readonly ContextItem[],
): Promise<Map<string, ContextItem | null>> {
  const attachedIds = new Set(attached.map((i) => i.id));
  const toCheck = notes.filter((n) => !attachedIds.has(n.id) && n.kind !== 'dataview');
  const kindOf = new Map(toCheck.map((n) => [n.source, n.kind]));
  // A PDF or a canvas in the library is re-read as what it is (its text cached by its stat, like a note's).
  const chipOf = (source: string) =>
    kindOf.get(source) === 'canvas' ? ({ kind: 'canvas', path: source } as const) : isPdfPath(source) ? ({ kind: 'pdf', path: source } as const) : ({ kind: 'note', path: source } as const);
  const read = async (source: string) => (await resolver.resolve([chipOf(source)])).items[0] ?? null;
  const found = await resolver.seen.currentAll(
    resolver.vault,
    toCheck.map((n) => n.source),
    read,
    CONCURRENCY,
  );
  const current = new Map<string, ContextItem | null>();
  toCheck.forEach(({ id }, i) => {
    const item = found[i];
    current.set(id, item ? (item.id === id ? item : { ...item, id }) : null);
  });
  // Dataview blocks skip the stat cache: a query's result changes when other notes do.
  for (const n of notes) {
    if (n.kind === 'dataview' && !attachedIds.has(n.id)) current.set(n.id, await resolver.dataviewItem(n.id, n.source));
  }
  resolver.seen.keepOnly(sourcesOf(notes));
  return current;
}

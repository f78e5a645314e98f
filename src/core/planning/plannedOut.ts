import type { ContextItem } from '../context/items';
import type { ChipResolver } from '../context/resolver';
import { overrideOf } from './book';
import { isCanvasPath } from '../context/canvas/canvasFile';
import { type PlanBook } from '../conversation/records/plan';
import { isPdfPath } from '../context/pdf/pdfContent';

/** Notes checked at once (as the library's re-read does). */
const CONCURRENCY = 16;

/**
 * The notes a plan left out (not the ones the user excluded), as they are now: a later question may
 * be about them, and their sections then go with that turn (supplements.ts) without touching the
 * prefix, since they were never sent. Only notes the vault reports changed are read again (the
 * resolver's planned-out stat cache); a note gone or unreadable is simply not offered.
 */
export async function readPlannedOut(resolver: ChipResolver, book: PlanBook | undefined): Promise<Map<string, ContextItem>> {
  const ids = plannedOutIds(book);
  const found = new Map<string, ContextItem>();
  for (let i = 0; i < ids.length; i += CONCURRENCY) {
    const batch = ids.slice(i, i + CONCURRENCY);
    const items = await Promise.all(
      batch.map((path) => resolver.plannedOut.current(resolver.vault, path, async () => (await resolver.resolve([isCanvasPath(path) ? { kind: 'canvas', path } : isPdfPath(path) ? { kind: 'pdf', path } : { kind: 'note', path }])).items[0] ?? null)),
    );
    batch.forEach((id, k) => {
      const item = items[k];
      if (item) found.set(id, { ...item, id });
    });
  }
  resolver.plannedOut.keepOnly(new Set(ids));
  return found;
}

/** Ids of the notes (and PDFs) the planner (or its fallback) excluded, in decision order; the user's exclusions stay out. */
export function plannedOutIds(book: PlanBook | undefined): string[] {
  return (book?.decisions ?? []).filter((d) => d.strategy === 'exclude' && d.by !== 'user' && (d.type === 'note' || d.type === 'pdf' || d.type === 'canvas') && overrideOf(book, d.id) !== 'exclude').map((d) => d.id);
}

import type { RelatedRun } from '../search/related';
import { int, ms, table } from './format';

/** The related-notes figure (issue 33): a note switch's cost on a generated vault, beside the target. */
export function relatedSection(r: RelatedRun): string {
  return [
    `Related notes: the related-notes view's lookup on each note switch (\`src/core/search/relatedNotes.ts\`: the note's telling words as a query, its links, no embeddings), ` +
      `for ${int(r.switches)} notes in turn of a generated ${int(r.notes)}-note vault indexed by VaultIndex; the note's text is given, as the view has it from Obsidian's cache. Target (issue 33): ≤ ${r.targetMs} ms per switch.`,
    '',
    table(
      ['notes', 'index build', 'switches', 'median', 'p95', 'max', 'CPU median', 'CPU p95', 'target', 'listed / switch', 'of them linked'],
      [[int(r.notes), ms(r.buildMs), int(r.switches), ms(r.medianMs), ms(r.p95Ms), ms(r.maxMs), ms(r.cpuMedianMs), ms(r.cpuP95Ms), `≤ ${r.targetMs} ms`, r.listed.toFixed(1), r.linked.toFixed(1)]],
    ),
    '',
  ].join('\n');
}

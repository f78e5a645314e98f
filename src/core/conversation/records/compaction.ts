import type { CompactionKind } from '../../engine/compaction';
import type { Usage } from '../../usage';

/* A compaction as the chat keeps it; src/core/budget (condense.ts) makes it and re-exports these names. */

export const COMPACTION_TRIGGERS = ['auto', 'manual'] as const;
export type CompactionTrigger = (typeof COMPACTION_TRIGGERS)[number];

/** One compaction as the chat records it (the inspector prints it; the chat note saves it). */
export interface CompactionEvent {
  readonly trigger: CompactionTrigger;
  /** Turns 1..through are condensed; previous+1..through were dropped by this one. */
  readonly through: number;
  readonly previous: number;
  readonly kind: CompactionKind;
  readonly turnsDropped: number;
  readonly outputsMasked: number;
  /** Earlier tool outputs of the kept turns sent shorter (a digest, a summary, left out). Absent: none. */
  readonly outputsShortened?: number;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  /** The summarizing calls, when a model wrote the summary. */
  readonly summary: { readonly provider: string; readonly model: string; readonly usage: Usage; readonly calls: number } | null;
  /** Why the turns were omitted instead of summarized (summaries off, the model failed…). */
  readonly fallback?: string;
  /** The library condensing made in the same break (issue 27): items condensed, of them as summaries, the block listed by path. */
  readonly library?: { readonly condensed: number; readonly summaries: number; readonly rewritten: boolean };
}

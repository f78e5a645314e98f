import { escapeAttr, escapeContent } from './escape';
import type { MaskingLimits } from './masking';
import type { ToolForm } from './toolForms';
import { closeTag, openTag } from './wrappers';

export const COMPACTION_KINDS = ['summary', 'omitted'] as const;
export type CompactionKind = (typeof COMPACTION_KINDS)[number];

/**
 * A compaction as the engine renders it: turns 1..`through` are replaced by `text` (an LLM summary,
 * or an omission marker when summarizing was off or failed); the turns after it stay verbatim, those
 * up to `maskedThrough` with their large tool outputs and code blocks masked. Only the latest
 * compaction matters for rendering: each one summarizes the previous summary and the turns it drops.
 */
export interface Compaction {
  readonly through: number;
  readonly kind: CompactionKind;
  readonly text: string;
  readonly maskedThrough: number;
  readonly masking: MaskingLimits;
  /** Kept turns' tool outputs sent in a shorter form (toolForms.ts), decided at this compaction. Absent: none. */
  readonly toolForms?: readonly ToolForm[];
}

/** The summary block, first in the first user message after the boundary. Depends on the compaction alone. */
export function renderCompaction(c: Compaction): string {
  const range = c.through === 1 ? 'turn 1' : `turns 1-${c.through}`;
  const lead =
    c.kind === 'summary'
      ? `The conversation before this point (${range}) was condensed to save room. Summary:`
      : `The conversation before this point (${range}) was condensed to save room; what could not be summarized is marked as omitted:`;
  const body = escapeContent(c.text);
  return `${openTag('conversation_summary', [`turns="${escapeAttr(String(c.through))}"`, `kind="${c.kind}"`])}\n${lead}\n${body}${body.endsWith('\n') ? '' : '\n'}${closeTag('conversation_summary')}`;
}

/** Turns kept verbatim (after the boundary) — all of them without a compaction. */
export function isKept(turn: number, c: Compaction | null): boolean {
  return c === null || turn > c.through;
}

/** A compaction without the tool forms of turns past `keep` (turns a truncation dropped). */
export function withoutFormsPast(c: Compaction, keep: number): Compaction {
  if (!c.toolForms || c.toolForms.every((f) => f.turn <= keep)) return c;
  const forms = c.toolForms.filter((f) => f.turn <= keep);
  const { toolForms: _dropped, ...rest } = c;
  return forms.length > 0 ? { ...rest, toolForms: forms } : rest;
}

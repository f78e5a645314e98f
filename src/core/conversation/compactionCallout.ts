import type { CompactionKind } from '../engine/compaction';
import type { ChatTurn, CompactionRecord } from './model';
import { decodeQuoted, encodeQuoted } from './textBlock';

/**
 * A compaction in the chat note body: its text (the summary, or the omission marker) as a folded
 * callout at its boundary, right before the first message after the turns it condensed, so the note
 * reads as the model sees the chat: the summary, then the messages kept. A strata callout type (not
 * Obsidian's own `[!summary]`, which a user may paste into a message) keeps it a structure line that
 * no message text can forge. The text is quoted line by line, escaped as messages are (textBlock).
 */

/** The callout type: `> [!strata-summary]- Condensed: turns 1–40 summarized`. */
export const SUMMARY_CALLOUT = 'summary';

export function turnRange(through: number): string {
  return through === 1 ? 'turn 1' : `turns 1–${through}`;
}

export function compactionTitle(through: number, kind: CompactionKind): string {
  return `Condensed: ${turnRange(through)} ${kind === 'summary' ? 'summarized' : 'omitted'}`;
}

export function encodeCompactionCallout(record: CompactionRecord): string {
  return `> [!strata-${SUMMARY_CALLOUT}]- ${compactionTitle(record.through, record.kind)}\n${encodeQuoted(record.text)}\n\n`;
}

/**
 * Where each compaction's callout goes, as the index of the turn it precedes: right after the
 * `through`-th answered turn (turns.length: at the end, for a compaction made after the last message).
 */
export function calloutPositions(turns: readonly ChatTurn[], compactions: readonly CompactionRecord[]): number[] {
  const after: number[] = [0];
  turns.forEach((t, i) => {
    if (t.status === 'complete') after.push(i + 1);
  });
  return compactions.map((c) => after[c.through] ?? turns.length);
}

/** A compaction callout as read from the body: where it stood (the index of the message after it), its title and text. */
export interface BodyCompaction {
  readonly position: number;
  readonly title: string;
  readonly text: string;
  readonly warning?: string;
}

/** The callout's header line and its quoted lines (`> ` already taken off). */
export function readCompactionCallout(header: string, inside: readonly string[], position: number): BodyCompaction {
  const title = header.replace(/^>[ \t]*\[![a-z-]+\][+-]?[ \t]*/i, '');
  const decoded = decodeQuoted(inside);
  return { position, title, text: decoded.text, ...(decoded.warning ? { warning: `a summary callout: ${decoded.warning}` } : {}) };
}

/** The boundary and kind a callout's title names, when it reads as written. */
export function readCompactionTitle(title: string): { through: number; kind: CompactionKind } | null {
  const m = /^Condensed: turns? (?:1[–-])?(\d+) (summarized|omitted)\b/.exec(title.trim());
  if (!m) return null;
  return { through: Number(m[1]), kind: m[2] === 'summarized' ? 'summary' : 'omitted' };
}

import type { Hunk } from '../../core/edits/proposal';
import { wordMarks, type WordPart } from '../../core/edits/lineDiff';

/** Lines of unchanged text shown around a hunk, so the reader sees where it goes. */
const CONTEXT_LINES = 1;

/** Past this, a line pair is shown without word marks (the word diff of two long lines costs too much for the main thread). */
const MAX_WORD_DIFF_CHARS = 4_000;

/**
 * One hunk as a diff: a line of context, the removed lines, the added lines (or the user's own
 * text in their place), each line with a sign that does not rely on colour, the changed words
 * inside paired lines marked. Long lines wrap (styles.css): a narrow sidebar never scrolls sideways.
 */
export function renderHunkDiff(parent: HTMLElement, hunk: Hunk, baseLines: readonly string[], newLines: readonly string[] = hunk.newLines): HTMLElement {
  const box = parent.createDiv({ cls: 'strata-diff', attr: { role: 'group', 'aria-label': hunkLabel(hunk) } });
  const before = baseLines.slice(Math.max(0, hunk.baseStart - CONTEXT_LINES), hunk.baseStart);
  for (const line of before) diffLine(box, 'context', [{ text: line, changed: false }]);
  // Removed and added lines are paired in order for word marks; the rest are wholly changed.
  const pairs = Math.min(hunk.baseLines.length, newLines.length);
  const marks = Array.from({ length: pairs }, (_, i) => pairMarks(hunk.baseLines[i], newLines[i]));
  hunk.baseLines.forEach((line, i) => diffLine(box, 'removed', i < pairs ? marks[i].old : [{ text: line, changed: false }]));
  newLines.forEach((line, i) => diffLine(box, 'added', i < pairs ? marks[i].new : [{ text: line, changed: false }]));
  const end = hunk.baseStart + hunk.baseLines.length;
  for (const line of baseLines.slice(end, end + CONTEXT_LINES)) diffLine(box, 'context', [{ text: line, changed: false }]);
  return box;
}

function pairMarks(oldLine: string, newLine: string): { old: readonly WordPart[]; new: readonly WordPart[] } {
  if (oldLine.length + newLine.length > MAX_WORD_DIFF_CHARS) return { old: [{ text: oldLine, changed: false }], new: [{ text: newLine, changed: false }] };
  return wordMarks(oldLine, newLine);
}

const SIGNS = { context: ' ', removed: '−', added: '+' } as const;
const SPOKEN = { context: '', removed: 'Removed: ', added: 'Added: ' } as const;

function diffLine(box: HTMLElement, kind: 'context' | 'removed' | 'added', parts: readonly WordPart[]): void {
  const line = box.createDiv({ cls: `strata-diff-line is-${kind}` });
  line.createSpan({ cls: 'strata-diff-sign', text: SIGNS[kind], attr: { 'aria-hidden': 'true' } });
  const text = line.createSpan({ cls: 'strata-diff-text' });
  if (SPOKEN[kind]) text.createSpan({ cls: 'strata-visually-hidden', text: SPOKEN[kind] });
  // An empty line still takes its height.
  if (parts.every((p) => p.text === '')) text.addClass('is-empty');
  for (const part of parts) {
    if (part.changed) text.createEl(kind === 'removed' ? 'del' : 'ins', { cls: 'strata-diff-word', text: part.text });
    else text.appendText(part.text);
  }
}

/** "Line 12", "Lines 12–14", "After line 11" (1-based, as editors count). */
export function hunkLabel(hunk: Hunk): string {
  const first = hunk.baseStart + 1;
  if (hunk.baseLines.length === 0) return hunk.baseStart === 0 ? 'At the start' : `After line ${hunk.baseStart}`;
  return hunk.baseLines.length === 1 ? `Line ${first}` : `Lines ${first}–${first + hunk.baseLines.length - 1}`;
}

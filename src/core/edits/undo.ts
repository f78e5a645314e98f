import { sha256Hex } from '../hash';
import { joinLines, proposalOf, splitLines } from './lineDiff';
import type { AppliedEdit, EditKind, EditProposal, Hunk } from './proposal';

/**
 * Undo of an applied edit (issue 28). While the note still hashes to what the edit wrote, the text
 * before is rebuilt from the recorded hunks (or taken from `beforeText`) and checked against the
 * recorded hash: the exact previous bytes. Once the note changed since, undo is a reverse proposal the
 * user reviews like any other: each written hunk found unchanged (at its place or one single other)
 * is turned back; the ones the user changed since are listed as not undoable.
 */
export type UndoPlan =
  | { readonly kind: 'exact'; readonly text: string }
  | { readonly kind: 'proposal'; readonly proposal: EditProposal; readonly notUndoable: readonly Hunk[] };

/** The kind of change that undoes a change of this kind (a create is undone by removing the note, which the caller does). */
const REVERSE: Record<EditKind, EditKind> = { create: 'create', edit: 'edit', append: 'edit', frontmatter: 'frontmatter', rename: 'rename' };

export function undoEdit(current: string, record: AppliedEdit, beforeText?: string): UndoPlan {
  const currentHash = sha256Hex(current);
  if (currentHash === record.afterHash) {
    if (beforeText !== undefined && sha256Hex(beforeText) === record.beforeHash) return { kind: 'exact', text: beforeText };
    // An empty note is both no line and one empty line: an edit that removed every line left ''.
    for (const lines of current === '' ? [[], ['']] : [splitLines(current)]) {
      const rebuilt = reverseAll(lines, record.hunks);
      if (rebuilt !== undefined && sha256Hex(rebuilt) === record.beforeHash) return { kind: 'exact', text: rebuilt };
    }
  }
  const lines = splitLines(current);
  const turned: Array<{ at: number; hunk: Hunk; order: number }> = [];
  const notUndoable: Hunk[] = [];
  let shift = 0;
  for (const hunk of record.hunks) {
    // Where the hunk's written lines are in the text as the edit left it.
    const expected = hunk.baseStart + shift;
    shift += hunk.newLines.length - hunk.baseLines.length;
    const at = locate(lines, hunk.newLines, expected);
    if (at === undefined || turned.some((t) => overlaps(t.at, t.hunk.newLines.length, at, hunk.newLines.length))) notUndoable.push(hunk);
    else turned.push({ at, hunk, order: turned.length });
  }
  const out = [...lines];
  for (const t of [...turned].sort((a, b) => b.at - a.at || b.order - a.order)) out.splice(t.at, t.hunk.newLines.length, ...t.hunk.baseLines);
  const isRename = record.kind === 'rename';
  const proposal = proposalOf({
    id: `undo-${record.proposalId}`,
    kind: REVERSE[record.kind],
    path: isRename ? (record.newPath ?? record.path) : record.path,
    ...(isRename ? { newPath: record.path } : {}),
    baseText: current,
    proposedText: joinLines(out),
    summary: `Undo: ${isRename ? `move ${record.newPath ?? record.path} back to ${record.path}` : `revert ${record.path}`}${notUndoable.length > 0 ? ` (${notUndoable.length} changed since, kept)` : ''}`,
  });
  return { kind: 'proposal', proposal, notUndoable };
}

/** The text before the edit from the text it wrote: each written hunk swapped back, from the end. */
function reverseAll(afterLines: readonly string[], hunks: readonly Hunk[]): string | undefined {
  const lines = [...afterLines];
  let shift = 0;
  const places = hunks.map((h) => {
    const at = h.baseStart + shift;
    shift += h.newLines.length - h.baseLines.length;
    return at;
  });
  for (let i = hunks.length - 1; i >= 0; i--) {
    const h = hunks[i];
    if (!sameLines(lines, places[i], h.newLines)) return undefined;
    lines.splice(places[i], h.newLines.length, ...h.baseLines);
  }
  return joinLines(lines);
}

/** The written lines at their expected place, else at the one single place they occur; an insertion undone only at its place. */
function locate(lines: readonly string[], written: readonly string[], expected: number): number | undefined {
  if (sameLines(lines, expected, written)) return expected;
  if (written.length === 0) return undefined;
  let found: number | undefined;
  for (let i = 0; i + written.length <= lines.length; i++) {
    if (lines[i] !== written[0] || !sameLines(lines, i, written)) continue;
    if (found !== undefined) return undefined;
    found = i;
  }
  return found;
}

function sameLines(lines: readonly string[], at: number, expected: readonly string[]): boolean {
  if (at < 0 || at + expected.length > lines.length) return false;
  for (let i = 0; i < expected.length; i++) if (lines[at + i] !== expected[i]) return false;
  return true;
}

function overlaps(a: number, aLen: number, b: number, bLen: number): boolean {
  return a < b + Math.max(bLen, 1) && b < a + Math.max(aLen, 1);
}

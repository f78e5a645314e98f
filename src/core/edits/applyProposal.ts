import { sha256Hex } from '../hash';
import { LINE_DIFF_TIMEOUT_MS, exactLineHunks, joinLines, splitLines } from './lineDiff';
import type { AppliedEdit, ApplyResult, EditProposal, Hunk, ReviewOutcome } from './proposal';

/**
 * Applies a reviewed proposal to the note's CURRENT text (issue 28), pure. When the note is still the
 * text the proposal was made from, every chosen hunk applies where it was made. When the user changed
 * it since, the user's own changes are found by a line diff base → current: a hunk whose base lines
 * the user left alone applies at its shifted place, one the user touched comes back as a conflict.
 * The text written is the current text with only whole chosen hunks replaced, so nothing the user
 * wrote is ever lost.
 */

/** A hunk the user chose, with the lines to write (its own or the user's edit). */
interface Chosen {
  readonly hunk: Hunk;
  readonly newLines: readonly string[];
}

/** A chosen hunk placed in the current text. */
interface Placed extends Chosen {
  readonly at: number;
}

export function applyReviewed(
  current: string,
  proposal: EditProposal,
  outcome: ReviewOutcome,
  diffTimeoutMs = LINE_DIFF_TIMEOUT_MS,
): { text: string; result: ApplyResult } {
  const decisions = new Map(outcome.decisions.map((d) => [d.hunkId, d]));
  if (proposal.hunks.length === 0) return applyWhole(current, proposal, decisions.get('all')?.action !== 'reject' && decisions.has('all'));
  const chosen: Chosen[] = [];
  const rejected: string[] = [];
  for (const hunk of proposal.hunks) {
    const decision = decisions.get(hunk.id);
    // An undecided hunk is not written: only what the user accepted is.
    if (!decision || decision.action === 'reject') rejected.push(hunk.id);
    else chosen.push({ hunk, newLines: decision.action === 'edit' ? (decision.editedLines ?? hunk.newLines) : hunk.newLines });
  }
  const currentLines = splitLines(current);
  const { placed, conflicts } = current === proposal.baseText ? { placed: chosen.map((c) => ({ ...c, at: c.hunk.baseStart })), conflicts: [] } : place(chosen, splitLines(proposal.baseText), currentLines, diffTimeoutMs);
  const lines = [...currentLines];
  // From the end (placed is in text order; an insertion and the hunk after it may share a place), so earlier places stay valid.
  for (const p of [...placed].reverse()) lines.splice(p.at, p.hunk.baseLines.length, ...p.newLines);
  const text = placed.length === 0 ? current : joinLines(lines);
  const applied = placed.map((p) => p.hunk.id);
  const status: ApplyResult['status'] =
    placed.length === 0 ? (conflicts.length > 0 ? 'conflict' : 'rejected') : rejected.length + conflicts.length > 0 ? 'partly-applied' : 'applied';
  const record: AppliedEdit | undefined =
    placed.length === 0
      ? undefined
      : {
          proposalId: proposal.id,
          kind: proposal.kind,
          path: proposal.path,
          ...(proposal.newPath !== undefined ? { newPath: proposal.newPath } : {}),
          beforeHash: sha256Hex(current),
          afterHash: sha256Hex(text),
          hunks: placed.map((p) => ({ id: p.hunk.id, baseStart: p.at, baseLines: p.hunk.baseLines, newLines: p.newLines })),
        };
  return { text, result: { status, applied, rejected, conflicts, ...(record ? { record } : {}) } };
}

/** A proposal without hunks (a rename, an empty create): one decision for "all". */
function applyWhole(current: string, proposal: EditProposal, accepted: boolean): { text: string; result: ApplyResult } {
  if (!accepted) return { text: current, result: { status: 'rejected', applied: [], rejected: ['all'], conflicts: [] } };
  const hash = sha256Hex(current);
  const record: AppliedEdit = {
    proposalId: proposal.id,
    kind: proposal.kind,
    path: proposal.path,
    ...(proposal.newPath !== undefined ? { newPath: proposal.newPath } : {}),
    beforeHash: hash,
    afterHash: hash,
    hunks: [],
  };
  return { text: current, result: { status: 'applied', applied: ['all'], rejected: [], conflicts: [], record } };
}

/** Where each chosen hunk goes in the current text, or that it conflicts with the user's changes. */
function place(chosen: readonly Chosen[], base: readonly string[], current: readonly string[], timeoutMs: number): { placed: Placed[]; conflicts: Hunk[] } {
  const userChanges = exactLineHunks(base, current, timeoutMs);
  const placed: Placed[] = [];
  const conflicts: Hunk[] = [];
  for (const c of chosen) {
    const at = userChanges ? mapThrough(c.hunk, userChanges) : search(c.hunk, base, current);
    if (at === undefined || !sameLines(current, at, c.hunk.baseLines)) conflicts.push(c.hunk);
    else placed.push({ ...c, at });
  }
  if (!userChanges) return dropOverlaps(placed, conflicts);
  return { placed, conflicts };
}

/**
 * The hunk's place in the current text, shifted by the user's changes before it; undefined when the
 * user changed its base lines, or inserted at the very point the hunk inserts (which goes first is
 * the user's call).
 */
function mapThrough(hunk: Hunk, userChanges: readonly Hunk[]): number | undefined {
  const ps = hunk.baseStart;
  const pe = ps + hunk.baseLines.length;
  let shift = 0;
  for (const u of userChanges) {
    const us = u.baseStart;
    const ue = us + u.baseLines.length;
    const touches = ps === pe ? (us < ps && ps < ue) || (us === ue && us === ps) : us === ue ? ps < us && us < pe : us < pe && ps < ue;
    if (touches) return undefined;
    if (ue <= ps && !(ps === pe && us === ps)) shift += u.newLines.length - u.baseLines.length;
  }
  return ps + shift;
}

/**
 * When the diff base → current ran out of time: the hunk's base lines (for an insertion, the lines
 * around the point) found at the same place or at one single other place; else a conflict.
 */
function search(hunk: Hunk, base: readonly string[], current: readonly string[]): number | undefined {
  if (hunk.baseLines.length > 0) {
    if (sameLines(current, hunk.baseStart, hunk.baseLines)) return hunk.baseStart;
    return unique(current, hunk.baseLines, 0);
  }
  const before = hunk.baseStart > 0 ? [base[hunk.baseStart - 1]] : [];
  const after = hunk.baseStart < base.length ? [base[hunk.baseStart]] : [];
  const around = [...before, ...after];
  if (around.length === 0) return current.length === 1 && current[0] === '' ? 0 : undefined;
  if (before.length === 0) return sameLines(current, 0, after) ? 0 : undefined;
  if (after.length === 0) return sameLines(current, current.length - 1, before) ? current.length : undefined;
  const start = sameLines(current, hunk.baseStart - 1, around) ? hunk.baseStart - 1 : unique(current, around, 0);
  return start === undefined ? undefined : start + 1;
}

/** The one index where `needle` occurs in `lines`, or undefined when it occurs never or more than once. */
function unique(lines: readonly string[], needle: readonly string[], from: number): number | undefined {
  let found: number | undefined;
  for (let i = from; i + needle.length <= lines.length; i++) {
    if (lines[i] !== needle[0] || !sameLines(lines, i, needle)) continue;
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

/** Searched places may collide: a hunk overlapping one placed before it is a conflict. */
function dropOverlaps(placed: readonly Placed[], conflicts: Hunk[]): { placed: Placed[]; conflicts: Hunk[] } {
  const kept: Placed[] = [];
  let end = -1;
  for (const p of [...placed].sort((a, b) => a.at - b.at)) {
    if (p.at < end || (p.at === end && p.hunk.baseLines.length === 0)) conflicts.push(p.hunk);
    else {
      kept.push(p);
      end = p.at + p.hunk.baseLines.length;
    }
  }
  return { placed: kept, conflicts };
}

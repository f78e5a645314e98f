/**
 * STAND-IN until the `edits` branch is merged: its lineDiff.ts (proposalOf, wordMarks) and
 * applyProposal.ts (applyReviewed) replace this file. Same shapes, simplest correct code, so the
 * review UI can be built and tested against the contract (proposal.ts) meanwhile.
 */
import { diffArrays, diffWordsWithSpace } from 'diff';
import { sha256Hex } from '../hash';
import type { EditKind, EditProposal, Hunk, ReviewOutcome } from './proposal';

export interface WordPart {
  readonly text: string;
  readonly changed: boolean;
}

/** The words changed between a removed line and the line added in its place. */
export function wordMarks(oldLine: string, newLine: string): { old: WordPart[]; new: WordPart[] } {
  const old: WordPart[] = [];
  const neu: WordPart[] = [];
  for (const part of diffWordsWithSpace(oldLine, newLine)) {
    if (!part.added) old.push({ text: part.value, changed: part.removed === true });
    if (!part.removed) neu.push({ text: part.value, changed: part.added === true });
  }
  return { old, new: neu };
}

function linesOf(text: string): string[] {
  return text === '' ? [] : text.split('\n');
}

function hunksOf(base: string, proposed: string): Hunk[] {
  const hunks: Hunk[] = [];
  let at = 0;
  let open: { baseStart: number; baseLines: string[]; newLines: string[] } | null = null;
  const close = () => {
    if (open) hunks.push({ id: `h${hunks.length + 1}`, ...open });
    open = null;
  };
  for (const part of diffArrays(linesOf(base), linesOf(proposed))) {
    if (!part.added && !part.removed) {
      close();
      at += part.count ?? part.value.length;
      continue;
    }
    open ??= { baseStart: at, baseLines: [], newLines: [] };
    if (part.removed) {
      open.baseLines.push(...part.value);
      at += part.value.length;
    } else open.newLines.push(...part.value);
  }
  close();
  return hunks;
}

export function proposalOf(input: { id: string; kind: EditKind; path: string; baseText: string; proposedText: string; toolCallId?: string }): EditProposal {
  const hunks = hunksOf(input.baseText, input.proposedText);
  return {
    ...input,
    baseHash: sha256Hex(input.baseText),
    hunks,
    summary: `${input.kind === 'create' ? 'Create' : 'Edit'} ${input.path}: ${hunks.length} hunk${hunks.length === 1 ? '' : 's'}`,
  };
}

/** The base text with the accepted (or edited) hunks written, the rest left as they were. */
export function applyReviewed(current: string, proposal: EditProposal, outcome: ReviewOutcome): { text: string; applied: string[] } {
  if (current !== proposal.baseText) throw new Error('The note changed since the proposal (the stand-in does not merge).');
  const lines = linesOf(current);
  const applied: string[] = [];
  for (const hunk of [...proposal.hunks].reverse()) {
    const decision = outcome.decisions.find((d) => d.hunkId === hunk.id);
    if (!decision || decision.action === 'reject') continue;
    const replacement = decision.action === 'edit' ? (decision.editedLines ?? []) : hunk.newLines;
    lines.splice(hunk.baseStart, hunk.baseLines.length, ...replacement);
    applied.unshift(hunk.id);
  }
  return { text: lines.join('\n'), applied };
}

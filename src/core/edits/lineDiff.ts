import { diffArrays, diffWordsWithSpace } from 'diff';
import { sha256Hex } from '../hash';
import type { EditKind, EditProposal, Hunk } from './proposal';

/**
 * Line and word diffs for edit proposals (issue 28), on jsdiff (the bench's `edits` section compares
 * it with diff-match-patch). A note is split on '\n' only, so a '\r' stays inside its line and joining
 * the lines with '\n' gives back the exact bytes.
 */

/** Longest a line diff may run on the caller's thread before it gives up (Obsidian's main thread is the user's). */
export const LINE_DIFF_TIMEOUT_MS = 30;

export function splitLines(text: string): string[] {
  return text.split('\n');
}

export function joinLines(lines: readonly string[]): string {
  return lines.join('\n');
}

/**
 * Hunks of the line diff base → proposed, in text order. The common head and tail are cut first
 * (cheap, and most edits touch a small middle); the middle goes to jsdiff with a timeout, and a diff
 * that runs out of time becomes one hunk over the whole changed middle: coarse, never a freeze.
 */
export function lineHunks(base: readonly string[], proposed: readonly string[], timeoutMs = LINE_DIFF_TIMEOUT_MS): Hunk[] {
  return exactLineHunks(base, proposed, timeoutMs) ?? wholeMiddle(base, proposed);
}

/** The lines shared at the start and at the end of two texts. */
function commonEnds(base: readonly string[], proposed: readonly string[]): { head: number; tail: number } {
  let head = 0;
  const shorter = Math.min(base.length, proposed.length);
  while (head < shorter && base[head] === proposed[head]) head++;
  let tail = 0;
  while (tail < shorter - head && base[base.length - 1 - tail] === proposed[proposed.length - 1 - tail]) tail++;
  return { head, tail };
}

/** One hunk over everything between the common head and tail (what a diff that ran out of time gives). */
export function wholeMiddle(base: readonly string[], proposed: readonly string[]): Hunk[] {
  const { head, tail } = commonEnds(base, proposed);
  const baseLines = base.slice(head, base.length - tail);
  const newLines = proposed.slice(head, proposed.length - tail);
  return baseLines.length === 0 && newLines.length === 0 ? [] : [{ id: 'h1', baseStart: head, baseLines, newLines }];
}

/** The exact line diff, or undefined when it ran out of time. */
export function exactLineHunks(base: readonly string[], proposed: readonly string[], timeoutMs = LINE_DIFF_TIMEOUT_MS): Hunk[] | undefined {
  const { head, tail } = commonEnds(base, proposed);
  const oldMid = base.slice(head, base.length - tail);
  const newMid = proposed.slice(head, proposed.length - tail);
  if (oldMid.length === 0 && newMid.length === 0) return [];
  if (oldMid.length === 0 || newMid.length === 0) return [{ id: 'h1', baseStart: head, baseLines: oldMid, newLines: newMid }];
  const changes = diffArrays(oldMid, newMid, { timeout: timeoutMs });
  if (!changes) return undefined;
  const hunks: Hunk[] = [];
  let at = head;
  let open: { baseStart: number; baseLines: string[]; newLines: string[] } | undefined;
  const close = (): void => {
    if (open) hunks.push({ id: `h${hunks.length + 1}`, ...open });
    open = undefined;
  };
  for (const change of changes) {
    if (!change.added && !change.removed) {
      close();
      at += change.count;
      continue;
    }
    open ??= { baseStart: at, baseLines: [], newLines: [] };
    if (change.removed) {
      open.baseLines.push(...change.value);
      at += change.count;
    } else open.newLines.push(...change.value);
  }
  close();
  return hunks;
}

export interface ProposalArgs {
  readonly id: string;
  readonly kind: EditKind;
  readonly path: string;
  readonly newPath?: string;
  readonly baseText: string;
  readonly proposedText: string;
  readonly summary?: string;
  readonly toolCallId?: string;
}

/** The one line shown for a proposal when its maker gave none ("Edit Plan.md: 3 hunks"). */
export function defaultSummary(kind: EditKind, path: string, hunkCount: number, newPath?: string): string {
  const counted = `${hunkCount} hunk${hunkCount === 1 ? '' : 's'}`;
  switch (kind) {
    case 'create':
      return `Create ${path}`;
    case 'rename':
      return `Move ${path} to ${newPath ?? '?'}`;
    case 'append':
      return `Append to ${path}: ${counted}`;
    case 'frontmatter':
      return `Change the properties of ${path}: ${counted}`;
    default:
      return `Edit ${path}: ${counted}`;
  }
}

/** An EditProposal from the note's text and the whole text proposed. */
export function proposalOf(args: ProposalArgs): EditProposal {
  const hunks = args.baseText === args.proposedText ? [] : lineHunks(splitLines(args.baseText), splitLines(args.proposedText));
  return {
    id: args.id,
    kind: args.kind,
    path: args.path,
    ...(args.newPath !== undefined ? { newPath: args.newPath } : {}),
    baseText: args.baseText,
    baseHash: sha256Hex(args.baseText),
    proposedText: args.proposedText,
    hunks,
    summary: args.summary ?? defaultSummary(args.kind, args.path, hunks.length, args.newPath),
    ...(args.toolCallId !== undefined ? { toolCallId: args.toolCallId } : {}),
  };
}

export interface WordPart {
  readonly text: string;
  readonly changed: boolean;
}

/** Longer lines are marked whole: a word diff of two long unrelated lines is slow and says nothing. */
const WORD_DIFF_MAX_CHARS = 10_000;

/**
 * The words that changed inside a changed line, for marking: the old line's parts (removed words
 * changed) and the new line's (added words changed). Concatenating each side gives its line back.
 */
export function wordMarks(oldLine: string, newLine: string): { old: WordPart[]; new: WordPart[] } {
  const whole = { old: wholePart(oldLine), new: wholePart(newLine) };
  if (oldLine.length + newLine.length > WORD_DIFF_MAX_CHARS) return whole;
  const changes = diffWordsWithSpace(oldLine, newLine, { timeout: LINE_DIFF_TIMEOUT_MS });
  if (!changes) return whole;
  const old: WordPart[] = [];
  const neu: WordPart[] = [];
  for (const change of changes) {
    if (change.value === '') continue;
    if (!change.added) push(old, change.value, change.removed);
    if (!change.removed) push(neu, change.value, change.added);
  }
  return { old, new: neu };
}

function wholePart(line: string): WordPart[] {
  return line === '' ? [] : [{ text: line, changed: true }];
}

/** Adjacent parts of the same kind merge, so the view draws one mark per run. */
function push(parts: WordPart[], text: string, changed: boolean): void {
  const last = parts[parts.length - 1];
  if (last && last.changed === changed) parts[parts.length - 1] = { text: last.text + text, changed };
  else parts.push({ text, changed });
}

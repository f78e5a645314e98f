import { applyReviewed } from '../edits/applyProposal';
import { appliesWithoutAsking } from '../edits/writePolicy';
import { checkWritePath, type CheckedPath } from '../edits/writePaths';
import type { EditSession } from '../edits/editSession';
import type { ApplyResult, EditProposal, Hunk, ReviewOutcome } from '../edits/proposal';
import type { NoteWriter } from '../ports/noteWriter';
import { errorText, messageOf, throwIfAborted } from './tool';

/**
 * The write tools' common end (issue 28): a proposal reviewed (or applied without asking, as the
 * chat's write policy says), applied against the note's text at that moment, and the outcome in
 * words for the model.
 */

/** A path the model gave, checked against the session's rules. */
export function writablePath(session: EditSession, input: string): CheckedPath {
  return checkWritePath(input, { ...session.rules, excluded: [...session.rules.excluded, ...(session.writer.excludedFolders?.() ?? [])] });
}

/** Every hunk accepted: what the policy's "apply without asking" decides. */
function acceptAll(proposal: EditProposal): ReviewOutcome {
  const ids = proposal.hunks.length > 0 ? proposal.hunks.map((h) => h.id) : ['all'];
  return { decisions: ids.map((hunkId) => ({ hunkId, action: 'accept' as const })) };
}

/** Review the proposal (or not, by the policy), apply it, and say what happened, for the model. */
export async function submitProposal(session: EditSession, proposal: EditProposal, signal: AbortSignal): Promise<string> {
  let outcome: ReviewOutcome;
  if (appliesWithoutAsking(session.policy, proposal.path, proposal.newPath)) outcome = acceptAll(proposal);
  else {
    session.onProposed?.(proposal);
    try {
      outcome = await session.reviewer.review(proposal, signal);
    } catch (error) {
      // The turn was stopped (or the review failed): the proposal no longer waits, nothing was written.
      session.onSettled?.(proposal, { status: 'rejected', applied: [], rejected: proposal.hunks.map((h) => h.id), conflicts: [] });
      throw error;
    }
  }
  throwIfAborted(signal);
  let result: ApplyResult;
  try {
    result = await applyToVault(session.writer, proposal, outcome);
  } catch (error) {
    const failed: ApplyResult = { status: 'conflict', applied: [], rejected: [], conflicts: proposal.hunks };
    session.onSettled?.(proposal, failed);
    return errorText(`${proposal.summary}: not written: ${messageOf(error)}`);
  }
  session.onSettled?.(proposal, result);
  const edited = outcome.decisions.filter((d) => d.action === 'edit' && result.applied.includes(d.hunkId)).map((d) => d.hunkId);
  const note = edited.length > 0 ? ` The user changed your text before writing it (${list(edited, proposal)}): read the note for what it says now.` : '';
  return outcomeText(proposal, result, outcome.reason) + note;
}

/** Write what the review accepted. Kind by kind: a create never overwrites, a move never replaces a note. */
export async function applyToVault(writer: NoteWriter, proposal: EditProposal, outcome: ReviewOutcome): Promise<ApplyResult> {
  if (proposal.kind === 'create') {
    const { text, result } = applyReviewed('', proposal, outcome);
    if (!result.record) return result;
    if (await writer.exists(proposal.path)) throw new Error(`${proposal.path} exists now; a create never overwrites a note`);
    await writer.create(proposal.path, text);
    return result;
  }
  if (proposal.kind === 'rename') {
    const current = await writer.read(proposal.path);
    if (current === null) throw new Error(`${proposal.path} is gone`);
    const { result } = applyReviewed(current, proposal, outcome);
    if (!result.record || proposal.newPath === undefined) return result;
    if (await writer.exists(proposal.newPath)) throw new Error(`${proposal.newPath} is taken; a move never replaces a note`);
    await writer.rename(proposal.path, proposal.newPath);
    return result;
  }
  let result: ApplyResult | undefined;
  await writer.process(proposal.path, (current) => {
    const applied = applyReviewed(current, proposal, outcome);
    result = applied.result;
    return applied.text;
  });
  if (!result) throw new Error('the note could not be changed');
  return result;
}

/** "lines 4-6" of a hunk (in the note as the proposal read it), for the model. */
function where(hunk: Hunk): string {
  const first = hunk.baseStart + 1;
  const n = hunk.baseLines.length;
  return n === 0 ? `the insertion before line ${first}` : n === 1 ? `line ${first}` : `lines ${first}-${first + n - 1}`;
}

function list(ids: readonly string[], proposal: EditProposal): string {
  return ids.map((id) => proposal.hunks.find((h) => h.id === id)).filter((h): h is Hunk => h !== undefined).map(where).join(', ');
}

/** The outcome as the model reads it: what was written, what the user refused (and why), what could not be applied. */
export function outcomeText(proposal: EditProposal, result: ApplyResult, reason?: string): string {
  const why = reason?.trim() ? ` The user's reason: "${reason.trim()}".` : '';
  const conflicts =
    result.conflicts.length > 0
      ? ` Not applied because the user changed the same lines meanwhile: ${result.conflicts.map(where).join(', ')}. Read the note again before proposing those changes anew.`
      : '';
  switch (result.status) {
    case 'applied':
      return `Applied: ${proposal.summary}.`;
    case 'rejected':
      return `Rejected by the user: ${proposal.summary}. Nothing was written.${why}`;
    case 'conflict':
      return `Not applied: ${proposal.summary}.${conflicts}`;
    case 'partly-applied': {
      const rejected = result.rejected.length > 0 ? ` The user rejected ${list(result.rejected, proposal)}.${why}` : '';
      return `Partly applied: ${proposal.summary}. Written: ${list(result.applied, proposal)}.${rejected}${conflicts} Read the note again before changing it further.`;
    }
  }
}

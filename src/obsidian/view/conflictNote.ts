import { setIcon } from 'obsidian';
import type { EditProposal, Hunk } from '../../core/edits/proposal';
import { changesText } from '../../core/edits/reviewDraft';
import { hunkLabel, renderHunkDiff } from './diffView';

export interface ConflictActions {
  copy(text: string): void;
  /** Absent in a modal (its own Close button ends it). */
  readonly dismiss?: () => void;
}

/**
 * The accepted changes that were not written because the user changed the same lines while the
 * edit waited (issue 28: never written blindly): shown again as diffs against the text they were
 * made from, each with a button that copies its proposed lines, so nothing the user chose is lost.
 */
export function renderConflicts(parent: HTMLElement, proposal: EditProposal, conflicts: readonly Hunk[], actions: ConflictActions): HTMLElement {
  const box = parent.createDiv({ cls: 'strata-review strata-review-conflicts', attr: { role: 'group', 'aria-label': `Not written: ${proposal.path}`, 'data-proposal': proposal.id } });
  const again = box.createDiv({ cls: 'strata-review-again', attr: { role: 'note' } });
  setIcon(again.createSpan({ cls: 'strata-review-again-icon' }), 'alert-triangle');
  again.createSpan({ text: `${changesText(conflicts.length)} to ${proposal.path} not written: you changed those lines while the edit waited. Your text is kept; copy a proposed change to use it anyway.` });
  const base = proposal.baseText === '' ? [] : proposal.baseText.split('\n');
  for (const hunk of conflicts) {
    const item = box.createEl('section', { cls: 'strata-hunk is-conflict', attr: { 'data-hunk': hunk.id, 'aria-label': hunkLabel(hunk) } });
    const head = item.createDiv({ cls: 'strata-hunk-head' });
    head.createSpan({ cls: 'strata-hunk-where', text: `${hunkLabel(hunk)} (as it was)` });
    head.createSpan({ cls: 'strata-hunk-state', text: 'Not written' });
    renderHunkDiff(item, hunk, base);
    const row = item.createDiv({ cls: 'strata-hunk-actions' });
    const copy = row.createEl('button', { cls: 'strata-review-button strata-conflict-copy', attr: { type: 'button' } });
    setIcon(copy.createSpan({ cls: 'strata-review-button-icon' }), 'copy');
    copy.createSpan({ text: 'Copy the proposed lines' });
    copy.addEventListener('click', () => actions.copy(hunk.newLines.join('\n')));
  }
  const dismiss = actions.dismiss;
  if (dismiss) {
    const row = box.createDiv({ cls: 'strata-review-submit' });
    const button = row.createEl('button', { cls: 'strata-review-button strata-conflict-dismiss', attr: { type: 'button' } });
    setIcon(button.createSpan({ cls: 'strata-review-button-icon' }), 'x');
    button.createSpan({ text: 'Dismiss' });
    button.addEventListener('click', () => dismiss());
  }
  return box;
}

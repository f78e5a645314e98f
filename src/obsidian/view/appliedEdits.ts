import { setIcon } from 'obsidian';
import type { AppliedEdit } from '../../core/edits/proposal';
import { changesText } from '../../core/edits/reviewDraft';
import { hunkLabel, renderHunkDiff } from './diffView';

export interface AppliedEditActions {
  /** Undo the edit (exact bytes, or a reverse proposal when the note changed since); the chat re-renders with the record marked undone. Absent: no Undo button. */
  readonly undo?: (record: AppliedEdit) => void;
  openNote(path: string): void;
}

/**
 * The edits a chat applied (kept oldest first in the chat note), grouped under the turn they were
 * applied in: the last turn sent at or before the edit (an agent's edits come during its turn, an
 * "Apply to note" after the reply it applies).
 */
export function editsByTurn<E extends { readonly at: number }>(edits: readonly E[], turnTimes: readonly number[]): E[][] {
  const groups: E[][] = turnTimes.map(() => []);
  for (const edit of edits) {
    let index = -1;
    for (let i = 0; i < turnTimes.length; i++) if (turnTimes[i] <= edit.at) index = i;
    if (index >= 0) groups[index].push(edit);
  }
  return groups;
}

/**
 * A change written to a note, as the chat keeps it (read from the chat note, so it is there after
 * reopening): what was changed, the changes folded under it, and Undo until it is undone.
 */
export function renderAppliedEdit(parent: HTMLElement, record: AppliedEdit, actions: AppliedEditActions): HTMLElement {
  const box = parent.createDiv({ cls: 'strata-applied-edit', attr: { 'data-proposal': record.proposalId } });
  box.toggleClass('is-undone', record.undone === true);
  const line = box.createDiv({ cls: 'strata-applied-line' });
  setIcon(line.createSpan({ cls: 'strata-applied-icon' }), record.undone ? 'undo-2' : 'file-check');
  const text = line.createSpan({ cls: 'strata-applied-text' });
  text.appendText(`${record.undone ? 'Undone: ' : ''}${verbOf(record)} `);
  const target = record.kind === 'rename' ? (record.newPath ?? record.path) : record.path;
  const link = text.createEl('a', { cls: 'strata-applied-note', text: target, attr: { href: '#', 'aria-label': `Open ${target}` } });
  link.addEventListener('click', (event) => {
    event.preventDefault();
    event.stopPropagation();
    actions.openNote(target);
  });
  if (record.hunks.length > 0) text.appendText(` · ${changesText(record.hunks.length)}`);
  const run = actions.undo;
  if (!record.undone && run) {
    const undo = line.createEl('button', { cls: 'strata-review-button strata-applied-undo', attr: { type: 'button', 'aria-label': `Undo the edit to ${target}` } });
    setIcon(undo.createSpan({ cls: 'strata-review-button-icon' }), 'undo-2');
    undo.createSpan({ text: 'Undo' });
    undo.addEventListener('click', (event) => {
      event.stopPropagation();
      undo.disabled = true;
      run(record);
    });
  }
  if (record.hunks.length > 0) {
    const details = box.createEl('details', { cls: 'strata-applied-details' });
    details.createEl('summary', { text: 'Show the changes' });
    // Filled on first open: a long edit costs nothing until it is looked at.
    details.addEventListener('toggle', () => {
      if (!details.open || details.querySelector('.strata-diff')) return;
      for (const hunk of record.hunks) {
        details.createDiv({ cls: 'strata-applied-where', text: hunkLabel(hunk) });
        renderHunkDiff(details, hunk, []);
      }
    });
  }
  return box;
}

function verbOf(record: AppliedEdit): string {
  switch (record.kind) {
    case 'create':
      return 'Created';
    case 'rename':
      return 'Moved to';
    case 'append':
      return 'Appended to';
    case 'frontmatter':
      return 'Changed the properties of';
    default:
      return 'Edited';
  }
}

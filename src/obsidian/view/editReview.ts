import { setIcon } from 'obsidian';
import type { EditProposal, Hunk, ReviewOutcome } from '../../core/edits/proposal';
import { changesText, ReviewDraft, WHOLE_PROPOSAL } from '../../core/edits/reviewDraft';
import { hunkLabel, renderHunkDiff } from './diffView';

export interface ReviewCardOptions {
  /** Shown again: the note changed meanwhile and these changes no longer fit where they were. */
  readonly again?: boolean;
  /** What the last button says when something is kept ("Apply 2 changes"); the modal for a selection says "Replace". */
  readonly applyVerb?: string;
  /** Cost and model of the call that proposed it (apply a reply, edit a selection). */
  readonly meta?: string;
  submit(outcome: ReviewOutcome): void;
}

/**
 * An EditProposal to review: each hunk as a diff with Accept, Reject and Edit, Accept all and
 * Reject all, an optional reason when something is rejected, and the button that sends the
 * decisions. Decisions live in the ReviewDraft, so rendering again never loses one; focus is put
 * back where it was (or moves to the next hunk to decide), so the whole review runs from the
 * keyboard: Tab between buttons, Enter or Space to press, A / R / E inside a hunk, Ctrl/Cmd+Enter
 * saves an edit and Escape cancels it.
 */
export class ReviewCard {
  readonly el: HTMLElement;
  private readonly baseLines: readonly string[];
  /** Hunks whose text the user is editing, with the text so far. */
  private readonly editing = new Map<string, string>();
  private sent = false;

  constructor(
    parent: HTMLElement,
    readonly draft: ReviewDraft,
    private readonly options: ReviewCardOptions,
  ) {
    const p = draft.proposal;
    this.baseLines = p.baseText === '' ? [] : p.baseText.split('\n');
    this.el = parent.createDiv({ cls: 'strata-review', attr: { role: 'group', 'aria-label': `Review: ${p.summary}`, 'data-proposal': p.id } });
    this.render();
  }

  /** Focus the first thing to decide (a review that just appeared). */
  focusFirst(): void {
    this.focusKey(this.nextKey());
  }

  /** Build the card from the draft; the element that had focus (by its key) gets it back. */
  render(focus: string | null = this.focusedKey()): void {
    const p = this.draft.proposal;
    this.el.empty();
    this.el.toggleClass('is-sent', this.sent);
    const head = this.el.createDiv({ cls: 'strata-review-head' });
    setIcon(head.createSpan({ cls: 'strata-review-icon' }), p.kind === 'create' ? 'file-plus' : p.kind === 'rename' ? 'file-symlink' : 'file-diff');
    // The user's words ("3 changes"), not the model's summary ("3 hunks"); the summary stays in the label.
    head.createSpan({ cls: 'strata-review-title', text: titleOf(p) });
    if (this.options.meta) this.el.createDiv({ cls: 'strata-review-meta', text: this.options.meta });
    if (this.options.again) {
      const again = this.el.createDiv({ cls: 'strata-review-again', attr: { role: 'note' } });
      setIcon(again.createSpan({ cls: 'strata-review-again-icon' }), 'alert-triangle');
      again.createSpan({ text: 'The note changed while you were reviewing: these changes no longer fit where they were. Review them against the note as it is now.' });
    }
    if (p.hunks.length === 0) this.renderWhole();
    for (const hunk of p.hunks) this.renderHunk(hunk);
    this.renderFooter();
    if (focus) this.focusKey(focus);
  }

  private renderWhole(): void {
    const p = this.draft.proposal;
    const box = this.el.createDiv({ cls: `strata-hunk ${stateClass(this.draft.get(WHOLE_PROPOSAL)?.action)}`, attr: { 'data-hunk': WHOLE_PROPOSAL } });
    box.createDiv({ cls: 'strata-hunk-head' }).createSpan({ cls: 'strata-hunk-where', text: p.kind === 'rename' ? `${p.path} → ${p.newPath ?? '?'}` : p.path });
    this.renderActions(box, WHOLE_PROPOSAL, false);
  }

  private renderHunk(hunk: Hunk): void {
    const decision = this.draft.get(hunk.id);
    const box = this.el.createEl('section', { cls: `strata-hunk ${stateClass(decision?.action)}`, attr: { 'data-hunk': hunk.id, 'aria-label': hunkLabel(hunk) } });
    const head = box.createDiv({ cls: 'strata-hunk-head' });
    head.createSpan({ cls: 'strata-hunk-where', text: hunkLabel(hunk) });
    head.createSpan({ cls: 'strata-hunk-state', text: stateText(decision?.action) });
    renderHunkDiff(box, hunk, this.baseLines, decision?.action === 'edit' ? (decision.editedLines ?? []) : hunk.newLines);
    const text = this.editing.get(hunk.id);
    if (text !== undefined) this.renderEditor(box, hunk, text);
    else this.renderActions(box, hunk.id, true);
    box.addEventListener('keydown', (event) => this.hunkKey(event, hunk));
  }

  private renderActions(box: HTMLElement, id: string, editable: boolean): void {
    const action = this.draft.get(id)?.action;
    const row = box.createDiv({ cls: 'strata-hunk-actions' });
    this.button(row, `${id}:accept`, 'check', 'Accept', 'strata-hunk-accept', action === 'accept' || action === 'edit', 'A', () => this.decide(id, action === 'accept' ? null : 'accept'));
    this.button(row, `${id}:reject`, 'x', 'Reject', 'strata-hunk-reject', action === 'reject', 'R', () => this.decide(id, action === 'reject' ? null : 'reject'));
    if (editable) this.button(row, `${id}:edit`, 'pencil', 'Edit', 'strata-hunk-edit', null, 'E', () => this.startEdit(id));
  }

  private renderEditor(box: HTMLElement, hunk: Hunk, text: string): void {
    const label = box.createEl('label', { cls: 'strata-hunk-input-label', text: 'Your text for this change' });
    const input = label.createEl('textarea', { cls: 'strata-hunk-input', attr: { 'data-focus': `${hunk.id}:input`, rows: String(Math.min(12, Math.max(2, text.split('\n').length + 1))) } });
    input.value = text;
    input.addEventListener('input', () => this.editing.set(hunk.id, input.value));
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && !event.isComposing) {
        event.preventDefault();
        this.saveEdit(hunk.id, input.value);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        event.stopPropagation();
        this.cancelEdit(hunk.id);
      }
    });
    const row = box.createDiv({ cls: 'strata-hunk-actions' });
    this.button(row, `${hunk.id}:save`, 'check', 'Use my text', 'strata-hunk-save mod-cta', null, null, () => this.saveEdit(hunk.id, input.value));
    this.button(row, `${hunk.id}:cancel`, 'undo-2', 'Cancel', 'strata-hunk-cancel', null, null, () => this.cancelEdit(hunk.id));
    row.createSpan({ cls: 'strata-hunk-hint', text: 'Ctrl/Cmd+Enter uses it, Escape cancels' });
  }

  private renderFooter(): void {
    const footer = this.el.createDiv({ cls: 'strata-review-footer' });
    const total = this.draft.ids.length;
    if (total > 1) {
      const all = footer.createDiv({ cls: 'strata-review-all' });
      this.button(all, 'all:accept', 'check-check', 'Accept all', 'strata-review-accept-all', null, null, () => this.decideAll('accept'));
      this.button(all, 'all:reject', 'x', 'Reject all', 'strata-review-reject-all', null, null, () => this.decideAll('reject'));
    }
    if (this.draft.rejected() > 0) {
      const label = footer.createEl('label', { cls: 'strata-review-reason-label', text: 'Why not? Your reason is told to the assistant (optional).' });
      const reason = label.createEl('textarea', { cls: 'strata-review-reason', attr: { rows: '2', 'data-focus': 'reason' } });
      reason.value = this.draft.reason;
      reason.addEventListener('input', () => (this.draft.reason = reason.value));
      reason.addEventListener('keydown', (event) => {
        if (event.key === 'Enter' && (event.ctrlKey || event.metaKey) && this.draft.complete()) {
          event.preventDefault();
          this.submit();
        }
      });
    }
    const row = footer.createDiv({ cls: 'strata-review-submit' });
    const left = this.draft.undecided().length;
    row.createSpan({ cls: 'strata-review-status', attr: { 'aria-live': 'polite' }, text: left > 0 ? `${total - left} of ${total} decided` : summaryText(this.draft) });
    const kept = this.draft.kept();
    // Until every change is decided the button says what it will do once they are: apply them.
    const rejectsAll = left === 0 && kept === 0;
    const verb = rejectsAll ? 'Send: nothing applied' : (this.options.applyVerb ?? (left > 0 ? 'Apply' : `Apply ${changesText(kept)}`));
    const send = this.button(row, 'submit', rejectsAll ? 'x' : 'check', verb, 'strata-review-apply mod-cta', null, null, () => this.submit());
    send.disabled = left > 0 || this.sent;
    if (left > 0) send.setAttr('aria-description', `Decide ${changesText(left)} first`);
  }

  private button(parent: HTMLElement, key: string, icon: string, label: string, cls: string, pressed: boolean | null, shortcut: string | null, run: () => void): HTMLButtonElement {
    const button = parent.createEl('button', { cls: `strata-review-button ${cls}`, attr: { 'data-focus': key, type: 'button' } });
    setIcon(button.createSpan({ cls: 'strata-review-button-icon' }), icon);
    button.createSpan({ text: label });
    if (pressed !== null) button.setAttr('aria-pressed', String(pressed));
    if (shortcut) button.setAttr('aria-keyshortcuts', shortcut);
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      run();
    });
    return button;
  }

  private hunkKey(event: KeyboardEvent, hunk: Hunk): void {
    const target = event.target;
    if (target instanceof HTMLTextAreaElement || target instanceof HTMLInputElement || event.ctrlKey || event.metaKey || event.altKey || this.editing.has(hunk.id)) return;
    const key = event.key.toLowerCase();
    if (key !== 'a' && key !== 'r' && key !== 'e') return;
    event.preventDefault();
    event.stopPropagation();
    if (key === 'e') this.startEdit(hunk.id);
    else this.decide(hunk.id, key === 'a' ? 'accept' : 'reject');
  }

  private decide(id: string, action: 'accept' | 'reject' | null): void {
    if (action === null) this.draft.clear(id);
    else this.draft.set(id, action);
    // A decision moves on to the next change to decide (or to the button that sends them).
    this.render(action === null ? `${id}:${this.focusedKey()?.split(':')[1] ?? 'accept'}` : this.nextKey());
  }

  private decideAll(action: 'accept' | 'reject'): void {
    this.editing.clear();
    this.draft.setAll(action);
    this.render(action === 'reject' ? 'reason' : 'submit');
  }

  private startEdit(id: string): void {
    const hunk = this.draft.proposal.hunks.find((h) => h.id === id);
    if (!hunk) return;
    const decision = this.draft.get(id);
    const lines = decision?.action === 'edit' ? (decision.editedLines ?? []) : hunk.newLines;
    this.editing.set(id, lines.join('\n'));
    this.render(`${id}:input`);
  }

  private saveEdit(id: string, text: string): void {
    this.editing.delete(id);
    this.draft.setEdited(id, text === '' ? [] : text.split('\n'));
    this.render(this.nextKey());
  }

  private cancelEdit(id: string): void {
    this.editing.delete(id);
    this.render(`${id}:edit`);
  }

  private submit(): void {
    if (this.sent || !this.draft.complete()) return;
    this.sent = true;
    this.render(null);
    this.options.submit(this.draft.outcome());
  }

  /** The next hunk to decide's Accept, else the send button. */
  private nextKey(): string {
    const next = this.draft.undecided()[0];
    return next ? `${next}:accept` : 'submit';
  }

  private focusedKey(): string | null {
    const active = this.el.ownerDocument.activeElement;
    return active instanceof HTMLElement && this.el.contains(active) ? active.getAttr('data-focus') : null;
  }

  private focusKey(key: string): void {
    const target = this.el.querySelector<HTMLElement>(`[data-focus="${CSS.escape(key)}"]`);
    target?.focus({ preventScroll: false });
    if (target instanceof HTMLTextAreaElement) target.setSelectionRange(target.value.length, target.value.length);
  }
}

/** "Edit Projects/Plan.md · 3 changes", "Create Ideas.md", "Move A.md to B/A.md". */
export function titleOf(p: EditProposal): string {
  const count = p.hunks.length > 0 ? ` · ${changesText(p.hunks.length)}` : '';
  switch (p.kind) {
    case 'create':
      return `Create ${p.path}`;
    case 'rename':
      return `Move ${p.path} to ${p.newPath ?? '?'}`;
    case 'append':
      return `Add to ${p.path}${count}`;
    case 'frontmatter':
      return `Change the properties of ${p.path}${count}`;
    default:
      return `Edit ${p.path}${count}`;
  }
}

function stateClass(action: string | undefined): string {
  return action === 'accept' ? 'is-accepted' : action === 'reject' ? 'is-rejected' : action === 'edit' ? 'is-edited' : 'is-undecided';
}

function stateText(action: string | undefined): string {
  return action === 'accept' ? 'Accepted' : action === 'reject' ? 'Rejected' : action === 'edit' ? 'Your text' : 'To decide';
}

/** "2 accepted, 1 rejected". */
function summaryText(draft: ReviewDraft): string {
  const parts: string[] = [];
  const kept = draft.kept();
  const rejected = draft.rejected();
  if (kept > 0) parts.push(`${kept} accepted`);
  if (rejected > 0) parts.push(`${rejected} rejected`);
  return parts.join(', ');
}

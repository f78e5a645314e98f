import { Modal, Notice, setIcon, type App } from 'obsidian';
import { ReviewDraft } from '../core/edits/reviewDraft';
import { ReviewCard } from './view/editReview';
import { renderConflicts } from './view/conflictNote';
import type { EditProposal, Hunk, ReviewOutcome } from '../core/edits/proposal';

export interface ModalReviewRequest {
  readonly title: string;
  /** What is said while the model works ("Asking gpt-4o to apply the reply to Plan.md…"). */
  readonly waiting: string;
  /** Makes the proposal (a model call); the signal aborts when the user closes the modal first. */
  propose(signal: AbortSignal): Promise<{ proposal: EditProposal; meta: string }>;
  /** The last button's words when something is kept (default "Apply N changes"). */
  readonly applyVerb?: string;
}

export interface ModalReviewResult {
  readonly proposal: EditProposal;
  readonly outcome: ReviewOutcome;
}

/**
 * A proposal made outside the chat's turn (apply a reply to a note, edit a selection), reviewed in
 * a modal: first what the model is doing (Escape or Cancel stops it), then the same review card as
 * in the chat. Resolves with the decisions, or null when closed without sending them; a failure of
 * the model is shown in the modal, with its reason.
 */
export function reviewInModal(app: App, request: ModalReviewRequest): Promise<ModalReviewResult | null> {
  return new Promise((resolve) => {
    const modal = new ReviewModal(app, request, resolve);
    modal.open();
  });
}

class ReviewModal extends Modal {
  private readonly controller = new AbortController();
  private settled = false;

  constructor(
    app: App,
    private readonly request: ModalReviewRequest,
    private readonly done: (result: ModalReviewResult | null) => void,
  ) {
    super(app);
  }

  onOpen(): void {
    this.modalEl.addClass('strata-review-modal');
    this.setTitle(this.request.title);
    const body = this.contentEl;
    body.empty();
    const waiting = body.createDiv({ cls: 'strata-review-waiting', attr: { role: 'status' } });
    setIcon(waiting.createSpan({ cls: 'strata-review-waiting-icon' }), 'loader-2');
    waiting.createSpan({ text: this.request.waiting });
    const cancel = body.createDiv({ cls: 'strata-review-submit' }).createEl('button', { cls: 'strata-review-button strata-review-cancel', text: 'Cancel', attr: { type: 'button' } });
    cancel.addEventListener('click', () => this.close());
    cancel.focus();
    this.request.propose(this.controller.signal).then(
      ({ proposal, meta }) => this.showReview(proposal, meta),
      (error: unknown) => this.showError(error),
    );
  }

  private showReview(proposal: EditProposal, meta: string): void {
    if (this.controller.signal.aborted) return;
    const body = this.contentEl;
    body.empty();
    if (proposal.hunks.length === 0 && proposal.kind !== 'rename') {
      body.createDiv({ cls: 'strata-review-meta', text: meta });
      this.message('The model proposed no change: the note stays as it is.');
      return;
    }
    const card = new ReviewCard(body, new ReviewDraft(proposal), {
      meta,
      ...(this.request.applyVerb ? { applyVerb: this.request.applyVerb } : {}),
      submit: (outcome) => {
        this.settle({ proposal, outcome });
        this.close();
      },
    });
    card.focusFirst();
  }

  private showError(error: unknown): void {
    if (this.controller.signal.aborted) return;
    this.contentEl.empty();
    const box = this.contentEl.createDiv({ cls: 'strata-error' });
    setIcon(box.createSpan({ cls: 'strata-error-icon' }), 'alert-triangle');
    box.createSpan({ cls: 'strata-error-text', text: error instanceof Error ? error.message : String(error) });
    this.message(null);
  }

  /** A line of text (if any) and a Close button that has the focus. */
  private message(text: string | null): void {
    if (text) this.contentEl.createDiv({ cls: 'strata-review-note', text });
    const close = this.contentEl.createDiv({ cls: 'strata-review-submit' }).createEl('button', { cls: 'strata-review-button mod-cta', text: 'Close', attr: { type: 'button' } });
    close.addEventListener('click', () => this.close());
    close.focus();
  }

  private settle(result: ModalReviewResult | null): void {
    if (this.settled) return;
    this.settled = true;
    this.done(result);
  }

  onClose(): void {
    this.controller.abort();
    this.contentEl.empty();
    this.settle(null);
  }
}

/** The accepted changes that were not written (the note changed under them), shown again with a copy button each. */
export function showUnwritten(app: App, proposal: EditProposal, conflicts: readonly Hunk[]): void {
  const modal = new Modal(app);
  modal.modalEl.addClass('strata-review-modal');
  modal.setTitle('Changes not written');
  renderConflicts(modal.contentEl, proposal, conflicts, {
    copy: (text) => {
      void navigator.clipboard.writeText(text).then(
        () => new Notice('Copied'),
        () => new Notice('Could not copy to the clipboard'),
      );
    },
  });
  const close = modal.contentEl.createDiv({ cls: 'strata-review-submit' }).createEl('button', { cls: 'strata-review-button mod-cta', text: 'Close', attr: { type: 'button' } });
  close.addEventListener('click', () => modal.close());
  modal.open();
  modal.contentEl.querySelector<HTMLElement>('.strata-conflict-copy')?.focus();
}

import { ReviewCard } from './editReview';
import { renderConflicts } from './conflictNote';
import type { PendingReview, UnwrittenChanges } from './pendingReviews';

/**
 * The proposals the running turn waits on, under its live reply. One card per proposal, kept
 * across renders (the message list rebuilds its children on every change): the card, its edits in
 * progress and its focus survive; a new card takes the focus unless the user is typing elsewhere.
 */
export class ReviewArea {
  private readonly cards = new Map<PendingReview, ReviewCard>();
  private readonly unwritten = new Map<UnwrittenChanges, HTMLElement>();
  private readonly box = createDiv({ cls: 'strata-reviews', attr: { 'aria-label': 'Changes to review' } });

  render(parent: HTMLElement, reviews: readonly PendingReview[], conflicts: readonly UnwrittenChanges[] = [], actions: { copy(text: string): void; dismiss(id: string): void } | null = null): void {
    for (const [review, card] of this.cards) {
      if (!reviews.includes(review)) {
        card.el.remove();
        this.cards.delete(review);
      }
    }
    for (const [entry, el] of this.unwritten) {
      if (!conflicts.includes(entry)) {
        el.remove();
        this.unwritten.delete(entry);
      }
    }
    if (reviews.length === 0 && conflicts.length === 0) {
      this.box.remove();
      return;
    }
    parent.appendChild(this.box);
    let fresh: ReviewCard | null = null;
    for (const review of reviews) {
      let card = this.cards.get(review);
      if (!card) {
        card = new ReviewCard(this.box, review.draft, { again: review.again, submit: (outcome) => review.submit(outcome) });
        this.cards.set(review, card);
        fresh ??= card;
      }
      this.box.appendChild(card.el);
    }
    for (const entry of conflicts) {
      let el = this.unwritten.get(entry);
      if (!el) {
        el = renderConflicts(this.box, entry.proposal, entry.conflicts, { copy: (text) => actions?.copy(text), dismiss: () => actions?.dismiss(entry.proposal.id) });
        this.unwritten.set(entry, el);
      }
      this.box.appendChild(el);
    }
    const active = this.box.ownerDocument.activeElement;
    // Someone writing a message keeps their place; an empty composer hands the focus over.
    const typing = (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && active.value.trim() !== '';
    if (fresh && !this.box.contains(active) && !typing) fresh.focusFirst();
  }

  clear(): void {
    this.cards.clear();
    this.unwritten.clear();
    this.box.empty();
    this.box.remove();
  }
}

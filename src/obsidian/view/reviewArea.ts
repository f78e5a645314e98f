import { ReviewCard } from './editReview';
import type { PendingReview } from './pendingReviews';

/**
 * The proposals the running turn waits on, under its live reply. One card per proposal, kept
 * across renders (the message list rebuilds its children on every change): the card, its edits in
 * progress and its focus survive; a new card takes the focus unless the user is typing elsewhere.
 */
export class ReviewArea {
  private readonly cards = new Map<PendingReview, ReviewCard>();
  private readonly box = createDiv({ cls: 'strata-reviews', attr: { 'aria-label': 'Changes to review' } });

  render(parent: HTMLElement, reviews: readonly PendingReview[]): void {
    for (const [review, card] of this.cards) {
      if (!reviews.includes(review)) {
        card.el.remove();
        this.cards.delete(review);
      }
    }
    if (reviews.length === 0) {
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
    const active = this.box.ownerDocument.activeElement;
    // Someone writing a message keeps their place; an empty composer hands the focus over.
    const typing = (active instanceof HTMLTextAreaElement || active instanceof HTMLInputElement) && active.value.trim() !== '';
    if (fresh && !this.box.contains(active) && !typing) fresh.focusFirst();
  }

  clear(): void {
    this.cards.clear();
    this.box.empty();
    this.box.remove();
  }
}

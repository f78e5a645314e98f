import type { ApplyResult, EditProposal, Hunk, ProposalReviewer, ReviewOutcome } from '../../core/edits/proposal';
import { ReviewDraft } from '../../core/edits/reviewDraft';

/** A proposal the agent waits on, with the user's decisions so far. */
export interface PendingReview {
  readonly draft: ReviewDraft;
  /** Reviewed before under the same id: the note changed meanwhile and these hunks are its conflicts. */
  readonly again: boolean;
  /** The chat it belongs to, when known as it came (an undo the user asked for in the chat shown). */
  readonly chat: string | null;
  submit(outcome: ReviewOutcome): void;
}

/** Accepted changes not written because the user changed those lines meanwhile: shown again until dismissed. */
export interface UnwrittenChanges {
  readonly proposal: EditProposal;
  readonly conflicts: readonly Hunk[];
}

/**
 * The chat view's ProposalReviewer: the agent loop awaits `review`, the view shows each pending
 * proposal (in the order they came) until the user sends their decisions, and a stop of the turn
 * rejects with an AbortError and takes the review away. Decisions are kept here, not in the DOM.
 */
export class PendingReviews implements ProposalReviewer {
  private readonly pending = new Map<string, PendingReview>();
  /** Ids reviewed already: the same id again is the conflicts of an apply, shown as such. */
  private readonly seen = new Set<string>();
  private readonly listeners = new Set<() => void>();
  private readonly unwritten = new Map<string, UnwrittenChanges>();

  /** `chatOf`: the chat a proposal belongs to, as far as the view can tell when it comes (null: unknown). */
  constructor(private readonly chatOf: (proposal: EditProposal) => string | null = () => null) {}

  review(proposal: EditProposal, signal: AbortSignal): Promise<ReviewOutcome> {
    return new Promise<ReviewOutcome>((resolve, reject) => {
      if (signal.aborted) {
        reject(abortError());
        return;
      }
      const again = this.seen.has(proposal.id);
      this.seen.add(proposal.id);
      const onAbort = () => {
        this.remove(proposal.id);
        reject(abortError());
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(proposal.id, {
        draft: new ReviewDraft(proposal),
        again,
        chat: this.chatOf(proposal),
        submit: (outcome) => {
          signal.removeEventListener('abort', onAbort);
          this.remove(proposal.id);
          resolve(outcome);
        },
      });
      this.changed();
    });
  }

  /**
   * A reviewed proposal was applied (the edit session's onSettled): its conflicts, if any, are
   * shown again under the turn, never written blindly.
   */
  settled(proposal: EditProposal, result: ApplyResult): void {
    if (result.conflicts.length === 0) return;
    this.unwritten.set(proposal.id, { proposal, conflicts: result.conflicts });
    this.changed();
  }

  /** Conflicts shown again, oldest first. */
  conflicts(): readonly UnwrittenChanges[] {
    return [...this.unwritten.values()];
  }

  dismiss(id: string): void {
    if (this.unwritten.delete(id)) this.changed();
  }

  /** Pending reviews, oldest first. */
  list(): readonly PendingReview[] {
    return [...this.pending.values()];
  }

  get size(): number {
    return this.pending.size;
  }

  /** Called after each change (a review added, sent or stopped); returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private remove(id: string): void {
    if (this.pending.delete(id)) this.changed();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }
}

function abortError(): DOMException {
  return new DOMException('The review was stopped.', 'AbortError');
}

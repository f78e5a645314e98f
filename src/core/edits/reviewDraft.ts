/**
 * A review in progress: the user's decision on each hunk so far, and their reason. Kept apart from
 * the DOM so a re-render (a new token, another chat shown and back) never loses a decision.
 */
import type { EditProposal, HunkDecision, ReviewOutcome } from './proposal';

/** The id a proposal without hunks (a rename, an empty create) is decided under. */
export const WHOLE_PROPOSAL = 'all';

export class ReviewDraft {
  private readonly decisions = new Map<string, HunkDecision>();
  reason = '';

  constructor(readonly proposal: EditProposal) {}

  /** The ids to decide, in text order. */
  get ids(): readonly string[] {
    return this.proposal.hunks.length > 0 ? this.proposal.hunks.map((h) => h.id) : [WHOLE_PROPOSAL];
  }

  get(id: string): HunkDecision | undefined {
    return this.decisions.get(id);
  }

  set(id: string, action: 'accept' | 'reject'): void {
    this.decisions.set(id, { hunkId: id, action });
  }

  /** The user's own text in place of the hunk's (the same text as proposed counts as an accept). */
  setEdited(id: string, lines: readonly string[]): void {
    const hunk = this.proposal.hunks.find((h) => h.id === id);
    const same = hunk !== undefined && hunk.newLines.length === lines.length && hunk.newLines.every((l, i) => l === lines[i]);
    this.decisions.set(id, same ? { hunkId: id, action: 'accept' } : { hunkId: id, action: 'edit', editedLines: [...lines] });
  }

  /** Back to undecided. */
  clear(id: string): void {
    this.decisions.delete(id);
  }

  setAll(action: 'accept' | 'reject'): void {
    for (const id of this.ids) this.set(id, action);
  }

  /** Ids not decided yet, in text order. */
  undecided(): string[] {
    return this.ids.filter((id) => !this.decisions.has(id));
  }

  /** Hunks that will be written (accepted or edited). */
  kept(): number {
    return this.ids.filter((id) => {
      const d = this.decisions.get(id);
      return d !== undefined && d.action !== 'reject';
    }).length;
  }

  rejected(): number {
    return this.ids.filter((id) => this.decisions.get(id)?.action === 'reject').length;
  }

  complete(): boolean {
    return this.undecided().length === 0;
  }

  /** The outcome once every hunk is decided; the reason only when something was rejected. */
  outcome(): ReviewOutcome {
    if (!this.complete()) throw new Error(`${this.undecided().length} change(s) not decided yet`);
    const decisions = this.ids.map((id) => this.decisions.get(id) as HunkDecision);
    const reason = this.reason.trim();
    return { decisions, ...(reason && this.rejected() > 0 ? { reason } : {}) };
  }
}

/** Every hunk rejected (the user closed the review without deciding): nothing is written. */
export function rejectAllOutcome(proposal: EditProposal, reason?: string): ReviewOutcome {
  const draft = new ReviewDraft(proposal);
  draft.setAll('reject');
  if (reason) draft.reason = reason;
  return draft.outcome();
}

/** "1 change" / "3 changes". */
export function changesText(n: number): string {
  return `${n} change${n === 1 ? '' : 's'}`;
}

/**
 * A change the assistant wants to make to a note (issue 28), as the user reviews it. Plain data: the
 * chat note saves proposals and applied edits, the view renders them, and core applies them. Nothing
 * is written until a review says so (or the chat's write policy applies it without asking).
 */

/** What the change does to the vault. */
export const EDIT_KINDS = ['create', 'edit', 'append', 'frontmatter', 'rename'] as const;
export type EditKind = (typeof EDIT_KINDS)[number];

/**
 * One hunk of a line diff between the base text and the proposed text. Lines carry no line ending;
 * `baseStart` is the 0-based index in the base text's lines of the first line the hunk replaces
 * (for a pure insertion: the line it is inserted before). Context lines are not part of a hunk.
 */
export interface Hunk {
  /** Stable within its proposal ("h1", "h2", ... in text order). */
  readonly id: string;
  readonly baseStart: number;
  readonly baseLines: readonly string[];
  readonly newLines: readonly string[];
}

export interface EditProposal {
  /** Unique within the chat (the tool call id it came from, or a counter for "Apply to note"). */
  readonly id: string;
  readonly kind: EditKind;
  /** Vault-relative, normalized path of the note changed (for a rename: its path before). */
  readonly path: string;
  /** For a rename or move: the new path. */
  readonly newPath?: string;
  /** The note's text the proposal was made from ('' for a create). */
  readonly baseText: string;
  /** Content hash of baseText (src/core/hash.ts), to tell whether the note changed since. */
  readonly baseHash: string;
  /** The whole note as proposed. */
  readonly proposedText: string;
  /** The line diff of baseText → proposedText, in text order. Empty for a pure rename. */
  readonly hunks: readonly Hunk[];
  /** One line for the model and the chat: what the change does ("Edit Projects/Plan.md: 3 hunks"). */
  readonly summary: string;
  /** The agent tool call that proposed it, when one did. */
  readonly toolCallId?: string;
}

/** The user's decision on one hunk: keep it, drop it, or keep it with their own text instead. */
export interface HunkDecision {
  readonly hunkId: string;
  readonly action: 'accept' | 'reject' | 'edit';
  /** For 'edit': the lines the user wrote in place of the hunk's newLines. */
  readonly editedLines?: readonly string[];
}

/** What a review returns: one decision per hunk (a rename or create without hunks: one for id "all"). */
export interface ReviewOutcome {
  readonly decisions: readonly HunkDecision[];
  /** The user's optional reason, told to the model when something was rejected. */
  readonly reason?: string;
}

/**
 * Who decides: the chat view in Obsidian and the workbench, a flag in the inspector, a script in
 * tests. `review` resolves when the user has decided every hunk; it rejects with an AbortError when
 * the turn is stopped.
 */
export interface ProposalReviewer {
  review(proposal: EditProposal, signal: AbortSignal): Promise<ReviewOutcome>;
  /** Told once the reviewed proposal was applied: the view shows the accepted hunks that could not be written (conflicts) again. */
  settled?(proposal: EditProposal, result: ApplyResult): void;
}

/** The result of applying a reviewed proposal to the vault. */
export interface ApplyResult {
  readonly status: 'applied' | 'partly-applied' | 'rejected' | 'conflict';
  /** Hunk ids written. */
  readonly applied: readonly string[];
  /** Hunk ids the user rejected. */
  readonly rejected: readonly string[];
  /** Hunks accepted but not applied because the note changed under them: shown again for review. */
  readonly conflicts: readonly Hunk[];
  /** The record the chat note keeps so the change can be undone, also after reopening (absent when nothing was written). */
  readonly record?: AppliedEdit;
}

/** An applied change as the chat note records it (issue 28: undo after reopening). */
export interface AppliedEdit {
  readonly proposalId: string;
  readonly kind: EditKind;
  readonly path: string;
  readonly newPath?: string;
  /** Hash of the note's text before and after the write: undo restores the exact bytes only when the note still hashes to `afterHash`. */
  readonly beforeHash: string;
  readonly afterHash: string;
  /** The hunks as written (accepted or edited), against the text before the write. */
  readonly hunks: readonly Hunk[];
  /** Set once the edit is undone. */
  readonly undone?: boolean;
}

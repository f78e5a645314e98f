import type { AppliedEdit } from '../../edits/proposal';

/**
 * An edit the chat applied to a note (issue 28), as the chat note keeps it (in its chat data), so
 * the edit can be undone after the chat is reopened: what the change was (the proposal's one line),
 * when, and the hunks written with the note's hashes before and after.
 */
export interface EditEntry extends AppliedEdit {
  readonly at: number;
  readonly summary: string;
  /** The hunks were too large to keep in the chat note: only the hashes are (undo cannot rebuild the text). */
  readonly hunksLeftOut?: boolean;
}

/** Hunks of one kept edit at most this many characters as JSON: a larger edit keeps its hashes only. */
export const KEPT_HUNK_CHARS = 400_000;

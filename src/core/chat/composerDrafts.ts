import type { ContextChip } from '../context/items';

/** What the composer holds for one chat: the words being written, the chips, and the active note's switch. */
export interface ComposerDraft {
  readonly text: string;
  readonly chips: readonly ContextChip[];
  /** The active note as this chat left it, attached or left out (null: as the settings say). */
  readonly activeNote: { readonly path: string; readonly on: boolean } | null;
}

export const EMPTY_DRAFT: ComposerDraft = { text: '', chips: [], activeNote: null };

/**
 * The composer belongs to the chat shown. Each chat keeps its own draft while another is shown (in
 * memory, for the view's life): switching puts the chat left's draft aside and shows the draft of
 * the chat that opens, empty for a new one. While a chat opens the composer belongs to none: it is
 * empty and waits (a message typed for the old chat never goes to the new one).
 */
export class ComposerDrafts {
  private readonly drafts = new Map<string, ComposerDraft>();
  /** The chat the composer's content belongs to; null while a chat opens. */
  private owner: string | null;

  constructor(shown: string) {
    this.owner = shown;
  }

  /** The draft a chat opens with, set before it opens (an imported chat leaves its source note out). */
  prepare(id: string, draft: ComposerDraft): void {
    this.drafts.set(id, draft);
  }

  /**
   * The view's state changed. When the composer now belongs to another chat (or to none, while one
   * opens), the composer's draft (`current`) is put aside for its chat and the draft to show is
   * returned; null when the composer's chat is still the one shown.
   */
  follow(shown: string, opening: boolean, current: () => ComposerDraft): ComposerDraft | null {
    const next = opening ? null : shown;
    if (next === this.owner) return null;
    if (this.owner !== null) this.drafts.set(this.owner, current());
    this.owner = next;
    if (next === null) return EMPTY_DRAFT;
    const draft = this.drafts.get(next) ?? EMPTY_DRAFT;
    this.drafts.delete(next);
    return draft;
  }
}

import type { Component } from 'obsidian';

export interface ChipRowActions {
  /** Take every chip off the next message (undoable). */
  clearAll(): void;
  /** Put back what the last removal (Clear all, Backspace) took. */
  undo(): void;
}

/**
 * The composer's chip row past one line: chips beyond the first row fold behind "+ N more" (which
 * opens the whole list, and "Show less" folds it again), a "Clear all" button, and a line under the
 * row that says what was just removed, with Undo (an aria-live region: a screen reader hears it).
 * The chips themselves are messageChips.ts's; it calls layout() after drawing them.
 */
export class ChipRow {
  readonly moreButton: HTMLButtonElement;
  private readonly clearButton: HTMLButtonElement;
  private readonly noteEl: HTMLElement;
  private readonly noteText: HTMLElement;
  private readonly undoButton: HTMLButtonElement;
  private expanded = false;
  private offersUndo = false;
  private chips: HTMLElement[] = [];
  /** Chips Clear all would take off (the active note when attached, and the user's). */
  private removable = 0;
  private width = -1;

  constructor(
    private readonly rowEl: HTMLElement,
    noteParent: HTMLElement,
    owner: Component,
    private readonly actions: ChipRowActions,
  ) {
    this.moreButton = rowEl.createEl('button', { cls: 'strata-chips-more', attr: { 'aria-expanded': 'false' } });
    this.clearButton = rowEl.createEl('button', { cls: 'strata-chips-clear', text: 'Clear all' });
    this.noteEl = noteParent.createDiv({ cls: 'strata-chips-note', attr: { 'aria-live': 'polite' } });
    this.noteText = this.noteEl.createSpan({ cls: 'strata-chips-note-text' });
    this.undoButton = this.noteEl.createEl('button', { cls: 'strata-chips-undo', text: 'Undo' });
    this.undoButton.hide();
    owner.registerDomEvent(this.moreButton, 'click', () => {
      this.expanded = !this.expanded;
      this.fit();
    });
    owner.registerDomEvent(this.clearButton, 'click', () => {
      this.actions.clearAll();
      // The button is gone with the chips: the focus goes to Undo, one key away from taking it back.
      this.undoButton.focus();
    });
    owner.registerDomEvent(this.undoButton, 'click', () => this.actions.undo());
    // A narrower or wider sidebar fits a different number of chips on the first row.
    if (typeof ResizeObserver !== 'undefined') {
      const observer = new ResizeObserver(() => {
        if (this.rowEl.clientWidth === this.width) return;
        this.width = this.rowEl.clientWidth;
        // Next frame: folding inside the observer's callback would resize what it observes.
        window.requestAnimationFrame(() => this.fit());
      });
      observer.observe(rowEl);
      owner.register(() => observer.disconnect());
    }
  }

  /** The chips were drawn (in order, before the buttons): fold what does not fit; Clear all from two removable chips on. */
  layout(chips: HTMLElement[], removable: number): void {
    this.chips = chips;
    this.removable = removable;
    if (chips.length === 0) this.expanded = false;
    this.fit();
  }

  /**
   * Say what was removed ("Removed “Plan”"), with Undo; null: say nothing (the offer is gone).
   * `undo` false: a line without Undo ("Sending once the page has loaded…").
   */
  say(text: string | null, undo = true): void {
    this.noteText.setText(text ?? '');
    this.offersUndo = text !== null && undo;
    this.undoButton.toggle(this.offersUndo);
    this.noteEl.toggleClass('is-empty', text === null);
  }

  get undoOffered(): boolean {
    return this.offersUndo;
  }

  private fit(): void {
    const chips = this.chips;
    const more = this.moreButton;
    this.rowEl.toggleClass('is-expanded', this.expanded);
    const clearable = this.removable >= 2;
    this.clearButton.toggle(clearable);
    this.clearButton.setAttr('aria-label', `Remove all ${this.removable} attachments from the next message`);
    for (const el of chips) el.show();
    more.hide();
    // Not laid out (the view is hidden): everything shows; the observer fits it once it has a width.
    if (chips.length === 0 || this.rowEl.clientWidth === 0) return;
    const first = chips[0];
    const firstBottom = first.offsetTop + first.offsetHeight;
    const onFirstRow = (el: HTMLElement) => el.offsetTop < firstBottom;
    let moreShown = false;
    const controlsFit = () => (!clearable || onFirstRow(this.clearButton)) && (!moreShown || onFirstRow(more));
    let shown = chips.findIndex((el) => !onFirstRow(el));
    if (shown < 0) shown = chips.length;
    if (this.expanded) {
      // All of them; "Show less" only while there is something to fold.
      const folds = shown < chips.length || !controlsFit();
      more.toggle(folds);
      more.setText('Show less');
      more.setAttr('aria-expanded', 'true');
      more.setAttr('aria-label', 'Show only the first row of attachments');
      return;
    }
    const apply = () => {
      chips.forEach((el, i) => el.toggle(i < shown));
      const hidden = chips.length - shown;
      moreShown = hidden > 0;
      more.toggle(moreShown);
      more.setText(`+ ${hidden} more`);
      more.setAttr('aria-expanded', 'false');
      more.setAttr('aria-label', `Show ${hidden} more attachments`);
    };
    apply();
    while (shown > 1 && !controlsFit()) {
      shown--;
      apply();
    }
  }
}

import { setIcon, type Component } from 'obsidian';
import type { ContextChip } from '../../core/context/items';
import type { ComposerDraft } from '../../core/chat/composerDrafts';
import { urlChipText } from '../../core/context/urlChip';
import type { AttachedPages } from './attachedPages';
import type { AttachedPdfs } from './attachedPdfs';
import { pdfChipText } from '../../core/context/pdf/pdfChip';
import { ChipRow } from './chipRow';
import { chipIcon, chipKey, chipLabel, chipTitle, sameChip } from './format';

export interface MessageChipsHost {
  /** Owner of DOM event registrations (the view): released when it closes. */
  readonly owner: Component;
  /** The web pages attached with `@` (a page chip shows its page's state). */
  readonly pages: AttachedPages;
  /** The PDFs attached (a PDF chip shows its pages, or that it has no text layer). */
  readonly pdfs: AttachedPdfs;
  /** Whether the active note is attached by default (settings). */
  attachActiveNoteDefault(): boolean;
  /** The chips the next message carries changed (drawn again). */
  changed(): void;
  /** Back to the text box (after Undo). */
  focus(): void;
  /** A chip's ✕ was clicked: the composer removes it (remove()), and sends a message that waited for its page. */
  removeChip(chip: ContextChip): void;
  /** Issue 31's additions to a user's chip once drawn (kindChips.ts: a canvas's "Attach linked notes", a note's Dataview blocks). */
  decorate?(chip: ContextChip, el: HTMLElement): void;
}

/**
 * The chips the next message carries: the note open in the editor (attached by default, toggled on
 * its chip), then the user's chips; removal (✕, Clear all, Backspace) says what went, with Undo.
 * The row's own buttons and note are chipRow.ts.
 */
export class MessageChips {
  private readonly el: HTMLElement;
  private readonly row: ChipRow;
  private chips: ContextChip[] = [];
  private activeNote: string | null = null;
  private activeNoteOn = true;
  /** What the last removal (Clear all, Backspace) took, until Undo or the message is sent. */
  private removed: { chips: ContextChip[]; activeNoteOn: boolean } | null = null;

  /** `parent`: the composer (the row's note goes there). */
  constructor(
    parent: HTMLElement,
    private readonly host: MessageChipsHost,
  ) {
    this.activeNoteOn = host.attachActiveNoteDefault();
    this.el = parent.createDiv({ cls: 'strata-chips' });
    this.row = new ChipRow(this.el, parent, host.owner, { clearAll: () => this.clearAll(), undo: () => this.undo() });
  }

  /** The user's chips (the active note aside). */
  get list(): readonly ContextChip[] {
    return this.chips;
  }

  get activeNotePath(): string | null {
    return this.activeNote;
  }

  /** A removal can be taken back. */
  get canUndo(): boolean {
    return this.removed !== null;
  }

  /** Say something under the row (aria-live); `undo`: with the Undo button. */
  say(text: string | null, undo = true): void {
    this.row.say(text, undo);
  }

  /** Add a chip, not drawn yet (the active note's chip turns it on). */
  put(chip: ContextChip): void {
    if (this.activeNote && chip.kind === 'note' && chip.path === this.activeNote) {
      this.activeNoteOn = true;
    } else if (!this.chips.some((c) => sameChip(c, chip))) {
      this.chips.push(chip);
    }
  }

  remove(chip: ContextChip): void {
    this.chips = this.chips.filter((c) => !sameChip(c, chip));
    this.render();
  }

  /** The note open in the editor (null: none). Attached by default, toggled on its chip. */
  setActiveNote(path: string | null): void {
    if (path === this.activeNote) return;
    this.activeNote = path;
    this.activeNoteOn = this.host.attachActiveNoteDefault();
    this.render();
  }

  /** Chips the next message carries: the active note first (when on), then the user's chips. */
  current(): ContextChip[] {
    const out: ContextChip[] = [];
    // Marked active: its embedded images are sent (to a model that accepts images).
    if (this.activeNote && this.activeNoteOn) out.push({ kind: 'note', path: this.activeNote, active: true });
    for (const chip of this.chips) {
      const sent = this.host.pages.sendable(chip);
      if (sent && !out.some((c) => sameChip(c, sent))) out.push(sent);
    }
    return out;
  }

  /** The chips of a chat's draft. */
  draft(): Pick<ComposerDraft, 'chips' | 'activeNote'> {
    return { chips: [...this.chips], activeNote: this.activeNote ? { path: this.activeNote, on: this.activeNoteOn } : null };
  }

  /** Show a chat's draft's chips; the active note's switch as that chat left it, if it is still the active note. */
  setDraft(draft: ComposerDraft): void {
    this.chips = [...draft.chips];
    this.activeNoteOn = draft.activeNote && draft.activeNote.path === this.activeNote ? draft.activeNote.on : this.host.attachActiveNoteDefault();
    this.render();
  }

  /** Put back the chips of a message the chat could not take. */
  restore(chips: readonly ContextChip[]): void {
    for (const chip of chips) {
      if (chip.kind === 'note' && chip.path === this.activeNote) this.activeNoteOn = true;
      else if (!this.chips.some((c) => sameChip(c, chip))) this.chips.push(chip);
    }
    this.render();
  }

  /** The message went with them: the row starts empty (the active note stays as it is). */
  sent(): void {
    this.chips = [];
    this.removed = null;
    this.row.say(null);
    this.render();
  }

  render(): void {
    for (const el of Array.from(this.el.querySelectorAll(':scope > .strata-chip'))) el.remove();
    if (this.activeNote) {
      const chip: ContextChip = { kind: 'note', path: this.activeNote };
      const el = this.chipEl(chip, this.activeNoteOn ? 'Active note: attached. Click to leave it out.' : 'Active note: not attached. Click to attach it.');
      el.addClass('is-active-note');
      el.toggleClass('is-off', !this.activeNoteOn);
      const toggle = el.createEl('button', {
        cls: 'strata-chip-toggle clickable-icon',
        attr: { 'aria-label': this.activeNoteOn ? 'Leave the active note out' : 'Attach the active note' },
      });
      setIcon(toggle, this.activeNoteOn ? 'x' : 'plus');
      toggle.addEventListener('click', () => {
        this.activeNoteOn = !this.activeNoteOn;
        this.render();
      });
    }
    for (const chip of this.chips) {
      const page = chip.kind === 'url' ? this.host.pages.stateOf(chip.url) : chip.kind === 'pdf' ? this.host.pdfs.stateOf(chip.path) : undefined;
      const text = chip.kind === 'url' ? urlChipText(chip, this.host.pages.stateOf(chip.url)) : chip.kind === 'pdf' ? pdfChipText(chip.path, this.host.pdfs.stateOf(chip.path)) : null;
      const el = this.chipEl(chip, text?.tooltip ?? chipTitle(chip), text?.label, page?.state === 'loading' ? 'loader-2' : page?.state === 'error' ? 'alert-triangle' : undefined);
      if (page?.state === 'loading') {
        el.addClass('is-loading');
        el.setAttr('aria-busy', 'true');
      } else if (page?.state === 'error') {
        el.addClass('is-error');
      } else if (page?.state === 'no-text') {
        el.addClass('is-no-text');
      }
      const remove = el.createEl('button', { cls: 'strata-chip-remove clickable-icon', attr: { 'aria-label': `Remove ${this.labelOf(chip)}` } });
      setIcon(remove, 'x');
      remove.addEventListener('click', () => this.host.removeChip(chip));
      this.host.decorate?.(chip, el);
    }
    const drawn = Array.from(this.el.querySelectorAll<HTMLElement>(':scope > .strata-chip'));
    this.el.toggleClass('is-empty', drawn.length === 0);
    this.row.layout(drawn, this.chips.length + (this.activeNote && this.activeNoteOn ? 1 : 0));
    this.host.changed();
  }

  /** Clear all: every chip off the next message (the active note left out too), said, with Undo. */
  private clearAll(): void {
    const count = this.chips.length + (this.activeNote && this.activeNoteOn ? 1 : 0);
    if (count === 0) return;
    this.removed = { chips: [...this.chips], activeNoteOn: this.activeNoteOn };
    this.chips = [];
    if (this.activeNote) this.activeNoteOn = false;
    this.row.say(count === 1 ? 'Removed the attachment.' : `Removed all ${count} attachments.`);
    this.render();
  }

  /** Backspace in an empty composer: the last chip goes (the active note last of all), said aloud, with Undo. */
  removeLast(): boolean {
    const last = this.chips[this.chips.length - 1];
    if (!last && !(this.activeNote && this.activeNoteOn)) return false;
    this.removed = { chips: [...this.chips], activeNoteOn: this.activeNoteOn };
    if (last) this.chips = this.chips.slice(0, -1);
    else this.activeNoteOn = false;
    const label = last ? this.labelOf(last) : chipLabel({ kind: 'note', path: this.activeNote ?? '' });
    this.row.say(last ? `Removed “${label}”.` : `Left out the active note “${label}”.`);
    this.render();
    return true;
  }

  undo(): void {
    const removed = this.removed;
    if (!removed) return;
    this.removed = null;
    // Chips added since stay; the removed ones come back in their place.
    const added = this.chips.filter((c) => !removed.chips.some((r) => sameChip(r, c)));
    this.chips = [...removed.chips, ...added];
    if (removed.activeNoteOn) this.activeNoteOn = true;
    this.row.say(null);
    this.render();
    this.host.focus();
  }

  /** A chip's label as shown (a page: its title once loaded, its reason once failed). */
  private labelOf(chip: ContextChip): string {
    if (chip.kind === 'pdf') return pdfChipText(chip.path, this.host.pdfs.stateOf(chip.path)).label;
    return chip.kind === 'url' ? urlChipText(chip, this.host.pages.stateOf(chip.url)).label : chipLabel(chip);
  }

  private chipEl(chip: ContextChip, title: string, label = chipLabel(chip), iconId = chipIcon(chip)): HTMLElement {
    const el = this.el.createDiv({ cls: `strata-chip is-${chip.kind}`, attr: { 'aria-label': title, 'data-chip': chipKey(chip) } });
    // Chips go before the row's own buttons ("+ N more", Clear all), which keep their focus.
    this.el.insertBefore(el, this.row.moreButton);
    const icon = el.createSpan({ cls: 'strata-chip-icon' });
    setIcon(icon, iconId);
    el.createSpan({ cls: 'strata-chip-label', text: label });
    return el;
  }
}

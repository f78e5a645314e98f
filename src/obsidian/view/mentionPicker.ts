import { setIcon, type App } from 'obsidian';
import type { ContextChip } from '../../core/context/items';
import type { Candidate } from '../../core/fuzzy';
import { urlMentionAt } from '../../core/context/urlChip';
import { chipIcon, chipKey } from './format';
import { matchMentions, mentionAt, urlMention, vaultMentions, type Mention } from './mentionSource';

export interface MentionHost {
  readonly app: App;
  /** The folder chats are saved in (normalized; null: none): its notes are not offered. */
  chatFolder?(): string | null;
  /** Whether web pages can be fetched: then an address after `@` offers "Attach web page". */
  offersPages(): boolean;
  /** A mention was picked: its text is in the message, the picker closed; the chip is the host's to add. */
  picked(chip: ContextChip): void;
}

/**
 * The `@` picker: typing `@` lists the vault's notes, folders and tags (fuzzy), or "Attach web
 * page" for an address typed or pasted after `@`; arrows move, Enter or Tab picks, Escape closes.
 * Picking leaves the mention in the words and attaches it as a chip. The text after `@` is searched
 * whole, spaces included ("@Lesson 4"). Enter with nothing matching sends nothing: it closes the
 * picker and leaves the text; typing on after that (or after Escape) does not reopen it for that
 * `@`, so a second Enter sends the text as written.
 */
export class MentionPicker {
  private mention: { start: number; candidates: Candidate<Mention>[]; matches: Mention[]; selected: number } | null = null;
  /** The mention the user closed (Enter on no match, Escape): not reopened while they type on after it. */
  private dismissed: { start: number; query: string } | null = null;

  /** `el`: the list (`.strata-suggest`, placed by the composer above its text box). */
  constructor(
    private readonly el: HTMLElement,
    private readonly textarea: HTMLTextAreaElement,
    private readonly host: MentionHost,
  ) {}

  /** Keys while open: true when the picker handled the key (the composer does nothing more). */
  onKeyDown(event: KeyboardEvent): boolean {
    if (this.mention && this.mention.matches.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const n = this.mention.matches.length;
        this.mention.selected = (this.mention.selected + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
        this.render();
        return true;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        this.pick(this.mention.matches[this.mention.selected]);
        return true;
      }
    }
    // Enter on "No matching notes" picks nothing and sends nothing: the picker closes, the text stays.
    if (this.mention && event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.dismiss();
      return true;
    }
    if (this.mention && event.key === 'Escape') {
      event.preventDefault();
      this.dismiss();
      return true;
    }
    return false;
  }

  /** After the text changed: opens, updates or closes the picker for the mention before the caret. */
  update(): void {
    const caret = this.textarea.selectionStart ?? this.textarea.value.length;
    const before = this.textarea.value.slice(0, caret);
    // `@` and a typed or pasted web address (which may hold an `@` of its own): "Attach web page" alone.
    const url = this.host.offersPages() ? urlMentionAt(before) : null;
    if (url) {
      if (!this.mention || this.mention.start !== url.start) {
        this.mention = { start: url.start, candidates: vaultMentions(this.host.app, this.host.chatFolder?.() ?? null), matches: [], selected: 0 };
      }
      this.mention.matches = [urlMention(url.url)];
      this.mention.selected = 0;
      this.render();
      return;
    }
    const at = this.typing(before);
    if (!at) {
      this.close();
      return;
    }
    const start = at.start;
    if (!this.mention || this.mention.start !== start) {
      this.mention = { start, candidates: vaultMentions(this.host.app, this.host.chatFolder?.() ?? null), matches: [], selected: 0 };
    }
    this.mention.matches = matchMentions(at.query, this.mention.candidates);
    this.mention.selected = Math.min(this.mention.selected, Math.max(0, this.mention.matches.length - 1));
    this.render();
  }

  /** The mention typed before the caret that the picker follows: null when none, or the user closed it and typed on. */
  typing(before: string): { start: number; query: string } | null {
    const at = mentionAt(before);
    const dismissed = this.dismissed;
    if (at && dismissed && at.start === dismissed.start && at.query.startsWith(dismissed.query)) return null;
    this.dismissed = null;
    return at;
  }

  /** Closed by the user: the text stays as typed, and the picker stays closed for this mention. */
  private dismiss(): void {
    const mention = this.mention;
    if (!mention) return;
    const caret = this.textarea.selectionStart ?? this.textarea.value.length;
    this.dismissed = { start: mention.start, query: this.textarea.value.slice(mention.start + 1, caret) };
    this.close();
  }

  close(): void {
    if (!this.mention) return;
    this.mention = null;
    this.el.empty();
    this.el.hide();
  }

  private render(): void {
    const mention = this.mention;
    this.el.empty();
    if (!mention) {
      this.el.hide();
      return;
    }
    this.el.show();
    if (mention.matches.length === 0) {
      this.el.createDiv({ cls: 'strata-suggest-empty', text: 'No matching notes, folders or tags' });
      return;
    }
    mention.matches.forEach((match, index) => {
      const item = this.el.createDiv({ cls: 'strata-suggest-item', attr: { role: 'option', 'data-chip': chipKey(match.chip) } });
      item.toggleClass('is-selected', index === mention.selected);
      if (match.chip.kind === 'url') {
        item.addClass('is-url');
        item.setAttr('aria-label', `${match.label} ${match.detail}`);
      }
      const icon = item.createSpan({ cls: 'strata-suggest-icon' });
      setIcon(icon, chipIcon(match.chip));
      item.createSpan({ cls: 'strata-suggest-label', text: match.label });
      if (match.detail) item.createSpan({ cls: 'strata-suggest-detail', text: match.detail });
      item.addEventListener('mousedown', (event) => {
        event.preventDefault();
        this.pick(match);
      });
    });
    this.el.querySelector('.is-selected')?.scrollIntoView?.({ block: 'nearest' });
  }

  private pick(match: Mention | undefined): void {
    const mention = this.mention;
    if (!mention || !match) return;
    const value = this.textarea.value;
    const caret = this.textarea.selectionStart ?? value.length;
    // The mention stays in the words ("Compare [[Ventilation]] with …") as well as becoming a chip.
    const rest = value.slice(caret);
    const inserted = /^\s/.test(rest) ? match.text : `${match.text} `;
    this.textarea.value = value.slice(0, mention.start) + inserted + rest;
    const end = mention.start + inserted.length;
    this.textarea.setSelectionRange(end, end);
    this.close();
    this.host.picked(match.chip);
  }
}

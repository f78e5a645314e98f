import { setIcon, type App, type Component } from 'obsidian';
import type { ContextChip } from '../../core/context/items';
import type { Candidate } from '../../core/fuzzy';
import { ChipRow } from './chipRow';
import type { ComposerDraft } from '../../core/chat/composerDrafts';
import { chipIcon, chipLabel, sameChip } from './format';
import { matchMentions, urlMention, vaultMentions, type Mention } from './mentionSource';
import type { FetchedPage } from '../../core/ports/toolHost';
import { fetchFailure, pageOutcome, shortUrl, urlChipText, urlMentionAt, type PageState, type UrlChip } from '../../core/context/urlChip';
import { insertExpansion, SlashPicker, type PromptSource } from './slashPicker';
import type { PromptExpansion } from '../../core/slashPrompts/expand';

export interface ComposerHost {
  readonly app: App;
  /** Owner of DOM event registrations (the view): released when it closes. */
  readonly owner: Component;
  onSend(text: string, chips: ContextChip[]): void;
  onStop(): void;
  /** Whether the active note is attached by default (settings). */
  attachActiveNoteDefault(): boolean;
  /** The chips the next message carries changed (the usage line measures them). */
  onChipsChanged?(): void;
  /** The folder chats are saved in (normalized; null: none): its notes are not offered by `@`. */
  chatFolder?(): string | null;
  /** Custom prompts for the `/` picker (none: `/` is plain text). */
  readonly prompts?: PromptSource;
  /** Fetch a web page as markdown (requestUrl + htmlToMarkdown); absent: `@` offers no web pages. */
  readonly fetchPage?: (url: string, signal: AbortSignal) => Promise<FetchedPage>;
}

/**
 * The composer: context chips, a multi-line textarea (Enter sends, Shift+Enter breaks the line),
 * an `@` picker of notes, folders and tags (and "Attach web page" for an address typed or pasted
 * after `@`), and the send / stop button.
 */
const PLACEHOLDER = 'Ask about your notes. Type @ to attach a note, folder, tag or web page, / to run a prompt.';

export class Composer {
  readonly el: HTMLElement;
  private chipsEl: HTMLElement;
  private suggestEl: HTMLElement;
  readonly textarea: HTMLTextAreaElement;
  private sendButton: HTMLButtonElement;
  private stopButton: HTMLButtonElement;
  private chips: ContextChip[] = [];
  private activeNote: string | null = null;
  private activeNoteOn = true;
  private busy = false;
  private opening = false;
  /** Why sending cannot work (no provider or key), or null. */
  private blocked: string | null = null;
  private mention: { start: number; candidates: Candidate<Mention>[]; matches: Mention[]; selected: number } | null = null;
  private chipRow: ChipRow;
  /** What the last removal (Clear all, Backspace) took, until Undo or the message is sent. */
  private removed: { chips: ContextChip[]; activeNoteOn: boolean } | null = null;
  private slash: SlashPicker | null = null;
  /** Web pages attached with `@`, by address: loading, attached (with their text) or failed. Kept for the view's life: a page is fetched once. */
  private pages = new Map<string, PageState>();
  /** Stops waiting for the pages being fetched when the view closes. */
  private readonly fetches = new AbortController();
  /** Enter was pressed while a page was loading: the message goes once every page has settled. */
  private sendWhenLoaded = false;

  constructor(
    parent: HTMLElement,
    private readonly host: ComposerHost,
  ) {
    this.activeNoteOn = host.attachActiveNoteDefault();
    this.el = parent.createDiv({ cls: 'strata-composer' });
    this.chipsEl = this.el.createDiv({ cls: 'strata-chips' });
    this.chipRow = new ChipRow(this.chipsEl, this.el, host.owner, { clearAll: () => this.clearAll(), undo: () => this.undoRemoval() });
    this.suggestEl = this.el.createDiv({ cls: 'strata-suggest' });
    this.suggestEl.hide();
    const row = this.el.createDiv({ cls: 'strata-composer-row' });
    this.textarea = row.createEl('textarea', {
      cls: 'strata-input',
      attr: { rows: '3', placeholder: PLACEHOLDER, 'aria-label': 'Message' },
    });
    const actions = row.createDiv({ cls: 'strata-composer-actions' });
    this.sendButton = actions.createEl('button', { cls: 'strata-send mod-cta', attr: { 'aria-label': 'Send' } });
    setIcon(this.sendButton, 'send-horizontal');
    this.stopButton = actions.createEl('button', { cls: 'strata-stop mod-warning', attr: { 'aria-label': 'Stop the reply' } });
    setIcon(this.stopButton, 'square');
    this.stopButton.hide();
    if (host.prompts) {
      this.slash = new SlashPicker(this.el, this.textarea, { source: host.prompts, activeNote: () => this.activeNote, addChip: (chip) => this.addChip(chip) });
    }

    const owner = host.owner;
    owner.register(() => this.fetches.abort());
    owner.registerDomEvent(this.textarea, 'keydown', (event) => this.onKeyDown(event));
    owner.registerDomEvent(this.textarea, 'input', () => this.onInput());
    owner.registerDomEvent(this.textarea, 'blur', () => {
      // Let a click on a suggestion land before the list closes; if the focus is back by then (a
      // click on a chip's ✕, then typing `@` at once), the picker being typed into stays open.
      window.setTimeout(() => {
        if (this.textarea.ownerDocument.activeElement !== this.textarea) {
          this.closeMention();
          this.slash?.close();
        }
      }, 150);
    });
    owner.registerDomEvent(this.sendButton, 'click', () => {
      this.submit();
    });
    owner.registerDomEvent(this.stopButton, 'click', () => host.onStop());
    this.renderChips();
  }

  // ---- chips -----------------------------------------------------------------------------

  addChip(chip: ContextChip): void {
    if (this.activeNote && chip.kind === 'note' && chip.path === this.activeNote) {
      this.activeNoteOn = true;
    } else if (!this.chips.some((c) => sameChip(c, chip))) {
      this.chips.push(chip);
    }
    if (chip.kind === 'url') this.fetchPage(chip);
    this.renderChips();
  }

  removeChip(chip: ContextChip): void {
    this.chips = this.chips.filter((c) => !sameChip(c, chip));
    this.renderChips();
    this.pageSettled();
  }

  // ---- web pages attached with @ ---------------------------------------------------------

  /** Fetch a URL chip's page (once: a page attached or loading is not fetched again; a failed one is retried). */
  private fetchPage(chip: UrlChip): void {
    const fetchPage = this.host.fetchPage;
    // A chip that carries its text (a message put back after a failed send) is attached as it is.
    if (chip.content !== undefined || !fetchPage) return;
    const known = this.pages.get(chip.url);
    if (known && known.state !== 'error') return;
    this.pages.set(chip.url, { state: 'loading' });
    const signal = this.fetches.signal;
    void fetchPage(chip.url, signal)
      .then(
        (page) => pageOutcome(chip.url, page),
        (error: unknown) => fetchFailure(error),
      )
      .then((state) => {
        if (signal.aborted) return;
        this.pages.set(chip.url, state);
        this.renderChips();
        const shown = this.chips.some((c) => sameChip(c, chip));
        const sent = this.pageSettled();
        // Said under the row too (aria-live): the chip may be folded behind "+ N more".
        if (state.state === 'error' && (shown || sent)) {
          this.chipRow.say(`“${shortUrl(chip.url)}” is not attached: ${state.reason}.${sent ? ' The message went without it.' : ''}`, false);
        }
      });
  }

  /** A chip as the next message carries it: a page with its text; a page loading or failed is not attached (null). */
  private sendable(chip: ContextChip): ContextChip | null {
    if (chip.kind !== 'url' || chip.content !== undefined) return chip;
    const page = this.pages.get(chip.url);
    if (!page) return chip;
    return page.state === 'ready' ? page.chip : null;
  }

  private pageLoading(): boolean {
    return this.chips.some((c) => c.kind === 'url' && this.pages.get(c.url)?.state === 'loading');
  }

  /** A page finished loading (or its chip was removed): a message waiting for it goes now (true: it went). */
  private pageSettled(): boolean {
    if (!this.sendWhenLoaded || this.pageLoading()) return false;
    this.sendWhenLoaded = false;
    this.chipRow.say(null);
    return this.submit();
  }

  /** A chip's label as shown (a page: its title once loaded, its reason once failed). */
  private labelOf(chip: ContextChip): string {
    return chip.kind === 'url' ? urlChipText(chip, this.pages.get(chip.url)).label : chipLabel(chip);
  }

  /** The note open in the editor (null: none). Attached by default, toggled on its chip. */
  setActiveNote(path: string | null): void {
    if (path === this.activeNote) return;
    this.activeNote = path;
    this.activeNoteOn = this.host.attachActiveNoteDefault();
    this.renderChips();
  }

  /** Chips the next message carries: the active note first (when on), then the user's chips. */
  currentChips(): ContextChip[] {
    const out: ContextChip[] = [];
    // Marked active: its embedded images are sent (to a model that accepts images).
    if (this.activeNote && this.activeNoteOn) out.push({ kind: 'note', path: this.activeNote, active: true });
    for (const chip of this.chips) {
      const sent = this.sendable(chip);
      if (sent && !out.some((c) => sameChip(c, sent))) out.push(sent);
    }
    return out;
  }

  private renderChips(): void {
    for (const el of Array.from(this.chipsEl.querySelectorAll(':scope > .strata-chip'))) el.remove();
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
        this.renderChips();
      });
    }
    for (const chip of this.chips) {
      const page = chip.kind === 'url' ? this.pages.get(chip.url) : undefined;
      const text = chip.kind === 'url' ? urlChipText(chip, page) : null;
      const el = this.chipEl(chip, text?.tooltip ?? chipTitle(chip), text?.label, page?.state === 'loading' ? 'loader-2' : page?.state === 'error' ? 'alert-triangle' : undefined);
      if (page?.state === 'loading') {
        el.addClass('is-loading');
        el.setAttr('aria-busy', 'true');
      } else if (page?.state === 'error') {
        el.addClass('is-error');
      }
      const remove = el.createEl('button', { cls: 'strata-chip-remove clickable-icon', attr: { 'aria-label': `Remove ${this.labelOf(chip)}` } });
      setIcon(remove, 'x');
      remove.addEventListener('click', () => this.removeChip(chip));
    }
    const drawn = Array.from(this.chipsEl.querySelectorAll<HTMLElement>(':scope > .strata-chip'));
    this.chipsEl.toggleClass('is-empty', drawn.length === 0);
    this.chipRow.layout(drawn, this.chips.length + (this.activeNote && this.activeNoteOn ? 1 : 0));
    this.host.onChipsChanged?.();
  }

  /** Clear all: every chip off the next message (the active note left out too), said, with Undo. */
  private clearAll(): void {
    const count = this.chips.length + (this.activeNote && this.activeNoteOn ? 1 : 0);
    if (count === 0) return;
    this.removed = { chips: [...this.chips], activeNoteOn: this.activeNoteOn };
    this.chips = [];
    if (this.activeNote) this.activeNoteOn = false;
    this.chipRow.say(count === 1 ? 'Removed the attachment.' : `Removed all ${count} attachments.`);
    this.renderChips();
  }

  /** Backspace in an empty composer: the last chip goes (the active note last of all), said aloud, with Undo. */
  private removeLastChip(): boolean {
    const last = this.chips[this.chips.length - 1];
    if (!last && !(this.activeNote && this.activeNoteOn)) return false;
    this.removed = { chips: [...this.chips], activeNoteOn: this.activeNoteOn };
    if (last) this.chips = this.chips.slice(0, -1);
    else this.activeNoteOn = false;
    const label = last ? this.labelOf(last) : chipLabel({ kind: 'note', path: this.activeNote ?? '' });
    this.chipRow.say(last ? `Removed “${label}”.` : `Left out the active note “${label}”.`);
    this.renderChips();
    return true;
  }

  private undoRemoval(): void {
    const removed = this.removed;
    if (!removed) return;
    this.removed = null;
    // Chips added since stay; the removed ones come back in their place.
    const added = this.chips.filter((c) => !removed.chips.some((r) => sameChip(r, c)));
    this.chips = [...removed.chips, ...added];
    if (removed.activeNoteOn) this.activeNoteOn = true;
    this.chipRow.say(null);
    this.renderChips();
    this.textarea.focus();
  }

  private chipEl(chip: ContextChip, title: string, label = chipLabel(chip), iconId = chipIcon(chip)): HTMLElement {
    const el = this.chipsEl.createDiv({ cls: `strata-chip is-${chip.kind}`, attr: { 'aria-label': title, 'data-chip': chipKey(chip) } });
    // Chips go before the row's own buttons ("+ N more", Clear all), which keep their focus.
    this.chipsEl.insertBefore(el, this.chipRow.moreButton);
    const icon = el.createSpan({ cls: 'strata-chip-icon' });
    setIcon(icon, iconId);
    el.createSpan({ cls: 'strata-chip-label', text: label });
    return el;
  }

  // ---- sending ---------------------------------------------------------------------------

  setBusy(busy: boolean): void {
    this.busy = busy;
    this.sendButton.toggle(!busy);
    this.stopButton.toggle(busy);
  }

  /**
   * A saved chat is opening: the composer belongs to the chat shown, so it waits (disabled, saying
   * why); the view has put the old chat's draft aside (composerDrafts.ts).
   */
  setOpening(opening: boolean): void {
    if (opening === this.opening) return;
    this.opening = opening;
    this.el.toggleClass('is-opening', opening);
    this.setBlocked(this.blocked);
  }

  /** Sending cannot work (no provider or API key): the composer says why and waits (null: it can send). */
  setBlocked(reason: string | null): void {
    this.blocked = reason;
    this.el.toggleClass('is-blocked', reason !== null);
    this.textarea.disabled = this.opening || reason !== null;
    this.sendButton.disabled = this.opening || reason !== null;
    this.textarea.setAttr('placeholder', this.opening ? 'Opening the chat…' : (reason ?? PLACEHOLDER));
  }

  /** What the composer holds for the chat shown: put aside when another chat is shown. */
  draft(): ComposerDraft {
    return { text: this.textarea.value, chips: [...this.chips], activeNote: this.activeNote ? { path: this.activeNote, on: this.activeNoteOn } : null };
  }

  /** Show a chat's draft (empty for a new chat); the active note's switch as that chat left it, if it is still the active note. */
  setDraft(draft: ComposerDraft): void {
    this.closeMention();
    this.sendWhenLoaded = false;
    this.textarea.value = draft.text;
    this.chips = [...draft.chips];
    this.activeNoteOn = draft.activeNote && draft.activeNote.path === this.activeNote ? draft.activeNote.on : this.host.attachActiveNoteDefault();
    this.renderChips();
  }

  /** Put a message the chat could not take back in the composer, as it was. */
  restore(text: string, chips: readonly ContextChip[]): void {
    if (!this.textarea.value.trim()) this.textarea.value = text;
    for (const chip of chips) {
      if (chip.kind === 'note' && chip.path === this.activeNote) this.activeNoteOn = true;
      else if (!this.chips.some((c) => sameChip(c, chip))) this.chips.push(chip);
    }
    this.renderChips();
  }

  /** Send the message (true: it went). */
  private submit(): boolean {
    if (this.busy || this.opening) return false;
    const text = this.textarea.value;
    if (!text.trim()) return false;
    if (this.pageLoading()) {
      // The page the user attached goes with the message: it waits for it (a fetch gives up after 30 s).
      this.sendWhenLoaded = true;
      this.chipRow.say('Sending once the page has loaded…', false);
      return false;
    }
    this.sendWhenLoaded = false;
    const chips = this.currentChips();
    this.textarea.value = '';
    this.chips = [];
    this.removed = null;
    this.chipRow.say(null);
    this.renderChips();
    this.host.onSend(text, chips);
    return true;
  }

  setText(text: string): void {
    this.textarea.value = text;
    this.textarea.focus();
  }

  focus(): void {
    this.textarea.focus();
  }

  /** A prompt run as a command: its text goes in the composer after any draft, for the user to review and send. */
  insertPrompt(expansion: Extract<PromptExpansion, { ok: true }>): void {
    const draft = this.textarea.value.trimEnd();
    this.textarea.value = draft ? `${draft}\n\n` : '';
    const end = this.textarea.value.length;
    insertExpansion(this.textarea, expansion, end, end, (chip) => this.addChip(chip));
  }

  private onKeyDown(event: KeyboardEvent): void {
    if (this.slash?.onKeyDown(event)) return;
    if (this.mention && this.mention.matches.length > 0) {
      if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
        event.preventDefault();
        const n = this.mention.matches.length;
        this.mention.selected = (this.mention.selected + (event.key === 'ArrowDown' ? 1 : n - 1)) % n;
        this.renderMention();
        return;
      }
      if (event.key === 'Enter' || event.key === 'Tab') {
        event.preventDefault();
        this.pickMention(this.mention.matches[this.mention.selected]);
        return;
      }
    }
    // Enter on "No matching notes" picks nothing and sends nothing: the picker closes, the text stays.
    if (this.mention && event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.closeMention();
      return;
    }
    if (this.mention && event.key === 'Escape') {
      event.preventDefault();
      this.closeMention();
      return;
    }
    if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
      event.preventDefault();
      this.submit();
      return;
    }
    this.chipKeys(event);
  }

  /** Backspace in an empty composer removes the last chip; Ctrl/Cmd+Z there takes the last removal back. */
  private chipKeys(event: KeyboardEvent): void {
    if (this.textarea.value !== '' || event.isComposing) return;
    if (event.key === 'Backspace' && !event.ctrlKey && !event.metaKey && !event.altKey && !event.shiftKey) {
      if (this.removeLastChip()) event.preventDefault();
    } else if (event.key.toLowerCase() === 'z' && (event.ctrlKey || event.metaKey) && !event.shiftKey && this.removed) {
      event.preventDefault();
      this.undoRemoval();
    }
  }

  // ---- the @ picker ----------------------------------------------------------------------

  private onInput(): void {
    // An @ mention being typed wins over the / picker: "/Translate @Plan" attaches Plan.
    const upToCaret = this.textarea.value.slice(0, this.textarea.selectionStart ?? this.textarea.value.length);
    const typingMention = /(^|\s)@[^\s@]*$/.test(upToCaret) || urlMentionAt(upToCaret) !== null;
    if (typingMention) this.slash?.close();
    else if (this.slash?.update()) {
      this.closeMention();
      return;
    }
    const caret = this.textarea.selectionStart ?? this.textarea.value.length;
    const before = this.textarea.value.slice(0, caret);
    // `@` and a typed or pasted web address (which may hold an `@` of its own): "Attach web page" alone.
    const url = this.host.fetchPage ? urlMentionAt(before) : null;
    if (url) {
      if (!this.mention || this.mention.start !== url.start) {
        this.mention = { start: url.start, candidates: vaultMentions(this.host.app, this.host.chatFolder?.() ?? null), matches: [], selected: 0 };
      }
      this.mention.matches = [urlMention(url.url)];
      this.mention.selected = 0;
      this.renderMention();
      return;
    }
    const at = /(^|\s)@([^\s@]*)$/.exec(before);
    if (!at) {
      this.closeMention();
      return;
    }
    const start = caret - at[2].length - 1;
    if (!this.mention || this.mention.start !== start) {
      this.mention = { start, candidates: vaultMentions(this.host.app, this.host.chatFolder?.() ?? null), matches: [], selected: 0 };
    }
    this.mention.matches = matchMentions(at[2], this.mention.candidates);
    this.mention.selected = Math.min(this.mention.selected, Math.max(0, this.mention.matches.length - 1));
    this.renderMention();
  }

  private renderMention(): void {
    const mention = this.mention;
    this.suggestEl.empty();
    if (!mention) {
      this.suggestEl.hide();
      return;
    }
    this.suggestEl.show();
    if (mention.matches.length === 0) {
      this.suggestEl.createDiv({ cls: 'strata-suggest-empty', text: 'No matching notes, folders or tags' });
      return;
    }
    mention.matches.forEach((match, index) => {
      const item = this.suggestEl.createDiv({ cls: 'strata-suggest-item', attr: { role: 'option', 'data-chip': chipKey(match.chip) } });
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
        this.pickMention(match);
      });
    });
    this.suggestEl.querySelector('.is-selected')?.scrollIntoView?.({ block: 'nearest' });
  }

  private pickMention(match: Mention | undefined): void {
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
    this.closeMention();
    this.addChip(match.chip);
    this.textarea.focus();
    // In a "/prompt …" message, the prompt's picker comes back with the mention as its input.
    this.slash?.update();
  }

  private closeMention(): void {
    if (!this.mention) return;
    this.mention = null;
    this.suggestEl.empty();
    this.suggestEl.hide();
  }
}

function chipKey(chip: ContextChip): string {
  switch (chip.kind) {
    case 'note':
    case 'folder':
      return `${chip.kind}:${chip.path}`;
    case 'tag':
      return `tag:${chip.tag}`;
    case 'url':
      return `url:${chip.url}`;
    case 'selection':
      return `selection:${chip.path}#${chip.fromLine}-${chip.toLine}`;
  }
}

function chipTitle(chip: ContextChip): string {
  switch (chip.kind) {
    case 'note':
      return chip.path;
    case 'folder':
      return `Every note in ${chip.path || '/'}`;
    case 'tag':
      return `Every note tagged ${chipLabel(chip)}`;
    case 'url':
      return chip.url;
    case 'selection':
      return chip.fromLine === chip.toLine ? `${chip.path}, line ${chip.fromLine}` : `${chip.path}, lines ${chip.fromLine}-${chip.toLine}`;
  }
}

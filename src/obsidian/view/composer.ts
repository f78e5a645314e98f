import { setIcon, type App, type Component } from 'obsidian';
import type { ContextChip } from '../../core/context/items';
import type { ComposerDraft } from '../../core/chat/composerDrafts';
import { sameChip } from './format';
import { MentionPicker } from './mentionPicker';
import { AttachedPages } from './attachedPages';
import { AttachedPdfs } from './attachedPdfs';
import type { PdfText } from '../../core/ports/vault';
import { MessageChips } from './messageChips';
import { decorateKindChip } from './kindChips';
import { registerComposerDrop } from './composerDrop';
import type { FetchedPage } from '../../core/ports/toolHost';
import { shortUrl, urlMentionAt, type UrlChip } from '../../core/context/urlChip';
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
  /** Read a PDF's text (the vault's PDF reader): its chip shows its pages or that it has no text layer. */
  readonly readPdf?: (path: string) => Promise<PdfText | null>;
}

/**
 * The composer: context chips (messageChips.ts), a multi-line textarea (Enter sends, Shift+Enter
 * breaks the line), an `@` picker of notes, folders and tags (and "Attach web page" for an address
 * typed or pasted after `@`: mentionPicker.ts, attachedPages.ts), the `/` picker of prompts, and the
 * send / stop button.
 */
const PLACEHOLDER = 'Ask about your notes. Type @ to attach a note, folder, tag or web page, / to run a prompt.';

export class Composer {
  readonly el: HTMLElement;
  /** The chips the next message carries. */
  private chips: MessageChips;
  readonly textarea: HTMLTextAreaElement;
  private sendButton: HTMLButtonElement;
  private stopButton: HTMLButtonElement;
  private busy = false;
  private opening = false;
  /** Why sending cannot work (no provider or key), or null. */
  private blocked: string | null = null;
  /** The `@` picker. */
  private mentions: MentionPicker;
  private slash: SlashPicker | null = null;
  /** Web pages attached with `@`. */
  private pages: AttachedPages;
  /** PDFs attached (read once attached, for their chips). */
  private pdfs: AttachedPdfs;
  /** Enter was pressed while a page was loading: the message goes once every page has settled. */
  private sendWhenLoaded = false;

  constructor(
    parent: HTMLElement,
    private readonly host: ComposerHost,
  ) {
    this.pages = new AttachedPages(host.fetchPage);
    this.pdfs = new AttachedPdfs(host.readPdf);
    this.el = parent.createDiv({ cls: 'strata-composer' });
    this.chips = new MessageChips(this.el, {
      owner: host.owner,
      pages: this.pages,
      pdfs: this.pdfs,
      attachActiveNoteDefault: () => host.attachActiveNoteDefault(),
      changed: () => host.onChipsChanged?.(),
      focus: () => this.textarea.focus(),
      removeChip: (chip) => this.removeChip(chip),
      decorate: (chip, el) =>
        decorateKindChip({ app: host.app, add: (chips) => chips.forEach((c) => this.addChip(c)), say: (text) => this.chips.say(text, false) }, chip, el),
    });
    const suggestEl = this.el.createDiv({ cls: 'strata-suggest' });
    suggestEl.hide();
    const row = this.el.createDiv({ cls: 'strata-composer-row' });
    this.textarea = row.createEl('textarea', {
      cls: 'strata-input',
      attr: { rows: '3', placeholder: PLACEHOLDER, 'aria-label': 'Message' },
    });
    const actions = row.createDiv({ cls: 'strata-composer-actions' });
    this.sendButton = actions.createEl('button', { cls: 'strata-send mod-cta', attr: { 'aria-label': 'Send' } });
    setIcon(this.sendButton, 'send-horizontal');
    this.stopButton = actions.createEl('button', { cls: 'strata-stop mod-warning', attr: { 'aria-label': 'Stop the reply: Escape' } });
    setIcon(this.stopButton, 'square');
    this.stopButton.hide();
    this.mentions = new MentionPicker(suggestEl, this.textarea, {
      app: host.app,
      chatFolder: () => host.chatFolder?.() ?? null,
      offersPages: () => host.fetchPage !== undefined,
      picked: (chip) => {
        this.addChip(chip);
        this.textarea.focus();
        // In a "/prompt …" message, the prompt's picker comes back with the mention as its input.
        this.slash?.update();
      },
    });
    if (host.prompts) {
      this.slash = new SlashPicker(this.el, this.textarea, { source: host.prompts, activeNote: () => this.chips.activeNotePath, addChip: (chip) => this.addChip(chip) });
    }

    const owner = host.owner;
    owner.register(() => this.pages.stop());
    owner.register(() => this.pdfs.stop());
    // Notes, PDFs and folders dragged from the file explorer onto the composer become chips.
    registerComposerDrop(owner, this.el, host.app, () => host.chatFolder?.() ?? null, (chips) => {
      for (const chip of chips) this.addChip(chip);
      this.textarea.focus();
    });
    owner.registerDomEvent(this.textarea, 'keydown', (event) => this.onKeyDown(event));
    owner.registerDomEvent(this.textarea, 'input', () => this.onInput());
    owner.registerDomEvent(this.textarea, 'blur', () => {
      // Let a click on a suggestion land before the list closes; if the focus is back by then (a
      // click on a chip's ✕, then typing `@` at once), the picker being typed into stays open.
      window.setTimeout(() => {
        if (this.textarea.ownerDocument.activeElement !== this.textarea) {
          this.mentions.close();
          this.slash?.close();
        }
      }, 150);
    });
    owner.registerDomEvent(this.sendButton, 'click', () => {
      this.submit();
    });
    owner.registerDomEvent(this.stopButton, 'click', () => host.onStop());
    this.chips.render();
  }

  // ---- chips -----------------------------------------------------------------------------

  addChip(chip: ContextChip): void {
    this.chips.put(chip);
    // Fetched before the chips are drawn: a page being fetched shows as loading.
    if (chip.kind === 'url') this.fetchPage(chip);
    if (chip.kind === 'pdf') this.readPdf(chip.path);
    this.chips.render();
  }

  removeChip(chip: ContextChip): void {
    this.chips.remove(chip);
    this.pageSettled();
  }

  // ---- web pages attached with @ ---------------------------------------------------------

  /** Fetch a URL chip's page; once it has settled, its chip shows how, and a message waiting for it goes. */
  private fetchPage(chip: UrlChip): void {
    this.pages.fetch(chip, (state) => {
      this.chips.render();
      const shown = this.chips.list.some((c) => sameChip(c, chip));
      const sent = this.pageSettled();
      // Said under the row too (aria-live): the chip may be folded behind "+ N more".
      if (state.state === 'error' && (shown || sent)) {
        this.chips.say(`“${shortUrl(chip.url)}” is not attached: ${state.reason}.${sent ? ' The message went without it.' : ''}`, false);
      }
    });
  }

  /** Read a PDF chip's file: once read, its chip says its pages, or that it has no text layer, or why it cannot be read. */
  private readPdf(path: string): void {
    this.pdfs.read(path, (state) => {
      this.chips.render();
      if (state.state === 'error' && this.chips.list.some((c) => c.kind === 'pdf' && c.path === path)) {
        this.chips.say(`“${path}” cannot be read: ${state.reason}.`, false);
      }
    });
  }

  private pageLoading(): boolean {
    return this.pages.loading(this.chips.list);
  }

  /** A page finished loading (or its chip was removed): a message waiting for it goes now (true: it went). */
  private pageSettled(): boolean {
    if (!this.sendWhenLoaded || this.pageLoading()) return false;
    this.sendWhenLoaded = false;
    this.chips.say(null);
    return this.submit();
  }

  /** The note open in the editor (null: none). Attached by default, toggled on its chip. */
  setActiveNote(path: string | null): void {
    this.chips.setActiveNote(path);
  }

  /** Chips the next message carries: the active note first (when on), then the user's chips. */
  currentChips(): ContextChip[] {
    return this.chips.current();
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
    return { text: this.textarea.value, ...this.chips.draft() };
  }

  /** Show a chat's draft (empty for a new chat); the active note's switch as that chat left it, if it is still the active note. */
  setDraft(draft: ComposerDraft): void {
    this.mentions.close();
    this.sendWhenLoaded = false;
    this.textarea.value = draft.text;
    this.chips.setDraft(draft);
  }

  /** Put a message the chat could not take back in the composer, as it was. */
  restore(text: string, chips: readonly ContextChip[]): void {
    if (!this.textarea.value.trim()) this.textarea.value = text;
    this.chips.restore(chips);
  }

  /** Send the message (true: it went). */
  private submit(): boolean {
    if (this.busy || this.opening) return false;
    const text = this.textarea.value;
    if (!text.trim()) return false;
    if (this.pageLoading()) {
      // The page the user attached goes with the message: it waits for it (a fetch gives up after 30 s).
      this.sendWhenLoaded = true;
      this.chips.say('Sending once the page has loaded…', false);
      return false;
    }
    this.sendWhenLoaded = false;
    const chips = this.currentChips();
    this.textarea.value = '';
    this.chips.sent();
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
    if (this.mentions.onKeyDown(event)) return;
    // Escape stops a streaming reply (a picker open takes it first, to close).
    if (event.key === 'Escape' && this.busy && !event.isComposing) {
      event.preventDefault();
      this.host.onStop();
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
      if (this.chips.removeLast()) event.preventDefault();
    } else if (event.key.toLowerCase() === 'z' && (event.ctrlKey || event.metaKey) && !event.shiftKey && this.chips.canUndo) {
      event.preventDefault();
      this.chips.undo();
    }
  }

  // ---- the pickers ----------------------------------------------------------------------

  private onInput(): void {
    // An @ mention being typed wins over the / picker: "/Translate @Plan" attaches Plan.
    const upToCaret = this.textarea.value.slice(0, this.textarea.selectionStart ?? this.textarea.value.length);
    const typingMention = this.mentions.typing(upToCaret) !== null || urlMentionAt(upToCaret) !== null;
    if (typingMention) this.slash?.close();
    else if (this.slash?.update()) {
      this.mentions.close();
      return;
    }
    this.mentions.update();
  }
}

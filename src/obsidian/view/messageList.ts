import { Component, MarkdownRenderer, setIcon, type App } from 'obsidian';
import type { ChatState } from '../../core/chat/chatState';
import type { ContextChip } from '../../core/context/items';
import type { ChatTurn, CompactionRecord } from '../../core/conversation/model';
import { breakNoteOf, renderBreakNote } from './breakNotes';
import { linkCitations, renderSources } from './citations';
import { RetryStatusLine } from './retryStatus';
import { chipIcon, chipLabel, formatTokens, formatUsd, freshnessText } from './format';
import { turnDetail, turnSummary } from './turnMeta';
import { renderAgentSteps, renderLiveCalls } from './agentSteps';
import { renderPlanDetails } from './planDetails';
import type { LiveCall } from '../../core/agent/progress';
import type { AppliedEdit } from '../../core/edits/proposal';
import { renderAppliedEdit } from './appliedEdits';
import type { PendingReview, UnwrittenChanges } from './pendingReviews';
import { ReviewArea } from './reviewArea';
import { FIRST_BUILD_BUDGET_MS, MessageWindow, nextBuildBudget } from './messageWindow';
import { placeChildren, restoreScrollAnchor, scrollAnchorOf } from './listPlacement';

export interface MessageActions {
  copy(text: string): void;
  regenerate(): void;
  editLast(text: string): void;
  retry(): void;
  /** Stop the send in flight (the retry status line's Cancel). */
  stop(): void;
  /** Adds what the empty chat should say about the setup (no provider or key), if anything. */
  setupNotice?(parent: HTMLElement): void;
  openLink(href: string): void;
  /** A reply's "⋯" menu (insert at cursor, replace selection, copy to a new note), shown at `anchor`. */
  replyMenu?: (reply: string, anchor: HTMLElement) => void;
  /** The proposals the running turn waits on (issue 28), shown under it to review. */
  pendingReviews?(): readonly PendingReview[];
  /** Accepted changes not written (the user changed those lines meanwhile), shown again until dismissed. */
  unwrittenChanges?(): readonly UnwrittenChanges[];
  dismissUnwritten?(id: string): void;
  /** The edits a turn applied, as the chat note records them (undone ones marked). */
  appliedEdits?(turn: ChatTurn): readonly AppliedEdit[];
  readonly undoEdit?: (record: AppliedEdit) => void;
}

/** One message (or compaction) of the list: its cache key, and how to draw it. */
interface Entry {
  readonly key: string;
  build(el: HTMLElement, component: Component): void;
}

/**
 * The conversation: user and assistant messages (markdown through Obsidian's renderer), the kept
 * message of a failed or stopped request with its error and a retry, and the streaming reply.
 * Rendered messages are cached by content, so a new turn renders only what is new. A long chat is
 * windowed (`MessageWindow`): its last page first, earlier pages above as the user scrolls up.
 */
export class MessageList {
  readonly el: HTMLElement;
  private rendered = new Map<string, { el: HTMLElement; component: Component }>();
  private streamingEl: HTMLElement | null = null;
  private streamingBody: HTMLElement | null = null;
  private sourcePath = '';
  /** Follow the newest message (the user is at the end); false while they read further up. */
  private stick = true;
  private chatId: string | null = null;
  private readonly retryStatus: RetryStatusLine;
  private readonly reviews = new ReviewArea();
  private readonly window: MessageWindow;
  /** The state last rendered: drawn again when the window grows or a page's rest is built. */
  private state: ChatState | null = null;
  /** Milliseconds of building per render (see nextBuildBudget). */
  private buildBudget = FIRST_BUILD_BUDGET_MS;

  constructor(
    parent: HTMLElement,
    private readonly app: App,
    private readonly owner: Component,
    private readonly actions: MessageActions,
  ) {
    this.el = parent.createDiv({ cls: 'strata-messages' });
    this.retryStatus = new RetryStatusLine(owner, () => this.actions.stop());
    this.window = new MessageWindow(this.el, owner, () => {
      if (this.state) this.render(this.state);
    });
    owner.registerDomEvent(this.el, 'scroll', () => {
      this.follow(this.el.scrollHeight - this.el.scrollTop - this.el.clientHeight < 48);
    });
    // A narrower or shorter view (the sidebar resized) makes the messages taller: the newest stays in view.
    if (typeof ResizeObserver !== 'undefined') {
      const observer = new ResizeObserver(() => this.scrollToEnd());
      observer.observe(this.el);
      owner.register(() => observer.disconnect());
    }
    owner.registerDomEvent(this.el, 'click', (event) => {
      const target = event.target instanceof HTMLElement ? event.target.closest('a') : null;
      if (!target) return;
      if (target.hasClass('internal-link')) {
        event.preventDefault();
        const href = target.getAttr('data-href') ?? target.getAttr('href') ?? '';
        if (href) this.actions.openLink(href);
      }
    });
  }

  render(state: ChatState): void {
    const started = performance.now();
    this.state = state;
    const id = state.conversation.id;
    // Another chat opens at its end; the same chat keeps the place the user scrolled to.
    if (id !== this.chatId) this.follow(true);
    this.chatId = id;
    const first = this.window.firstTurn(id, state.answered.length);
    const entries = this.entriesOf(state, first);
    const keep = new Set(entries.map((e) => e.key));
    for (const [key, entry] of this.rendered) {
      if (!keep.has(key)) {
        entry.component.unload();
        this.owner.removeChild(entry.component);
        this.rendered.delete(key);
      }
    }
    const { from, built } = this.buildNewestFirst(entries, started);
    const nodes: HTMLElement[] = first > 0 ? [this.window.sentinel] : [];
    for (let i = from; i < entries.length; i++) nodes.push(this.rendered.get(entries[i].key)?.el ?? createDiv());
    // The message in view stays where it is when messages are added above it (a page, a compaction).
    const anchor = this.stick ? null : scrollAnchorOf(this.el, this.window.sentinel);
    const top = this.el.scrollTop;
    // The focused element (a review's button, a message's action) gets the focus back once the list is rebuilt.
    const focused = this.el.ownerDocument.activeElement;
    const refocus = focused instanceof HTMLElement && this.el.contains(focused) ? focused : null;
    // While a reply is coming in, edit and regenerate are hidden (styles.css), not re-rendered.
    this.el.toggleClass('is-busy', state.busy);
    if (entries.length === 0) nodes.push(this.emptyState());
    if (state.condensing) nodes.push(this.condensing());
    this.streamingEl = this.streamingBody = null;
    if (state.streamingText !== null) nodes.push(this.streaming(state.streamingText, state.agentCalls));
    placeChildren(this.el, nodes);
    this.retryStatus.render(this.streamingEl, state.retry);
    this.reviews.render(this.el, this.actions.pendingReviews?.() ?? [], this.actions.unwrittenChanges?.() ?? [], {
      copy: (text) => this.actions.copy(text),
      dismiss: (id) => this.actions.dismissUnwritten?.(id),
    });
    if (refocus?.isConnected && this.el.ownerDocument.activeElement !== refocus) refocus.focus({ preventScroll: true });
    if (!restoreScrollAnchor(this.el, anchor)) this.el.scrollTop = top;
    this.scrollToEnd();
    if (built > 0) this.buildBudget = nextBuildBudget(this.buildBudget, performance.now() - started);
    this.window.rendered(from === 0);
  }

  /** What the list shows from turn `first` on, in order, each with its cache key: nothing is rendered here. */
  private entriesOf(state: ChatState, first: number): Entry[] {
    const entries: Entry[] = [];
    const id = state.conversation.id;
    const lastIndex = state.answered.length - 1;
    const compactions = state.conversation.compactions ?? [];
    const unanswered = (after: number) => {
      for (const u of state.unanswered) {
        if (u.afterTurn === after) {
          const t = u.turn;
          entries.push({ key: `n:${id}:${u.afterTurn}:${t.at}:${t.text}`, build: (el) => this.unansweredMessage(el, t.text, t.chips ?? [], unansweredNote(t.status, t.error)) });
        }
      }
    };
    for (let index = first; index <= lastIndex; index++) {
      const turn = state.answered[index];
      unanswered(index);
      const last = index === lastIndex && !state.pending;
      // Keys name the chat and the turn's time: two chats with the same words never share elements.
      const key = `${id}:${index + 1}:${turn.at}:${last}`;
      entries.push({ key: `u:${key}:${turn.text}`, build: (el) => this.userMessage(el, turn.text, turn.chips ?? [], last, turn) });
      // Compactions made just before this turn: their summaries' cost shows on its usage line.
      const before = compactions.filter((c) => c.maskedThrough === index);
      const extra = before.map((c) => `${c.at}`).join(',');
      // The key names the turn's applied edits and whether each is undone: an undo renders it again.
      const edits = this.actions.appliedEdits?.(turn) ?? [];
      const editKey = edits.map((e) => `${e.proposalId}${e.undone ? '-' : '+'}`).join(',');
      entries.push({ key: `a:${key}:${extra}:${editKey}:${turn.reply ?? ''}`, build: (el, component) => this.assistantMessage(el, turn, last, component, before, index === 0, edits) });
      // A compaction sits at its boundary: the condensed messages stay above it (in the chat, no longer sent).
      for (const c of compactions) {
        if (c.through === index + 1) entries.push({ key: `c:${id}:${c.through}:${c.at}:${c.kind}`, build: (el, component) => this.compaction(el, c, component) });
      }
    }
    unanswered(state.answered.length);
    if (state.pending) {
      const p = state.pending;
      entries.push({ key: `p:${id}:${p.at}:${p.status}:${p.text}`, build: (el) => this.userMessage(el, p.text, p.chips ?? [], p.status !== 'sending', null) });
      if (p.status !== 'sending') entries.push({ key: `e:${id}:${p.at}:${p.status}:${p.error ?? ''}:${p.partial ?? ''}`, build: (el) => this.failure(el, p) });
    }
    return entries;
  }

  /**
   * Renders the entries not cached, newest first (the end of the chat, then upwards), until this
   * frame's budget is spent; returns the first entry shown and how many were built. The rest is
   * built in the next frames.
   */
  private buildNewestFirst(entries: readonly Entry[], started: number): { from: number; built: number } {
    let from = entries.length;
    let built = 0;
    while (from > 0) {
      const entry = entries[from - 1];
      if (!this.rendered.has(entry.key)) {
        if (built > 0 && performance.now() - started > this.buildBudget) break;
        const component = new Component();
        this.owner.addChild(component);
        const el = createDiv();
        entry.build(el, component);
        this.rendered.set(entry.key, { el, component });
        built++;
      }
      from--;
    }
    return { from, built };
  }

  /** Cheap per-token update: plain text while streaming; markdown once the reply is complete. */
  updateStreaming(text: string): void {
    if (!this.streamingBody) this.el.appendChild(this.streaming(text));
    else this.streamingBody.setText(text);
    this.streamingEl?.toggleClass('is-waiting', text.length === 0);
    this.scrollToEnd();
  }

  private streaming(text: string, calls: readonly LiveCall[] = []): HTMLElement {
    this.streamingEl = createDiv({ cls: 'strata-message is-assistant is-streaming' });
    this.streamingEl.toggleClass('is-waiting', text.length === 0);
    renderLiveCalls(this.streamingEl, calls);
    this.streamingBody = this.streamingEl.createDiv({ cls: 'strata-message-body strata-streaming-text', text });
    const dots = this.streamingEl.createDiv({ cls: 'strata-typing', attr: { 'aria-label': 'Waiting for the reply' } });
    for (let i = 0; i < 3; i++) dots.createSpan();
    return this.streamingEl;
  }

  private emptyState(): HTMLElement {
    const empty = createDiv({ cls: 'strata-empty' });
    const icon = empty.createDiv({ cls: 'strata-empty-icon' });
    setIcon(icon, 'messages-square');
    empty.createDiv({ cls: 'strata-empty-title', text: 'Ask about your vault' });
    empty.createDiv({
      cls: 'strata-empty-hint',
      text: 'The open note is attached by default. Type @ to add notes, folders, tags or a web page’s address. Everything you attach stays in the Context Library, sent once and cached.',
    });
    this.actions.setupNotice?.(empty);
    return empty;
  }

  private condensing(): HTMLElement {
    const el = createDiv({ cls: 'strata-condensing', attr: { role: 'status' } });
    setIcon(el.createSpan({ cls: 'strata-condensing-icon' }), 'minimize-2');
    el.createSpan({ text: 'Condensing the earlier conversation… (the stop button stops it)' });
    return el;
  }

  /** A compaction at its boundary: a divider saying what happened, and the summary (or marker) folded under it. */
  private compaction(el: HTMLElement, c: CompactionRecord, component: Component): void {
    el.addClass('strata-compaction', c.kind === 'summary' ? 'is-summary' : 'is-omitted');
    el.setAttr('data-through', String(c.through));
    const line = el.createDiv({ cls: 'strata-compaction-line' });
    line.createSpan({ cls: 'strata-compaction-label', text: compactionLabel(c) });
    const details = el.createEl('details', { cls: 'strata-compaction-details' });
    details.createEl('summary', { text: c.kind === 'summary' ? 'Summary the model sees instead' : 'What the model sees instead' });
    const meta = compactionMeta(c);
    if (meta) details.createDiv({ cls: 'strata-compaction-meta', text: meta });
    const body = details.createDiv({ cls: 'strata-compaction-text markdown-rendered' });
    void MarkdownRenderer.render(this.app, c.text, body, this.sourcePath, component);
  }

  private userMessage(el: HTMLElement, text: string, chips: readonly ContextChip[], editable: boolean, turn: ChatTurn | null): void {
    el.addClass('strata-message', 'is-user');
    if (chips.length > 0) {
      const row = el.createDiv({ cls: 'strata-message-chips' });
      for (const chip of chips) {
        const c = row.createSpan({ cls: `strata-chip is-static is-${chip.kind}` });
        setIcon(c.createSpan({ cls: 'strata-chip-icon' }), chipIcon(chip));
        c.createSpan({ cls: 'strata-chip-label', text: chipLabel(chip) });
      }
    }
    const body = el.createDiv({ cls: 'strata-message-body' });
    body.setText(text);
    const problems = turn?.problems ?? [];
    if (problems.length > 0) {
      const warn = el.createDiv({ cls: 'strata-message-warning' });
      warn.setText(`Not attached: ${problems.map((p) => `${p.chipId} (${p.detail})`).join('; ')}`);
    }
    const actions = el.createDiv({ cls: 'strata-message-actions' });
    this.action(actions, 'copy', 'Copy', 'strata-copy', () => this.actions.copy(text));
    if (editable) this.action(actions, 'pencil', 'Edit and resend', 'strata-edit', () => this.startEdit(el, body, text));
  }

  private unansweredMessage(el: HTMLElement, text: string, chips: readonly ContextChip[], note: string): void {
    this.userMessage(el, text, chips, false, null);
    el.addClass('is-unanswered');
    el.createDiv({ cls: 'strata-unanswered-note', text: note, attr: { 'aria-label': 'Kept in the chat; not sent again' } });
  }

  private startEdit(el: HTMLElement, body: HTMLElement, text: string): void {
    if (el.querySelector('.strata-edit-box')) return;
    body.hide();
    const box = el.createDiv({ cls: 'strata-edit-box' });
    const input = box.createEl('textarea', { cls: 'strata-edit-input' });
    input.value = text;
    const buttons = box.createDiv({ cls: 'strata-edit-buttons' });
    const cancel = buttons.createEl('button', { text: 'Cancel' });
    const save = buttons.createEl('button', { cls: 'mod-cta strata-edit-send', text: 'Resend' });
    cancel.addEventListener('click', () => {
      box.remove();
      body.show();
    });
    save.addEventListener('click', () => {
      if (input.value.trim()) this.actions.editLast(input.value);
    });
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        if (input.value.trim()) this.actions.editLast(input.value);
      } else if (event.key === 'Escape') {
        box.remove();
        body.show();
      }
    });
    input.focus();
  }

  private assistantMessage(el: HTMLElement, turn: ChatTurn, last: boolean, component: Component, compactions: readonly CompactionRecord[], first = false, edits: readonly AppliedEdit[] = []): void {
    el.addClass('strata-message', 'is-assistant');
    if (turn.agent) renderAgentSteps(el, turn.agent, turn.tools);
    for (const record of edits) {
      const undo = this.actions.undoEdit;
      renderAppliedEdit(el, record, { ...(undo ? { undo: (r: AppliedEdit) => undo(r) } : {}), openNote: (path) => this.actions.openLink(path) });
    }
    const reply = turn.reply ?? '';
    const body = el.createDiv({ cls: 'strata-message-body markdown-rendered' });
    // Vault QA: `[1]` become links to the sources (the unknown ones marked unverified), listed under the answer.
    const search = turn.search;
    void MarkdownRenderer.render(this.app, reply, body, this.sourcePath, component).then(() => search && linkCitations(body, search));
    if (search) renderSources(el, search);
    const footer = el.createDiv({ cls: 'strata-message-footer' });
    const actions = footer.createDiv({ cls: 'strata-message-actions' });
    this.action(actions, 'copy', 'Copy', 'strata-copy', () => this.actions.copy(reply));
    if (last) this.action(actions, 'refresh-cw', 'Regenerate', 'strata-regenerate', () => this.actions.regenerate());
    const replyMenu = this.actions.replyMenu;
    if (replyMenu) {
      const more = this.action(actions, 'more-horizontal', 'More actions', 'strata-reply-more', () => replyMenu(reply, more));
      more.setAttr('aria-haspopup', 'menu');
    }
    const meta = footer.createDiv({ cls: 'strata-turn-meta', attr: { 'aria-label': turnDetail(turn, compactions) } });
    // One span per figure: a narrow sidebar wraps between them, never inside one.
    turnSummary(turn, compactions).forEach((part, i) => {
      if (i > 0) meta.appendText(' · ');
      meta.createSpan({ cls: 'strata-turn-meta-part', text: part });
    });
    const note = breakNoteOf(turn, first);
    if (note) renderBreakNote(el, note);
    if (turn.plan) renderPlanDetails(el, turn.plan);
    for (const event of turn.envelope?.freshness ?? []) {
      el.createDiv({ cls: 'strata-freshness', text: `${event.id}: ${freshnessText(event.status)}` });
    }
  }

  private failure(el: HTMLElement, pending: ChatTurn): void {
    el.addClass('strata-message', 'is-assistant', 'is-failed', pending.status === 'stopped' ? 'is-stopped' : 'is-error');
    if (pending.agent) renderAgentSteps(el, pending.agent, []);
    if (pending.partial) el.createDiv({ cls: 'strata-message-body strata-partial', text: pending.partial });
    const box = el.createDiv({ cls: 'strata-error' });
    const icon = box.createSpan({ cls: 'strata-error-icon' });
    setIcon(icon, pending.status === 'stopped' ? 'circle-stop' : 'alert-triangle');
    box.createSpan({ cls: 'strata-error-text', text: pending.error ?? 'The request failed.' });
    const retry = box.createEl('button', { cls: 'strata-retry mod-cta', text: 'Retry' });
    retry.addEventListener('click', () => this.actions.retry());
  }

  private action(parent: HTMLElement, icon: string, label: string, cls: string, run: () => void): HTMLButtonElement {
    const button = parent.createEl('button', { cls: `clickable-icon ${cls}`, attr: { 'aria-label': label } });
    setIcon(button, icon);
    button.addEventListener('click', (event) => {
      event.stopPropagation();
      run();
    });
    return button;
  }

  /** Keep the newest message in view, if the user is following it (or `follow`: they just sent one). */
  scrollToEnd(follow = false): void {
    if (follow) this.follow(true);
    if (this.stick) this.el.scrollTop = this.el.scrollHeight;
  }

  /**
   * Following the end or not. While it does, the browser's scroll anchoring is off (styles.css): on
   * a narrower view it would hold a message in place and leave the newest below the fold; the
   * resize observer scrolls to the end instead.
   */
  private follow(on: boolean): void {
    this.stick = on;
    this.el.toggleClass('is-following', on);
  }

  destroy(): void {
    this.window.destroy();
    this.reviews.clear();
    for (const entry of this.rendered.values()) {
      entry.component.unload();
      this.owner.removeChild(entry.component);
    }
    this.rendered.clear();
  }
}

/** "Condensed · turns 1–40 summarized · 9.9k → 4.8k tokens" (or omitted, with the reason). */
export function compactionLabel(c: CompactionRecord): string {
  const range = c.through === 1 ? 'turn 1' : `turns 1–${c.through}`;
  const what = c.kind === 'summary' ? `${range} summarized` : `${range} omitted${c.fallback ? ` (${c.fallback})` : ''}`;
  const shortened = c.outputsShortened ? ` · ${c.outputsShortened} earlier tool output${c.outputsShortened === 1 ? '' : 's'} shortened` : '';
  return `Condensed · ${what}${shortened} · ${formatTokens(c.tokensBefore)} → ${formatTokens(c.tokensAfter)} tokens`;
}

function compactionMeta(c: CompactionRecord): string {
  const how = c.trigger === 'auto' ? 'Condensed automatically' : 'Condensed by hand';
  const parts = [how];
  if (c.summary) {
    parts.push(`written by ${c.summary.provider}/${c.summary.model}`, `${formatTokens(c.summary.usage.inputTokens)} in · ${formatTokens(c.summary.usage.outputTokens)} out`);
    if (c.cost !== null) parts.push(formatUsd(c.cost));
  }
  if (c.outputsMasked > 0) parts.push(`${c.outputsMasked} long output${c.outputsMasked === 1 ? '' : 's'} shortened`);
  return parts.join(' · ');
}

/**
 * The note under a message the user moved on from. It has no Retry button, so the kept error's
 * advice to retry or send again is left out: the note says only why it got no reply.
 */
export function unansweredNote(status: string, error: string | undefined): string {
  if (status === 'stopped') return 'Not answered: you stopped the reply.';
  // Sentences end at . ! ? followed by a space ("gpt-4.1" and URLs stay whole).
  const why = (error ?? '')
    .replace(/([.!?])\s+/g, '$1\n')
    .split('\n')
    .filter((sentence) => sentence.trim() && !/\bretry\b|\bsend (it )?again\b|\bresend\b/i.test(sentence))
    .join(' ')
    .trim();
  return why ? `Not answered: ${why}` : 'Not answered';
}

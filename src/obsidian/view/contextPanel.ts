import { setIcon, type Component } from 'obsidian';
import type { ChatState } from '../../core/chat/chatState';
import type { ContextUsage } from '../../core/chat/contextUsage';
import type { Usage } from '../../core/usage';
import { USAGE_LAYERS } from '../../core/chat/contextUsage';
import { budgetText, cachedShareOf, condenseStatus, formatPercent, formatTokens, formatUsd } from './format';
import { LibraryList, type LibraryActions } from './libraryList';
import { planCostText } from './planLabels';
import { condenseBlocker } from '../../core/budget/condenseOffer';

export interface ContextPanelActions extends LibraryActions {
  /** Condense the chat now (the button). */
  condense(): void;
  /** The panel opened or closed (the conversation above changed height). */
  resized(): void;
  /** The Keep messages setting (a manual condense keeps that many): decides whether Condense is offered. */
  keepMessages?(): number;
}

/**
 * The usage line and its panel: the NEXT request's size against the input budget (the meter, with a
 * tick at the condense threshold) and how far it is from condensing; the last turn's cached share
 * and the chat's cost. Opened: the next request by layer, the Condense button, the chat's totals,
 * and the Context Library ("Notes in this chat", ./libraryList.ts), whose items show how the plan
 * sends them and which the user can override or remove (a deliberate prefix break, said as such). Parts that hold focus (the summary, the Condense button) are built
 * once and updated in place, so a keyboard user keeps their place while the chat changes.
 */
export class ContextPanel {
  readonly el: HTMLElement;
  private summaryEl: HTMLElement;
  private bodyEl: HTMLElement;
  private usageEl: HTMLElement;
  private condenseButton: HTMLButtonElement;
  private condenseNote: HTMLElement;
  private condenseResult: HTMLElement;
  private statsEl: HTMLElement;
  private library: LibraryList;
  private open = false;
  private last: ChatState | null = null;
  /** The last Condense result, shown until the chat or its turns change. */
  private result: { chat: string; turns: number; text: string; error: boolean } | null = null;

  constructor(
    parent: HTMLElement,
    owner: Component,
    private readonly actions: ContextPanelActions,
  ) {
    this.el = parent.createDiv({ cls: 'strata-context-panel' });
    this.summaryEl = this.el.createDiv({ cls: 'strata-context-summary', attr: { role: 'button', tabindex: '0', 'aria-expanded': 'false' } });
    this.bodyEl = this.el.createDiv({ cls: 'strata-context-body' });
    this.usageEl = this.bodyEl.createDiv({ cls: 'strata-usage' });
    const condense = this.bodyEl.createDiv({ cls: 'strata-condense' });
    const row = condense.createDiv({ cls: 'strata-condense-row' });
    this.condenseButton = row.createEl('button', { cls: 'strata-condense-button', text: 'Condense' });
    this.condenseNote = row.createDiv({ cls: 'strata-condense-note' });
    this.condenseResult = condense.createDiv({ cls: 'strata-condense-result', attr: { 'aria-live': 'polite' } });
    this.statsEl = this.bodyEl.createDiv({ cls: 'strata-usage-stats' });
    this.library = new LibraryList(this.bodyEl, owner, actions);
    this.bodyEl.hide();
    const toggle = () => {
      this.open = !this.open;
      if (this.last) this.render(this.last);
      this.actions.resized();
    };
    owner.registerDomEvent(this.summaryEl, 'click', toggle);
    owner.registerDomEvent(this.summaryEl, 'keydown', (event) => {
      if (event.key === 'Enter' || event.key === ' ') {
        event.preventDefault();
        toggle();
      }
    });
    owner.registerDomEvent(this.condenseButton, 'click', () => {
      if (this.condenseButton.getAttr('aria-disabled') !== 'true') this.actions.condense();
    });
  }

  setOpen(open: boolean): void {
    this.open = open;
    if (this.last) this.render(this.last);
  }

  /** What the last Condense did (or why it could not), shown under the button. */
  showCondenseResult(text: string, error = false): void {
    const state = this.last;
    if (!state) return;
    this.result = { chat: state.conversation.id, turns: state.answered.length, text, error };
    this.render(state);
  }

  render(state: ChatState): void {
    this.last = state;
    this.el.toggleClass('is-open', this.open);
    this.summaryEl.setAttr('aria-expanded', String(this.open));
    this.renderSummary(state);
    this.bodyEl.toggle(this.open);
    if (!this.open) return;
    this.renderUsage(state);
    this.renderCondense(state);
    this.renderStats(state);
    this.library.render(state);
  }

  private renderSummary(state: ChatState): void {
    const s = this.summaryEl;
    s.empty();
    const chevron = s.createSpan({ cls: 'strata-context-chevron' });
    setIcon(chevron, this.open ? 'chevron-down' : 'chevron-right');
    const next = state.nextRequest;
    const fraction = next ? Math.min(1, next.fraction) : 0;
    const meter = s.createDiv({
      cls: 'strata-meter',
      attr: { 'aria-label': next ? `Next request: ${formatPercent(next.fraction)} of the budget` : 'Next request: not measured yet' },
    });
    meter.createDiv({ cls: 'strata-meter-fill' }).setCssStyles({ width: `${(fraction * 100).toFixed(1)}%` });
    if (next && next.budget.autoCondense && next.budget.tokens > 0) {
      meter.createDiv({ cls: 'strata-meter-threshold' }).setCssStyles({ left: `${((next.budget.threshold / next.budget.tokens) * 100).toFixed(1)}%` });
    }
    meter.toggleClass('is-high', next !== null && next.status === 'over-threshold');
    meter.toggleClass('is-over', next !== null && next.status === 'over-budget');
    s.createSpan({
      cls: 'strata-context-tokens',
      text: next ? `${formatTokens(next.promptTokens)} / ${formatTokens(next.budget.tokens)}` : 'Measuring…',
      attr: next ? { 'aria-label': `Next request: ${next.promptTokens.toLocaleString('en-US')} of ${next.budget.tokens.toLocaleString('en-US')} tokens` } : {},
    });
    const status = state.condensing ? { short: 'condensing…', tone: 'is-condensing' } : next ? condenseStatus(next) : null;
    if (status) s.createSpan({ cls: `strata-context-condense ${status.tone}`, text: status.short });
    const last = lastUsage(state);
    if (last) s.createSpan({ cls: 'strata-context-cached', text: `${formatPercent(cachedShareOf(last))} cached`, attr: { title: CACHED_EXPLAINED } });
    if (state.answered.length > 0) s.createSpan({ cls: 'strata-context-cost', text: formatUsd(state.totalCost) });
    s.createSpan({ cls: 'strata-context-library-count', text: `${state.library.length} attached`, attr: { 'aria-label': `${state.library.length} in the notes of this chat` } });
  }

  private renderUsage(state: ChatState): void {
    const box = this.usageEl;
    box.empty();
    box.createDiv({ cls: 'strata-panel-title', text: 'Next request' });
    const next = state.nextRequest;
    if (!next) {
      box.createDiv({ cls: 'strata-muted', text: 'Measuring what the next message will send…' });
      return;
    }
    const total = box.createDiv({ cls: 'strata-usage-total' });
    total.createDiv({
      cls: 'strata-usage-size',
      text: `${next.promptTokens.toLocaleString('en-US')} of ${next.budget.tokens.toLocaleString('en-US')} tokens (${formatPercent(next.fraction)}) · ${next.model}`,
    });
    total.createDiv({ cls: 'strata-usage-budget', text: budgetText(next.budget) });
    const status = state.condensing ? { long: 'Condensing the earlier conversation…', tone: 'is-condensing' } : condenseStatus(next);
    box.createDiv({ cls: `strata-usage-threshold ${status.tone}`, text: status.long });
    layerBar(box, next);
  }

  private renderCondense(state: ChatState): void {
    const button = this.condenseButton;
    const compactions = state.conversation.compactions ?? [];
    const blocker = condenseBlocker(state.answered.length, compactions[compactions.length - 1]?.through ?? 0, this.actions.keepMessages?.() ?? 0);
    button.setText(state.condensing ? 'Condensing…' : 'Condense');
    // While a reply or a compaction runs the button only looks disabled: a disabled button drops the
    // keyboard focus, and the user who pressed it would lose their place.
    const blocked = blocker !== null && !state.condensing;
    button.disabled = state.answered.length === 0 || state.phase === 'opening';
    // Blocked once there are answers (a condense just done, say), it only looks disabled, like while
    // a reply runs: a disabled button would drop the focus of the user who just pressed it.
    const waiting = state.busy || blocked;
    button.toggleClass('is-disabled', waiting);
    button.setAttr('aria-disabled', String(waiting || button.disabled));
    const why = state.condensing ? 'Condensing: the stop button stops it' : (blocker ?? 'Condense the chat now: summarize older messages');
    button.setAttr('aria-label', why);
    // A disabled button shows no tooltip of its own: its row says why.
    this.condenseNote.parentElement?.setAttr('title', blocked ? blocker : '');
    this.condenseNote.setText(
      state.condensing ? 'The stop button stops it; nothing changes then.' : (blocker ?? 'Summarize older messages now; the newest stay word for word.'),
    );
    const result = this.result;
    const shown = result !== null && result.chat === state.conversation.id && result.turns === state.answered.length;
    this.condenseResult.toggle(shown);
    this.condenseResult.toggleClass('is-error', shown && result.error);
    this.condenseResult.setText(shown ? result.text : '');
  }

  private renderStats(state: ChatState): void {
    const stats = this.statsEl;
    stats.empty();
    const lastRequest = state.contextUsage;
    const last = lastUsage(state);
    // A chat read from its note (or one whose newest request was stopped before it was assembled)
    // has no request measured in this session: the last reply's reported prompt stands in.
    const lastTokens = lastRequest?.promptTokens ?? last?.inputTokens;
    stat(stats, 'Last request', lastTokens !== undefined ? `${lastTokens.toLocaleString('en-US')} tokens` : '—', 'strata-usage-last');
    stat(stats, 'Cached (last turn)', last ? `${formatPercent(cachedShareOf(last))} of ${last.inputTokens.toLocaleString('en-US')}` : '—', 'strata-usage-cached');
    // Said where the share is shown: "cached" is the one figure here a new user cannot guess.
    stats.createDiv({ cls: 'strata-muted strata-usage-explain', text: CACHED_EXPLAINED });
    stat(stats, 'Chat cost so far', state.answered.length > 0 ? formatUsd(state.totalCost) : '—', 'strata-usage-cost');
    stat(
      stats,
      'Chat tokens',
      state.answered.length > 0 ? `${state.totalUsage.inputTokens.toLocaleString('en-US')} in · ${state.totalUsage.outputTokens.toLocaleString('en-US')} out` : '—',
      'strata-usage-chat-tokens',
    );
    const compactions = state.conversation.compactions ?? [];
    if (compactions.length > 0) stat(stats, 'Condensed', compactions.length === 1 ? 'once' : `${compactions.length} times`, 'strata-usage-condensed');
    const title = state.conversation.titleCall;
    if (title) stat(stats, 'Chat title', `${formatTokens(title.usage.inputTokens)} in · ${formatTokens(title.usage.outputTokens)} out · ${formatUsd(title.cost)}`, 'strata-usage-title');
    // Apart from the chat's cost above (which counts the main calls only): the planner and artifact summaries.
    if (state.plan.calls > 0) stat(stats, 'Planning', planCostText(state.plan), 'strata-usage-planning');
  }
}

/** "Cached" in one line, where the usage line and the panel show the cached share. */
export const CACHED_EXPLAINED = 'Cached: tokens the provider reused from the previous request, billed at a discount.';

/** What the request is made of, by layer in the user's words (the meter above says how full it is). */
function layerBar(box: HTMLElement, usage: ContextUsage): void {
  const bar = box.createDiv({ cls: 'strata-usage-bar' });
  const legend = box.createDiv({ cls: 'strata-usage-legend' });
  const layerTotal = USAGE_LAYERS.reduce((sum, l) => sum + usage.layers[l.id], 0);
  for (const layer of USAGE_LAYERS) {
    const tokens = usage.layers[layer.id];
    const share = layerTotal > 0 ? tokens / layerTotal : 0;
    const seg = bar.createDiv({ cls: `strata-usage-segment is-${layer.id}`, attr: { 'aria-label': `${layer.label}: ${tokens} tokens` } });
    seg.setCssStyles({ width: `${Math.min(100, share * 100).toFixed(2)}%` });
    const row = legend.createDiv({ cls: `strata-usage-layer is-${layer.id}`, attr: { 'data-layer': layer.id, title: layer.hint } });
    row.createSpan({ cls: `strata-usage-swatch is-${layer.id}` });
    row.createSpan({ cls: 'strata-usage-label', text: layer.label });
    row.createSpan({ cls: 'strata-usage-value', text: tokens.toLocaleString('en-US') });
  }
}

function stat(parent: HTMLElement, label: string, value: string, cls: string): void {
  const row = parent.createDiv({ cls: `strata-usage-stat ${cls}` });
  row.createSpan({ cls: 'strata-usage-label', text: label });
  row.createSpan({ cls: 'strata-usage-value', text: value });
}

/** The last answered turn's usage (null before the first reply, or when it has none). */
function lastUsage(state: ChatState): Usage | null {
  return state.answered[state.answered.length - 1]?.usage ?? null;
}

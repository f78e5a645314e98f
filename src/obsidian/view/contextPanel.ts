import { setIcon, type Component } from 'obsidian';
import type { ChatState } from '../../core/chat/chatState';
import type { Usage } from '../../core/usage';
import { USAGE_LAYERS } from '../../core/chat/contextUsage';
import { cachedShareOf, formatPercent, formatTokens, formatUsd } from './format';

export interface ContextPanelActions {
  removeLibraryItem(id: string): void;
  /** The panel opened or closed (the conversation above changed height). */
  resized(): void;
}

/**
 * Context usage (tokens of the last request out of the model's window, by layer; cached share of
 * the last turn as the provider reported it; the chat's cost) and the Context Library, whose items
 * the user can remove (a deliberate prefix break, said as such).
 */
export class ContextPanel {
  readonly el: HTMLElement;
  private summaryEl: HTMLElement;
  private bodyEl: HTMLElement;
  private open = false;
  private confirming: string | null = null;
  private last: ChatState | null = null;

  constructor(
    parent: HTMLElement,
    owner: Component,
    private readonly actions: ContextPanelActions,
  ) {
    this.el = parent.createDiv({ cls: 'strata-context-panel' });
    this.summaryEl = this.el.createDiv({ cls: 'strata-context-summary', attr: { role: 'button', tabindex: '0', 'aria-expanded': 'false' } });
    this.bodyEl = this.el.createDiv({ cls: 'strata-context-body' });
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
  }

  setOpen(open: boolean): void {
    this.open = open;
    if (this.last) this.render(this.last);
  }

  render(state: ChatState): void {
    this.last = state;
    this.el.toggleClass('is-open', this.open);
    this.summaryEl.setAttr('aria-expanded', String(this.open));
    this.renderSummary(state);
    this.bodyEl.toggle(this.open);
    this.bodyEl.empty();
    if (!this.open) return;
    this.renderUsage(state);
    this.renderLibrary(state);
  }

  private renderSummary(state: ChatState): void {
    const s = this.summaryEl;
    s.empty();
    const chevron = s.createSpan({ cls: 'strata-context-chevron' });
    setIcon(chevron, this.open ? 'chevron-down' : 'chevron-right');
    const usage = state.contextUsage;
    const meter = s.createDiv({ cls: 'strata-meter', attr: { 'aria-label': 'Context window used' } });
    const fill = meter.createDiv({ cls: 'strata-meter-fill' });
    const fraction = usage ? Math.min(1, usage.fraction) : 0;
    fill.setCssStyles({ width: `${(fraction * 100).toFixed(1)}%` });
    meter.toggleClass('is-high', fraction > 0.8);
    s.createSpan({
      cls: 'strata-context-tokens',
      text: usage ? `${formatTokens(usage.promptTokens)} / ${formatTokens(usage.budget.tokens)}` : 'No request yet',
    });
    const last = lastUsage(state);
    if (last) s.createSpan({ cls: 'strata-context-cached', text: `${formatPercent(cachedShareOf(last))} cached` });
    s.createSpan({ cls: 'strata-context-cost', text: state.answered.length > 0 ? formatUsd(state.totalCost) : '' });
    s.createSpan({ cls: 'strata-context-library-count', text: `${state.library.length} in library` });
  }

  private renderUsage(state: ChatState): void {
    const box = this.bodyEl.createDiv({ cls: 'strata-usage' });
    box.createDiv({ cls: 'strata-panel-title', text: 'Context usage' });
    const usage = state.contextUsage;
    if (!usage) {
      box.createDiv({ cls: 'strata-muted', text: 'Send a message to see how the context window is used.' });
    } else {
      box.createDiv({
        cls: 'strata-usage-total',
        text: `${usage.promptTokens.toLocaleString()} of ${usage.budget.tokens.toLocaleString()} tokens (${formatPercent(usage.fraction)}) · ${usage.model}`,
      });
      const bar = box.createDiv({ cls: 'strata-usage-bar' });
      const legend = box.createDiv({ cls: 'strata-usage-legend' });
      // The bar shows what the request is made of; the summary meter shows how full the window is.
      const layerTotal = USAGE_LAYERS.reduce((sum, l) => sum + usage.layers[l.id], 0);
      for (const layer of USAGE_LAYERS) {
        const tokens = usage.layers[layer.id];
        const share = layerTotal > 0 ? tokens / layerTotal : 0;
        const seg = bar.createDiv({ cls: `strata-usage-segment is-${layer.id}`, attr: { 'aria-label': `${layer.label}: ${tokens} tokens` } });
        seg.setCssStyles({ width: `${Math.min(100, share * 100).toFixed(2)}%` });
        const row = legend.createDiv({ cls: `strata-usage-layer is-${layer.id}`, attr: { 'data-layer': layer.id } });
        row.createSpan({ cls: `strata-usage-swatch is-${layer.id}` });
        row.createSpan({ cls: 'strata-usage-label', text: layer.label });
        row.createSpan({ cls: 'strata-usage-value', text: tokens.toLocaleString() });
      }
    }
    const stats = box.createDiv({ cls: 'strata-usage-stats' });
    const last = lastUsage(state);
    stat(stats, 'Cached (last turn)', last ? `${formatPercent(cachedShareOf(last))} of ${last.inputTokens.toLocaleString()}` : '—', 'strata-usage-cached');
    stat(stats, 'Chat cost so far', state.answered.length > 0 ? formatUsd(state.totalCost) : '—', 'strata-usage-cost');
    stat(
      stats,
      'Chat tokens',
      state.answered.length > 0 ? `${state.totalUsage.inputTokens.toLocaleString()} in · ${state.totalUsage.outputTokens.toLocaleString()} out` : '—',
      'strata-usage-chat-tokens',
    );
  }

  private renderLibrary(state: ChatState): void {
    const box = this.bodyEl.createDiv({ cls: 'strata-library' });
    const total = state.library.reduce((sum, item) => sum + item.tokens, 0);
    box.createDiv({ cls: 'strata-panel-title', text: `Context library · ${formatTokens(total)} tokens` });
    if (state.library.length === 0) {
      box.createDiv({ cls: 'strata-muted', text: 'Empty. Items you attach join the library and are sent once.' });
      return;
    }
    for (const item of state.library) {
      const row = box.createDiv({ cls: 'strata-library-item', attr: { 'data-id': item.id } });
      const icon = row.createSpan({ cls: 'strata-library-icon' });
      setIcon(icon, item.kind === 'folder' ? 'folder' : item.kind === 'tag' ? 'tag' : item.kind === 'url' ? 'link' : 'file-text');
      const name = row.createDiv({ cls: 'strata-library-name' });
      name.createSpan({ cls: 'strata-library-title', text: item.title });
      name.createSpan({ cls: 'strata-library-detail', text: item.version > 1 ? `${item.source} · v${item.version}` : item.source });
      row.createSpan({ cls: 'strata-library-tokens', text: formatTokens(item.tokens) });
      if (this.confirming === item.id) {
        const confirm = row.createDiv({ cls: 'strata-library-confirm' });
        confirm.createSpan({ text: 'Removing restarts the cached prefix.' });
        const yes = confirm.createEl('button', { cls: 'mod-warning strata-library-confirm-remove', text: 'Remove' });
        const no = confirm.createEl('button', { text: 'Keep' });
        yes.addEventListener('click', () => {
          this.confirming = null;
          this.actions.removeLibraryItem(item.id);
        });
        no.addEventListener('click', () => {
          this.confirming = null;
          this.render(state);
        });
      } else {
        const remove = row.createEl('button', {
          cls: 'clickable-icon strata-library-remove',
          attr: { 'aria-label': 'Remove from the library (restarts the cached prefix)' },
        });
        setIcon(remove, 'trash-2');
        remove.addEventListener('click', () => {
          this.confirming = item.id;
          this.render(state);
        });
      }
    }
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

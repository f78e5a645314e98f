import { setIcon, type Component } from 'obsidian';
import type { ChatState } from '../../core/chat/chatState';
import type { PlanOverride } from '../../core/conversation/records/plan';
import { formatTokens } from './format';
import { libraryRows, type LibraryRow } from './libraryRows';
import { overrideBadge, renderBadge, sentText, strategyBadge } from './planLabels';

const CONDENSED_HINT = 'Older notes leave the notes sent first in a compact form (an outline or a summary, with the path) when the chat outgrows its budget';

export interface LibraryActions {
  removeLibraryItem(id: string): void;
  /** The user's override of an item's plan (null: back to the plan); the message the chat shows, null when refused. */
  setPlanOverride(id: string, override: PlanOverride | null): string | null;
}

/** What a button does: its `data-action`, the key focus is kept by. */
type Action = 'full' | 'exclude' | 'plan' | 'remove' | 'confirm-exclude' | 'confirm-remove' | 'keep';

/** A button by its row and action: where the focus goes back to after a render. */
interface FocusKey {
  readonly id: string;
  readonly action: string;
}

const ICONS: Readonly<Record<string, string>> = { folder: 'folder', tag: 'tag', url: 'link', tool: 'wrench', selection: 'text-cursor-input', pdf: 'book-open', canvas: 'layout-dashboard', dataview: 'table' };

let described = 0;

/**
 * The Context Library in the usage panel ("Notes in this chat"): each item with how the plan sends
 * it (a badge, tokens sent of the whole, the plan's reason), the items left out (greyed), and per
 * item the user's overrides (send in full, exclude, back to the plan) and removal. Taking out an
 * item already sent restarts the cached prefix, so it is confirmed first. The list is rebuilt on
 * each change; the focused button is found again by its row and action, so a keyboard user keeps
 * their place (or lands on the button that replaced it).
 */
export class LibraryList {
  readonly el: HTMLElement;
  private readonly headEl: HTMLElement;
  private readonly listEl: HTMLElement;
  /** Says what an override did (the warning above the composer shows it too, but is not announced). */
  private readonly statusEl: HTMLElement;
  private confirming: { id: string; action: 'remove' | 'exclude' } | null = null;
  private focusNext: FocusKey | null = null;
  private last: ChatState | null = null;
  private rows: readonly LibraryRow[] = [];
  /** What the list was last drawn from. */
  private shown = '';

  constructor(
    parent: HTMLElement,
    owner: Component,
    private readonly actions: LibraryActions,
  ) {
    // Focusable from code only: where the focus goes when the last item it was on is gone.
    this.el = parent.createDiv({ cls: 'strata-library', attr: { tabindex: '-1' } });
    this.headEl = this.el.createDiv();
    this.listEl = this.el.createDiv({ cls: 'strata-library-list' });
    this.statusEl = this.el.createDiv({ cls: 'strata-library-status', attr: { role: 'status', 'aria-live': 'polite' } });
    owner.registerDomEvent(this.el, 'click', (event) => {
      // The target may be a button's icon (an SVG element), and the panel may sit in a popout window.
      const target = event.target as Node | null;
      const button = target?.instanceOf(Element) ? target.closest<HTMLElement>('[data-action]') : null;
      const row = button?.closest<HTMLElement>('[data-id]');
      if (!button || !row || button.getAttr('aria-disabled') === 'true') return;
      this.run(row.getAttr('data-id') ?? '', button.getAttr('data-action') as Action);
    });
    owner.registerDomEvent(this.el, 'keydown', (event) => {
      if (event.key !== 'Escape' || !this.confirming) return;
      event.preventDefault();
      this.run(this.confirming.id, 'keep');
    });
  }

  render(state: ChatState): void {
    if (this.last && this.last.conversation.id !== state.conversation.id) {
      this.confirming = null;
      this.statusEl.setText('');
    }
    this.last = state;
    const active = this.el.doc.activeElement;
    const focused = active instanceof HTMLElement && this.listEl.contains(active) ? keyOf(active) : null;
    const focusedIndex = focused ? this.rows.findIndex((r) => r.id === focused.id) : -1;
    this.rows = libraryRows(state);
    if (this.confirming && !this.rows.some((r) => r.id === this.confirming?.id && r.sent)) this.confirming = null;

    const busy = state.busy || state.phase === 'opening';
    // Drawn again only when what it shows changed: a redraw for anything else (a save, a measure of
    // the next request) between a button's press and release would replace the button, and the
    // browser would drop the click (the first "Exclude" seemed to do nothing).
    const shown = JSON.stringify([this.rows, this.confirming, busy, state.library.length, state.library.reduce((sum, item) => sum + item.tokens, 0), (state.conversation.compactions ?? []).length]);
    if (shown !== this.shown) {
      this.shown = shown;
      this.renderHead(state);
      this.listEl.empty();
      for (const row of this.rows) this.renderRow(row, busy);
    }

    const wanted = this.focusNext ?? focused;
    this.focusNext = null;
    if (wanted) this.restoreFocus(wanted, focusedIndex);
  }

  private renderHead(state: ChatState): void {
    const head = this.headEl;
    head.empty();
    // Condensed items are not sent whole: their outline or summary is a few tokens.
    const held = new Set((state.condensed ?? []).map((c) => c.id));
    const total = state.library.reduce((sum, item) => sum + (held.has(item.id) ? 0 : item.tokens), 0);
    head.createDiv({ cls: 'strata-panel-title', text: `Notes in this chat · ${formatTokens(total)} tokens` });
    if (this.rows.length === 0) {
      head.createDiv({ cls: 'strata-muted', text: 'Empty. Notes you attach stay with the chat (its Context Library), sent once and cached.' });
      return;
    }
    const condensed = (state.conversation.compactions ?? []).length > 0;
    const planned = this.rows.some((r) => r.strategy !== 'include_full' || r.override);
    head.createDiv({
      cls: 'strata-muted strata-library-hint',
      text: [
        (state.condensed ?? []).length > 0
          ? 'The Context Library. Older notes are condensed to an outline or summary to keep the chat in its budget; Send in full brings one back whole.'
          : condensed
          ? 'The Context Library. Since the chat was condensed, notes from condensed messages are sent once right after the instructions.'
          : 'The Context Library: each item is sent once, then referred to by name.',
        planned ? 'What does not fit is planned: a summary, the sections the question needs, or left out.' : '',
      ]
        .filter(Boolean)
        .join(' '),
    });
  }

  private renderRow(row: LibraryRow, busy: boolean): void {
    const el = this.listEl.createDiv({ cls: 'strata-library-item', attr: { 'data-id': row.id, 'data-strategy': row.strategy } });
    el.toggleClass('is-excluded', !row.sent);
    setIcon(el.createSpan({ cls: 'strata-library-icon' }), ICONS[row.type] ?? 'file-text');
    const name = el.createDiv({ cls: 'strata-library-name' });
    const heading = name.createDiv({ cls: 'strata-library-heading' });
    heading.createSpan({ cls: 'strata-library-title', text: row.title, attr: { title: row.title } });
    const badges = heading.createSpan({ cls: 'strata-library-badges' });
    // A row with no plan and no override is the usual case: no badge says "Full" on every note.
    if (row.condensed) renderBadge(badges, 'Condensed', 'is-condensed', CONDENSED_HINT);
    else if (row.strategy !== 'include_full' || row.override || row.rationale) strategyBadge(badges, row.strategy);
    if (row.override) overrideBadge(badges, row.override);
    if (row.detail) name.createSpan({ cls: 'strata-library-detail', text: row.detail, attr: { title: row.detail } });
    let describedBy = '';
    if (row.rationale) {
      describedBy = `strata-library-why-${++described}`;
      name.createSpan({ cls: 'strata-library-rationale', text: row.rationale, attr: { title: row.rationale, id: describedBy } });
    }
    if (row.sent || row.fullTokens > 0) {
      const tokens = row.condensed
        ? `${row.condensed.form}, ${formatTokens(row.fullTokens)} in full`
        : row.sent
          ? sentText(row.strategy, row.tokens, row.fullTokens)
          : `0 of ${formatTokens(row.fullTokens)} tokens`;
      el.createSpan({ cls: 'strata-library-tokens', text: tokens });
    }

    if (this.confirming?.id === row.id) {
      this.renderConfirm(el, row, this.confirming.action);
      return;
    }
    const actions = el.createDiv({ cls: 'strata-library-actions' });
    const button = (action: Action, text: string, label: string, cls: string): HTMLElement => {
      const b = actions.createEl('button', { cls: `strata-library-action ${cls}`, text, attr: { 'data-action': action, 'aria-label': label } });
      if (describedBy) b.setAttr('aria-describedby', describedBy);
      if (busy) {
        b.setAttr('aria-disabled', 'true');
        b.addClass('is-disabled');
      }
      return b;
    };
    const condensedOnly = row.condensed !== undefined && !row.condensed.fullAgain;
    if (row.override !== 'full' && (row.strategy !== 'include_full' || !row.sent || condensedOnly)) button('full', 'Send in full', `Send “${row.title}” in full from the next request`, 'strata-library-full');
    if (row.override !== 'exclude') button('exclude', 'Exclude', `Exclude “${row.title}” from the next requests`, 'strata-library-exclude');
    if (row.override) button('plan', 'Use the plan', `Let the plan decide how “${row.title}” is sent`, 'strata-library-plan');
    if (row.sent) {
      const remove = actions.createEl('button', {
        cls: 'clickable-icon strata-library-remove',
        attr: { 'data-action': 'remove', 'aria-label': `Remove “${row.title}” from the library (restarts the cached prefix)` },
      });
      setIcon(remove, 'trash-2');
      if (busy) remove.setAttr('aria-disabled', 'true');
    }
  }

  private renderConfirm(el: HTMLElement, row: LibraryRow, action: 'remove' | 'exclude'): void {
    const id = `strata-library-confirm-${++described}`;
    const confirm = el.createDiv({ cls: 'strata-library-confirm', attr: { role: 'group', 'aria-labelledby': id } });
    confirm.createSpan({
      text:
        action === 'remove'
          ? 'Removing restarts the cached prefix.'
          : 'Excluding takes it out of the notes already sent: the next request starts a new cached prefix.',
      attr: { id },
    });
    const buttons = confirm.createDiv({ cls: 'strata-library-confirm-buttons' });
    buttons.createEl('button', {
      cls: `mod-warning strata-library-confirm-${action}`,
      text: action === 'remove' ? 'Remove' : 'Exclude',
      attr: { 'data-action': `confirm-${action}`, 'aria-describedby': id },
    });
    buttons.createEl('button', { text: 'Keep', attr: { 'data-action': 'keep', 'aria-label': `Keep “${row.title}” as it is` } });
  }

  private run(id: string, action: Action): void {
    const state = this.last;
    const row = this.rows.find((r) => r.id === id);
    if (!state || !row) return;
    const override = (value: PlanOverride | null, focus: string): void => {
      this.confirming = null;
      this.focusNext = { id, action: focus };
      const message = this.actions.setPlanOverride(id, value);
      if (message) this.statusEl.setText(message);
      // Refused (a reply is running): nothing re-rendered the list, so the confirm would stay open.
      else this.render(state);
    };
    switch (action) {
      case 'full':
        return override('full', 'plan');
      case 'plan':
        return override(null, row.override === 'full' ? 'full' : 'exclude');
      case 'exclude':
        if (!row.sent) return override('exclude', 'plan');
        this.confirming = { id, action: 'exclude' };
        this.focusNext = { id, action: 'confirm-exclude' };
        return this.render(state);
      case 'confirm-exclude':
        return override('exclude', 'plan');
      case 'remove':
        this.confirming = { id, action: 'remove' };
        this.focusNext = { id, action: 'confirm-remove' };
        return this.render(state);
      case 'confirm-remove':
        this.confirming = null;
        this.focusNext = { id, action: 'remove' };
        this.actions.removeLibraryItem(id);
        return;
      case 'keep': {
        const back = this.confirming?.action ?? 'remove';
        this.confirming = null;
        this.focusNext = { id, action: back };
        return this.render(state);
      }
    }
  }

  /** The button with this key, else the first of its row, else one in the row now at its place. */
  private restoreFocus(key: FocusKey, previousIndex: number): void {
    const rows = Array.from(this.listEl.querySelectorAll<HTMLElement>('.strata-library-item'));
    const row = rows.find((r) => r.getAttr('data-id') === key.id);
    const buttons = (r: HTMLElement | undefined) => Array.from(r?.querySelectorAll<HTMLElement>('[data-action]') ?? []);
    const target =
      buttons(row).find((b) => b.getAttr('data-action') === key.action) ??
      buttons(row)[0] ??
      buttons(rows[Math.min(Math.max(previousIndex, 0), rows.length - 1)])[0];
    if (target) target.focus();
    else this.el.focus();
  }
}

function keyOf(el: HTMLElement): FocusKey | null {
  const button = el.closest<HTMLElement>('[data-action]');
  const id = button?.closest<HTMLElement>('[data-id]')?.getAttr('data-id');
  const action = button?.getAttr('data-action');
  return id && action ? { id, action } : null;
}

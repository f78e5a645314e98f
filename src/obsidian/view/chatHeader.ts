import { setIcon, type Component } from 'obsidian';
import type { ChatController } from '../../core/chat/chatController';
import type { ChatState } from '../../core/chat/chatState';
import { MODES } from '../../core/chat/modes';
import type { ChatMode, StrataSettings } from '../../core/settings/settings';
import { fillModelPicker } from './modelPicker';
import { WritePolicyButton } from './writePolicyButton';

export interface ChatHeaderHost {
  /** Owner of DOM event registrations (the view): released when it closes. */
  readonly owner: Component;
  controller(): ChatController;
  settings(): StrataSettings;
  newChat(): void;
  openHistory(): void;
  /** Rename the chat (its error said). */
  rename(title: string): void;
  /** The chat goes into a project ('' for none). */
  pickProject(value: string): void;
  /** Draw the view again (a pick the controller refused goes back). */
  redraw(): void;
  /** Say what went wrong. */
  fail(error: unknown): void;
}

/**
 * The chat view's header: the chat's title (click or the pencil to rename in place), the new-chat
 * and history buttons, and the model, project and mode pickers.
 */
export class ChatHeader {
  /** The chat's title (not `titleEl`: that is ItemView's, which Obsidian sets to getDisplayText()). */
  private readonly chatTitleEl: HTMLElement;
  private readonly modelSelect: HTMLSelectElement;
  private readonly modeSelect: HTMLSelectElement;
  private readonly projectSelect: HTMLSelectElement;
  private readonly writePolicy: WritePolicyButton;

  constructor(
    root: HTMLElement,
    private readonly host: ChatHeaderHost,
  ) {
    const owner = host.owner;
    const header = root.createDiv({ cls: 'strata-header' });
    const top = header.createDiv({ cls: 'strata-header-top' });
    this.chatTitleEl = top.createDiv({ cls: 'strata-title', attr: { role: 'button', tabindex: '0' } });
    owner.registerDomEvent(this.chatTitleEl, 'click', () => this.startRename());
    owner.registerDomEvent(this.chatTitleEl, 'keydown', (event) => {
      if (event.key === 'Enter' && event.target === this.chatTitleEl) this.startRename();
    });
    // The visible way to rename (the title itself is clickable too, which nobody guesses).
    const rename = top.createEl('button', { cls: 'clickable-icon strata-title-edit', attr: { 'aria-label': 'Rename chat' } });
    setIcon(rename, 'pencil');
    owner.registerDomEvent(rename, 'click', () => this.startRename(rename));
    const buttons = top.createDiv({ cls: 'strata-header-buttons' });
    const newChat = buttons.createEl('button', { cls: 'clickable-icon strata-new-chat', attr: { 'aria-label': 'New chat' } });
    setIcon(newChat, 'plus');
    owner.registerDomEvent(newChat, 'click', () => host.newChat());
    const history = buttons.createEl('button', { cls: 'clickable-icon strata-history-button', attr: { 'aria-label': 'Chat history' } });
    setIcon(history, 'history');
    owner.registerDomEvent(history, 'click', () => host.openHistory());
    this.writePolicy = new WritePolicyButton(buttons, owner, () => host.controller().edits);

    const pickers = header.createDiv({ cls: 'strata-header-pickers' });
    this.modelSelect = pickers.createEl('select', { cls: 'dropdown strata-model-picker', attr: { 'aria-label': 'Model' } });
    owner.registerDomEvent(this.modelSelect, 'change', () => {
      const [providerId, ...rest] = this.modelSelect.value.split('::');
      try {
        host.controller().setModel(providerId, rest.join('::'));
      } catch (error) {
        host.fail(error);
        host.redraw();
      }
    });
    // The project between the two: it starts the second row, the mode ends it.
    this.projectSelect = pickers.createEl('select', { cls: 'dropdown strata-project-picker', attr: { 'aria-label': 'Project' } });
    owner.registerDomEvent(this.projectSelect, 'change', () => host.pickProject(this.projectSelect.value));
    this.modeSelect = pickers.createEl('select', { cls: 'dropdown strata-mode-picker', attr: { 'aria-label': 'Mode' } });
    for (const mode of MODES) this.modeSelect.createEl('option', { value: mode.id, text: mode.label, attr: { title: mode.description } });
    owner.registerDomEvent(this.modeSelect, 'change', () => host.controller().setMode(this.modeSelect.value as ChatMode));
  }

  render(state: ChatState): void {
    const { conversation } = state;
    if (!this.chatTitleEl.querySelector('input')) {
      this.chatTitleEl.setText(conversation.title || 'New chat');
      this.chatTitleEl.setAttr('aria-label', 'Chat title: click to rename');
    }
    fillModelPicker(this.modelSelect, this.host.settings().providers, state.conversation);
    this.renderProjectPicker(state);
    this.renderModeAvailability();
    this.modeSelect.value = conversation.mode;
    this.writePolicy.render(conversation.mode === 'agent');
    this.modelSelect.disabled = state.phase !== 'idle';
    this.modeSelect.disabled = state.phase === 'opening';
  }

  /** "No project" first, then each project; a project no longer configured still shows, marked missing. */
  private renderProjectPicker(state: ChatState): void {
    const projects = this.host.settings().projects;
    const current = state.conversation.project ?? '';
    const missing = current !== '' && !projects.some((p) => p.id === current);
    // Without any project (and none on the chat), the picker is left out of the header.
    const shown = projects.length > 0 || current !== '';
    this.projectSelect.toggle(shown);
    // With it, the model takes the first row whole and the project and mode share the second, at any width.
    this.projectSelect.parentElement?.toggleClass('has-project', shown);
    this.projectSelect.empty();
    this.projectSelect.createEl('option', { value: '', text: 'No project', attr: { title: 'The whole vault, the chat folder' } });
    for (const p of projects) this.projectSelect.createEl('option', { value: p.id, text: p.name, attr: { title: p.folder ? `Folder: ${p.folder}` : 'The whole vault' } });
    if (missing) this.projectSelect.createEl('option', { value: current, text: `${current} (missing)` });
    this.projectSelect.value = current;
    this.projectSelect.toggleClass('is-missing', missing);
    const chosen = projects.find((p) => p.id === current);
    this.projectSelect.setAttr(
      'title',
      missing
        ? `No project "${current}" is configured any more: the chat goes on without its instructions and folder.`
        : chosen
          ? `Project: ${chosen.name}${chosen.folder ? ` (${chosen.folder})` : ''}`
          : 'No project',
    );
    this.projectSelect.disabled = state.phase !== 'idle';
  }

  /** Rename the open chat in place: Enter keeps, Escape cancels. `returnTo` gets the focus back after. */
  private startRename(returnTo?: HTMLElement): void {
    if (this.chatTitleEl.querySelector('input')) return;
    const current = this.host.controller().state.conversation.title || 'New chat';
    this.chatTitleEl.empty();
    const input = this.chatTitleEl.createEl('input', { cls: 'strata-title-input', attr: { type: 'text', 'aria-label': 'Chat title' } });
    input.value = current;
    let done = false;
    const finish = (keep: boolean) => {
      if (done) return;
      done = true;
      const title = input.value.trim();
      input.remove();
      this.chatTitleEl.setText(keep && title ? title : current);
      if (keep && title && title !== current) this.host.rename(title);
      else this.host.redraw();
      if (returnTo?.isConnected && activeDocument.activeElement === activeDocument.body) returnTo.focus();
    };
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter') {
        event.preventDefault();
        finish(true);
      } else if (event.key === 'Escape') {
        event.preventDefault();
        finish(false);
      }
    });
    input.addEventListener('blur', () => finish(true));
    input.focus();
    input.select();
  }

  /** A mode the chat's model cannot run (the Agent mode without tool calling) says so, and cannot be picked. */
  private renderModeAvailability(): void {
    const controller = this.host.controller();
    for (const mode of MODES) {
      const option = this.modeSelect.querySelector<HTMLOptionElement>(`option[value="${mode.id}"]`);
      if (!option) continue;
      const problem = controller.modeProblem(mode.id);
      option.disabled = problem !== null && controller.state.conversation.mode !== mode.id;
      option.setText(problem ? `${mode.label} (not available)` : mode.label);
      option.setAttr('title', problem ?? mode.description);
    }
  }
}

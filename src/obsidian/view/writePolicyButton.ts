import { Menu, setIcon, type Component } from 'obsidian';
import type { ShownEdits } from '../../core/chat/editActions';
import { describeWritePolicy, type WritePolicy } from '../../core/edits/writePolicy';

const SOURCE_WORDS = { chat: 'this chat', project: "the chat's project", settings: 'the settings' } as const;

/**
 * The chat's own write policy (issue 28), in the header while the chat is in Agent mode: what the
 * agent may write and whether it asks first, for this chat only, over its project's or the
 * settings'. The button's label says the policy in force and where it comes from.
 */
export class WritePolicyButton {
  private readonly button: HTMLButtonElement;

  constructor(
    parent: HTMLElement,
    owner: Component,
    private readonly edits: () => ShownEdits,
  ) {
    this.button = parent.createEl('button', { cls: 'clickable-icon strata-chat-write-policy' });
    setIcon(this.button, 'file-diff');
    owner.registerDomEvent(this.button, 'click', () => this.menu());
  }

  render(agent: boolean): void {
    this.button.toggle(agent);
    if (!agent) return;
    const { policy, source } = this.edits().policy();
    this.button.setAttr('aria-label', `Note edits: ${describeWritePolicy(policy)} (set by ${SOURCE_WORDS[source]})`);
    this.button.toggleClass('is-read-only', policy.mode === 'read-only');
    this.button.toggleClass('is-own', source === 'chat');
  }

  private menu(): void {
    const edits = this.edits();
    const { policy, source } = edits.policy();
    const inherited = edits.inherited();
    const menu = new Menu();
    const item = (title: string, checked: boolean, pick: WritePolicy | null) =>
      menu.addItem((i) =>
        i
          .setTitle(title)
          .setChecked(checked)
          .onClick(() => edits.setPolicy(pick)),
      );
    item(`As set elsewhere: ${describeWritePolicy(inherited)}`, source !== 'chat', null);
    item('Ask before every change', source === 'chat' && policy.mode === 'ask', { mode: 'ask', folders: [] });
    // Applying without asking needs folders: the ones chosen in the project or settings, if any.
    const folders = inherited.mode === 'auto' ? inherited.folders : policy.mode === 'auto' ? policy.folders : [];
    if (folders.length > 0) item(describeWritePolicy({ mode: 'auto', folders }), source === 'chat' && policy.mode === 'auto', { mode: 'auto', folders });
    item('Read-only: the agent writes nothing', source === 'chat' && policy.mode === 'read-only', { mode: 'read-only', folders: [] });
    // Under the button (opened from the keyboard too, where a click has no pointer position).
    const rect = this.button.getBoundingClientRect();
    menu.showAtPosition({ x: rect.left, y: rect.bottom });
  }
}

import { Setting } from 'obsidian';
import { normalizeFolder } from '../core/vaultFolders';
import type { WriteMode, WritePolicy } from '../core/edits/writePolicy';

const MODE_LABELS: Record<WriteMode, string> = {
  ask: 'Ask each time',
  auto: 'Apply without asking in chosen folders',
  'read-only': 'Read-only (no write tools)',
};

/** The value of "use the settings' policy" in a project's dropdown. */
const INHERIT = 'inherit';

/**
 * The write policy as settings rows (issue 28): a dropdown of the modes (with "as in the Agent
 * settings" for a project) and, for "apply without asking", the folders, one per line. `set` gets the
 * new policy (undefined: inherit) and saves.
 */
export function renderWritePolicy(
  containerEl: HTMLElement,
  options: { readonly name: string; readonly desc: string; readonly policy: WritePolicy | undefined; readonly inherit: boolean; readonly set: (policy: WritePolicy | undefined) => void },
): void {
  let policy = options.policy;
  const folders = new Setting(containerEl)
    .setName('Folders the agent may change without asking')
    .setDesc('One folder per line (inside the vault; "/" for the whole vault). Changes elsewhere are still shown for review.');
  const showFolders = () => folders.settingEl.toggle(policy?.mode === 'auto');
  new Setting(containerEl)
    .setName(options.name)
    .setDesc(options.desc)
    .addDropdown((dropdown) => {
      dropdown.selectEl.addClass('strata-write-policy');
      if (options.inherit) dropdown.addOption(INHERIT, 'As in the agent settings');
      for (const [mode, label] of Object.entries(MODE_LABELS)) dropdown.addOption(mode, label);
      dropdown.setValue(policy?.mode ?? (options.inherit ? INHERIT : 'ask')).onChange((value) => {
        policy = value === INHERIT ? undefined : { mode: value as WriteMode, folders: policy?.folders ?? [] };
        showFolders();
        options.set(policy);
      });
    });
  // The folders row follows the dropdown.
  containerEl.appendChild(folders.settingEl);
  folders.addTextArea((text) => {
    text.inputEl.rows = 3;
    text.inputEl.addClass('strata-settings-textarea', 'strata-write-folders');
    text.setPlaceholder('Inbox').setValue((policy?.folders ?? []).map((f) => f || '/').join('\n')).onChange((value) => {
      if (!policy) return;
      const list = value.split('\n').map((line) => line.trim()).filter((line) => line !== '').map((line) => normalizeFolder(line));
      policy = { ...policy, folders: [...new Set(list)] };
      options.set(policy);
    });
  });
  showFolders();
}

import { Setting } from 'obsidian';
import type { StrataSettings } from '../core/settings/settings';

/** The apply model (issue 28): who turns a reply into an edit of a note ("Apply to note…") and edits a selection ("Edit with Strata…"). */
export function renderApplyModelSetting(containerEl: HTMLElement, settings: StrataSettings, save: () => void): void {
  new Setting(containerEl)
    .setName('Apply model')
    .setDesc('The model that applies a reply to a note (from the reply\'s ⋯ menu) and edits a selection (from the editor\'s menu). Each change is shown for review before anything is written; its cost is shown with it. Default: the chat\'s own model (for a selection, the default model).')
    .addDropdown((dropdown) => {
      dropdown.addOption('', 'The chat\'s model');
      for (const p of settings.providers) for (const m of p.models) dropdown.addOption(`${p.id}/${m}`, `${p.id}/${m}`);
      const current = settings.applyModel;
      if (current && !settings.providers.some((p) => p.models.some((m) => `${p.id}/${m}` === current))) dropdown.addOption(current, `${current} (not configured)`);
      dropdown.setValue(current).onChange((value) => {
        settings.applyModel = value;
        save();
      });
    });
}

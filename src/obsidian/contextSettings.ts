import { Setting } from 'obsidian';
import { FRESHNESS_POLICIES, type FreshnessPolicy } from '../core/settings/engineChoices';
import { RENDERINGS, type Rendering } from '../core/settings/engineChoices';
import { parseWindows } from '../core/tokens/modelWindows';
import type { StrataSettings } from '../core/settings/settings';

const RENDERING_LABELS: Record<Rendering, string> = {
  transcript: 'Transcript (each item sent once; best caching)',
  seed: 'Library in system prompt (resends history when the library grows)',
};

const FRESHNESS_LABELS: Record<FreshnessPolicy, string> = {
  fresh: 'Fresh: send edited notes again',
  'fresh-attached': 'Fresh when attached again',
  stable: 'Stable: keep the copy already sent',
};

/** The Context section of the settings tab: the active note, edited notes, the layout, model windows. */
export function renderContextSettings(containerEl: HTMLElement, settings: StrataSettings, save: () => void): void {
  new Setting(containerEl).setName('Context').setHeading();
  new Setting(containerEl)
    .setName('Attach the active note')
    .setDesc('New messages carry the note open in the editor; its chip can turn it off for one message.')
    .addToggle((toggle) =>
      toggle.setValue(settings.attachActiveNote).onChange((value) => {
        settings.attachActiveNote = value;
        save();
      }),
    );
  new Setting(containerEl)
    .setName('Edited notes')
    .setDesc('What to do when a note already sent is edited.')
    .addDropdown((dropdown) => {
      for (const policy of FRESHNESS_POLICIES) dropdown.addOption(policy, FRESHNESS_LABELS[policy]);
      dropdown.setValue(settings.freshness).onChange((value) => {
        settings.freshness = value as FreshnessPolicy;
        save();
      });
    });
  new Setting(containerEl)
    .setName('Rendering')
    .setDesc('How context is laid out for the model.')
    .addDropdown((dropdown) => {
      for (const r of RENDERINGS) dropdown.addOption(r, RENDERING_LABELS[r]);
      dropdown.setValue(settings.rendering).onChange((value) => {
        settings.rendering = value as Rendering;
        save();
      });
    });
  new Setting(containerEl)
    .setName('Model window sizes')
    .setDesc('Corrections to the model context-window table, one per line: model = tokens.')
    .addTextArea((text) => {
      text.inputEl.rows = 3;
      text.inputEl.addClass('strata-settings-textarea');
      text
        .setPlaceholder('llama3.1 = 131072')
        .setValue(
          Object.entries(settings.contextWindows)
            .map(([m, n]) => `${m} = ${n}`)
            .join('\n'),
        )
        .onChange((value) => {
          settings.contextWindows = parseWindows(value);
          save();
        });
    });
}

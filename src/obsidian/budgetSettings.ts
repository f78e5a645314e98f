import { Setting } from 'obsidian';
import { DEFAULT_BUDGET_SETTINGS } from '../core/settings/budgetSettings';
import type { BudgetCount, StrataSettings } from '../core/settings/settings';
import { parseBudgetCount } from './settingsInput';
import { numberSetting } from './numberSetting';

/** The Context budget section of the settings tab (seed 001): the input budget, when and how a chat condenses. */
export function renderBudgetSettings(containerEl: HTMLElement, settings: StrataSettings, save: () => void): void {
  const d = DEFAULT_BUDGET_SETTINGS;
  const n = (x: number) => x.toLocaleString('en-US');
  new Setting(containerEl).setName('Context budget').setHeading();
  containerEl.createDiv({
    cls: 'strata-settings-note',
    text: 'Each request fits a budget: the smaller of the max context tokens and the model\'s window less the reserved output tokens. When a chat nears it, older messages are condensed into a summary; they stay in the chat.',
  });
  countSetting(containerEl, settings, save, 'maxContextTokens', 'Max context tokens', `The most tokens one request may carry, whatever the model's window. Default ${n(d.maxContextTokens)}.`);
  countSetting(containerEl, settings, save, 'reservedOutputTokens', 'Reserved output tokens', `Tokens kept free in the model's window for the reply (at most half the window). Default ${n(d.reservedOutputTokens)}.`);
  countSetting(
    containerEl,
    settings,
    save,
    'keepMessages',
    'Newest messages always kept',
    `Condensing keeps at least this many of the newest messages word for word, when they fit. Default ${n(d.keepMessages)}.`,
  );
  let threshold: Setting | null = null;
  new Setting(containerEl)
    .setName('Auto-condense')
    .setDesc('Condense the chat by itself when the next request would pass the threshold. When off, condense from the usage panel or the command palette; a request over the budget is refused. Default on.')
    .addToggle((toggle) =>
      toggle.setValue(settings.autoCondense).onChange((value) => {
        settings.autoCondense = value;
        threshold?.setDisabled(!value);
        save();
      }),
    );
  threshold = new Setting(containerEl)
    .setName('Condense threshold')
    .setDesc(`Share of the budget at which the chat condenses; it then shrinks to about half the budget. Default ${Math.round(d.condenseThreshold * 100)} %.`)
    .addSlider((slider) => {
      const shown = (v: number) => `${v} %`;
      slider.setLimits(50, 95, 5).setValue(Math.round(settings.condenseThreshold * 100));
      slider.sliderEl.setAttr('aria-label', 'Condense threshold (percent of the budget)');
      // Obsidian 1.13 shows a slider's value next to it (in the format given); earlier versions do not: show it here.
      const modern = slider as unknown as { setDisplayFormat?: (format: (v: number) => string) => unknown };
      const value = modern.setDisplayFormat ? null : slider.sliderEl.insertAdjacentElement('afterend', createSpan({ cls: 'strata-settings-slider-value' }));
      modern.setDisplayFormat?.(shown);
      value?.setText(shown(slider.getValue()));
      slider.onChange((v) => {
        settings.condenseThreshold = v / 100;
        value?.setText(shown(v));
        save();
      });
    });
  threshold.setDisabled(!settings.autoCondense);
  countSetting(
    containerEl,
    settings,
    save,
    'maxCodeLines',
    'Max code lines',
    `Code blocks longer than this in condensed history keep their first and last lines, with a note of how many were cut. The current message is always sent whole. Default ${n(d.maxCodeLines)}.`,
  );
  countSetting(
    containerEl,
    settings,
    save,
    'maxOutputLines',
    'Max output lines',
    `Tool outputs longer than this in condensed history keep their first and last lines. Default ${n(d.maxOutputLines)}.`,
  );
  let model: Setting | null = null;
  new Setting(containerEl)
    .setName('Summaries')
    .setDesc('Condensing asks a model to summarize the older messages. When off, or when the summary fails, they are left out with a marker and a warning. Default on.')
    .addToggle((toggle) =>
      toggle.setValue(settings.summarize).onChange((value) => {
        settings.summarize = value;
        model?.setDisabled(!value);
        save();
      }),
    );
  model = new Setting(containerEl)
    .setName('Summary model')
    .setDesc('The model that writes summaries (of older messages, and of large attachments when context planning asks for one); its cost counts in the chat\'s. Default: the chat\'s own model.')
    .addDropdown((dropdown) => {
      dropdown.addOption('', 'The chat\'s model');
      for (const p of settings.providers) for (const m of p.models) dropdown.addOption(`${p.id}/${m}`, `${p.id}/${m}`);
      const current = settings.summaryModel;
      if (current && !settings.providers.some((p) => p.models.some((m) => `${p.id}/${m}` === current))) dropdown.addOption(current, `${current} (not configured)`);
      dropdown.setValue(current).onChange((value) => {
        settings.summaryModel = value;
        save();
      });
    });
  model.setDisabled(!settings.summarize);
}

/** A whole-number setting: what does not parse or is out of range is refused, said under its name, and not saved. */
function countSetting(containerEl: HTMLElement, settings: StrataSettings, save: () => void, key: BudgetCount, name: string, desc: string): void {
  numberSetting(containerEl, {
    name,
    desc,
    value: String(settings[key]),
    numeric: true,
    parse: (text) => parseBudgetCount(key, text),
    apply: (value) => {
      settings[key] = value;
      save();
    },
  });
}

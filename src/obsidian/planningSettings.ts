import { Setting } from 'obsidian';
import { CONTEXT_PLANNING, plannerTarget, type ContextPlanning, type StrataSettings } from '../core/settings/settings';
import { modelRefNote } from './settingsInput';

const PLANNING_LABELS: Record<ContextPlanning, string> = {
  auto: 'Auto',
  heuristic: 'Deterministic only',
  off: 'Off',
};

/** The Context planning section of the settings tab (issue 15): artifact planning, when what is attached is more than the budget holds. */
export function renderPlanningSettings(containerEl: HTMLElement, settings: StrataSettings, save: () => void): void {
  new Setting(containerEl).setName('Context planning').setHeading();
  containerEl.createDiv({
    cls: 'strata-settings-note',
    text: 'When attached notes are more than a request can hold, each one is sent in full, as a summary, as the sections that match the question, or left out. A decision stays until the note changes or you override it in the notes panel of the chat.',
  });
  let model: Setting | null = null;
  new Setting(containerEl)
    .setName('Planning')
    .setDesc(
      'Auto: plan with the planner model when the attachments are large or the budget is tight. Deterministic only: plan by search rank, with no model calls. Off: send attachments as they are; a request over the budget is refused. Default auto.',
    )
    .addDropdown((dropdown) => {
      for (const mode of CONTEXT_PLANNING) dropdown.addOption(mode, PLANNING_LABELS[mode]);
      dropdown.setValue(settings.contextPlanning).onChange((value) => {
        settings.contextPlanning = value as ContextPlanning;
        model?.setDisabled(value !== 'auto');
        save();
      });
    });
  model = new Setting(containerEl)
    .setName('Planner model')
    .setDesc(
      createFragment((f) => {
        f.appendText('The provider ID, a slash, then the model name; or a model name of the chat\'s provider. Its cost is shown apart, as planning. When empty, a cheap model of the chat\'s provider plans (else the chat\'s own model)');
        // The defaults as the planner will pick them (src/core/settings.ts plannerTarget), per configured provider.
        const defaults = settings.providers.flatMap((p) => {
          const cheap = plannerTarget({ ...settings, plannerModel: '' }, p.id, '').model;
          return cheap ? [{ name: p.name, model: cheap }] : [];
        });
        if (defaults.length === 0) {
          f.appendText('.');
          return;
        }
        f.appendText(': ');
        defaults.forEach((d, i) => {
          if (i > 0) f.appendText(', ');
          f.createEl('code', { text: d.model });
          f.appendText(` on ${d.name}`);
        });
        f.appendText('.');
      }),
    );
  const note = model.infoEl.createDiv({ cls: 'strata-settings-error', attr: { role: 'status' } });
  const check = (value: string): void => {
    const text = modelRefNote(value, settings.providers.map((p) => p.id));
    note.toggle(text !== null);
    note.setText(text ?? '');
  };
  model.addText((text) => {
    text.inputEl.setAttr('aria-label', 'Planner model');
    text
      .setPlaceholder('Default: a cheap model of the chat\'s provider')
      .setValue(settings.plannerModel)
      .onChange((value) => {
        settings.plannerModel = value.trim();
        check(value);
        save();
      });
  });
  check(settings.plannerModel);
  model.setDisabled(settings.contextPlanning !== 'auto');
  containerEl.createDiv({
    cls: 'strata-settings-note',
    text: 'Artifact summaries are written by the summary model (under Context budget above), or the chat\'s model when none is set; the same summary is reused while the note does not change.',
  });
}

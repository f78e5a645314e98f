import { Setting } from 'obsidian';
import type { StrataSettings } from '../core/settings/settings';

/** The Agent section of the settings tab (issue 14): the Agent mode's loop. */
export function renderAgentSettings(containerEl: HTMLElement, settings: StrataSettings, save: () => void): void {
  new Setting(containerEl).setName('Agent').setHeading();
  new Setting(containerEl)
    .setName('Agent steps')
    .setDesc('How many times the model may call tools for one message before it must answer. Each step is one more request; the earlier steps are read from the prompt cache.')
    .addSlider((slider) =>
      slider
        .setLimits(1, 20, 1)
        .setValue(settings.agentMaxSteps)
        .onChange((value) => {
          settings.agentMaxSteps = value;
          save();
        }),
    );
  new Setting(containerEl)
    .setName('Let the agent fetch local addresses')
    .setDesc(
      'Off: the agent cannot read this computer or your network (localhost, home and office networks, .local names, cloud metadata addresses), so text in a note or a page cannot steer it to a router or a local service. Pages you attach with @ are always fetched.',
    )
    .addToggle((toggle) =>
      toggle.setValue(settings.agentAllowLocalAddresses).onChange((value) => {
        settings.agentAllowLocalAddresses = value;
        save();
      }),
    );
}

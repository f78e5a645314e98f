import { Setting } from 'obsidian';
import type { StrataSettings } from '../core/settings/settings';
import { DEFAULT_WRITE_POLICY } from '../core/edits/writePolicy';
import { renderWritePolicy } from './writePolicySetting';

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
  renderWritePolicy(containerEl, {
    name: 'What the agent may write',
    desc: 'Ask each time: every change to a note is shown as a diff you accept or reject, hunk by hunk. Apply without asking: changes inside the folders you choose are written at once (and can be undone from the chat). Read-only: the agent gets no write tools. A project or a chat can set its own.',
    policy: settings.agentWritePolicy,
    inherit: false,
    set: (policy) => {
      settings.agentWritePolicy = policy ?? DEFAULT_WRITE_POLICY;
      save();
    },
  });
}

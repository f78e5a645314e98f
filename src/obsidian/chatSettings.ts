import { Setting } from 'obsidian';
import { MODES } from '../core/chat/modes';
import type { ChatMode, StrataSettings } from '../core/settings/settings';

/**
 * The Chat section of the settings tab: the default model and mode, the system prompt and memory,
 * where chats and prompts live, titles; then the folders the vault search leaves out.
 */
export function renderChatSettings(containerEl: HTMLElement, settings: StrataSettings, save: () => void): { refreshDefaultModel(): void } {
  new Setting(containerEl).setName('Chat').setHeading();
  let select: HTMLSelectElement | null = null;
  // Filled again whenever a provider or its models change (the tab calls refreshDefaultModel), so
  // a provider just added is offered here without reopening the settings.
  const fill = () => {
    if (!select) return;
    select.empty();
    for (const p of settings.providers) for (const m of p.models) select.createEl('option', { value: `${p.id}::${m}`, text: `${m} (${p.name})` });
    const current = `${settings.defaultProviderId}::${settings.defaultModel}`;
    if (!settings.providers.some((p) => p.id === settings.defaultProviderId && p.models.includes(settings.defaultModel))) {
      select.createEl('option', { value: current, text: `${settings.defaultModel} (${settings.defaultProviderId})` });
    }
    select.value = current;
  };
  new Setting(containerEl)
    .setName('Default model')
    .setDesc('Used by new chats. Each chat remembers its own model. The first provider you add becomes the default.')
    .addDropdown((dropdown) => {
      select = dropdown.selectEl;
      select.addClass('strata-default-model');
      fill();
      dropdown.onChange((value) => {
        const [providerId, ...rest] = value.split('::');
        settings.defaultProviderId = providerId;
        settings.defaultModel = rest.join('::');
        save();
      });
    });
  new Setting(containerEl).setName('Default mode').addDropdown((dropdown) => {
    for (const mode of MODES) dropdown.addOption(mode.id, mode.label);
    dropdown.setValue(settings.defaultMode).onChange((value) => {
      settings.defaultMode = value as ChatMode;
      save();
    });
  });
  new Setting(containerEl)
    .setName('System prompt')
    .setDesc('Leave empty for the built-in prompt. Changing it restarts the cached prefix of open chats once.')
    .addTextArea((text) => {
      text.inputEl.rows = 5;
      text.inputEl.addClass('strata-settings-textarea');
      text.setValue(settings.systemPrompt).onChange((value) => {
        settings.systemPrompt = value;
        save();
      });
    });
  new Setting(containerEl)
    .setName('Memory')
    .setDesc('What the assistant should know about you, sent with every chat.')
    .addTextArea((text) => {
      text.inputEl.rows = 4;
      text.inputEl.addClass('strata-settings-textarea');
      text.setValue(settings.memory).onChange((value) => {
        settings.memory = value;
        save();
      });
    });
  new Setting(containerEl)
    .setName('Chat folder')
    .setDesc('Where chats are saved as notes.')
    .addText((text) =>
      text.setValue(settings.chatFolder).onChange((value) => {
        if (value.trim()) {
          settings.chatFolder = value.trim();
          save();
        }
      }),
    );
  new Setting(containerEl)
    .setName('Generate chat titles')
    .setDesc('After a chat\'s first answer, the summary model (set below; else the chat\'s own model) names the chat in a few words; its cost counts in the chat\'s. A chat you renamed keeps your title. Default on.')
    .addToggle((toggle) =>
      toggle.setValue(settings.generateTitles).onChange((value) => {
        settings.generateTitles = value;
        save();
      }),
    );
  new Setting(containerEl)
    .setName('Prompts folder')
    .setDesc('Each note in it is a prompt, run by typing / in the chat or from the command palette. {selection}, {activeNote} and {input} in its text are filled in when it runs.')
    .addText((text) =>
      text.setValue(settings.promptsFolder).onChange((value) => {
        if (value.trim()) {
          settings.promptsFolder = value.trim();
          save();
        }
      }),
    );

  new Setting(containerEl)
    .setName('Excluded folders')
    .setDesc('Folders the vault search leaves out, one per line. The chat folder is always left out.')
    .addTextArea((text) => {
      text.inputEl.rows = 3;
      text.setValue(settings.searchExcludedFolders.join('\n')).onChange((value) => {
        settings.searchExcludedFolders = value.split('\n').map((f) => f.trim()).filter((f) => f !== '');
        save();
      });
    });
  return { refreshDefaultModel: fill };
}

import { PluginSettingTab, SecretComponent, Setting, type App, type Plugin } from 'obsidian';
import { FRESHNESS_POLICIES, type FreshnessPolicy } from '../core/engine/freshness';
import { RENDERINGS, type Rendering } from '../core/engine/converter';
import { MODES } from '../core/chat/modes';
import { parseWindows } from '../core/tokens/modelWindows';
import { isValidProviderId, type ChatMode, type ProviderSettings, type StrataSettings } from '../core/settings';
import { PROVIDER_KINDS, type ProviderKind } from '../core/ports/chatModel';

export interface SettingsHost extends Plugin {
  config: StrataSettings;
  saveSettings(): Promise<void>;
}

const KIND_LABELS: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible (Ollama, LM Studio, OpenRouter…)',
  anthropic: 'Anthropic',
  'openai-responses': 'OpenAI Responses (stateful)',
  'claude-code': 'Claude Code CLI (desktop)',
};

const RENDERING_LABELS: Record<Rendering, string> = {
  transcript: 'Transcript (each item sent once; best caching)',
  seed: 'Library in system prompt (resends history when the library grows)',
};

const FRESHNESS_LABELS: Record<FreshnessPolicy, string> = {
  fresh: 'Fresh: send edited notes again',
  'fresh-attached': 'Fresh when attached again',
  stable: 'Stable: keep the copy already sent',
};

/**
 * Settings: providers and keys (SecretStorage), defaults, prompts, chat folder, context behaviour.
 * Built with display(): the declarative settings API needs Obsidian 1.13, and Strata supports 1.11.4.
 */
export class StrataSettingTab extends PluginSettingTab {
  constructor(
    app: App,
    private readonly plugin: SettingsHost,
  ) {
    super(app, plugin);
  }

  display(): void {
    this.render();
  }

  private render(): void {
    const { containerEl } = this;
    containerEl.empty();
    containerEl.addClass('strata-settings');
    const settings = this.plugin.config;
    const save = () => void this.plugin.saveSettings();

    new Setting(containerEl).setName('Providers').setHeading();
    containerEl.createDiv({
      cls: 'strata-settings-note',
      text: 'API keys are kept in Obsidian\'s secret storage, never in the plugin\'s data file or in saved chats.',
    });
    settings.providers.forEach((provider, index) => this.providerSettings(containerEl, provider, index));
    new Setting(containerEl).addButton((button) =>
      button.setButtonText('Add provider').onClick(() => {
        settings.providers.push({ id: uniqueId(settings, 'provider'), kind: 'openai-compatible', name: 'New provider', models: [], baseUrl: 'http://localhost:11434/v1' });
        save();
        this.render();
      }),
    );

    new Setting(containerEl).setName('Chat').setHeading();
    new Setting(containerEl)
      .setName('Default model')
      .setDesc('Used by new chats. Each chat remembers its own model.')
      .addDropdown((dropdown) => {
        for (const p of settings.providers) for (const m of p.models) dropdown.addOption(`${p.id}::${m}`, `${m} (${p.name})`);
        const current = `${settings.defaultProviderId}::${settings.defaultModel}`;
        if (!settings.providers.some((p) => p.id === settings.defaultProviderId && p.models.includes(settings.defaultModel))) {
          dropdown.addOption(current, `${settings.defaultModel} (${settings.defaultProviderId})`);
        }
        dropdown.setValue(current).onChange((value) => {
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

  private providerSettings(containerEl: HTMLElement, provider: ProviderSettings, index: number): void {
    const settings = this.plugin.config;
    const save = () => void this.plugin.saveSettings();
    const box = containerEl.createDiv({ cls: 'strata-settings-provider' });
    new Setting(box)
      .setName(provider.name)
      .setDesc(`${KIND_LABELS[provider.kind]} · id ${provider.id}`)
      .addExtraButton((button) =>
        button
          .setIcon('trash-2')
          .setTooltip('Remove this provider')
          .onClick(() => {
            settings.providers.splice(index, 1);
            save();
            this.render();
          }),
      );
    new Setting(box).setName('Name').addText((text) =>
      text.setValue(provider.name).onChange((value) => {
        provider.name = value.trim() || provider.id;
        save();
      }),
    );
    new Setting(box)
      .setName('ID')
      .setDesc('Lowercase letters, digits and dashes. Chats remember it.')
      .addText((text) =>
        text.setValue(provider.id).onChange((value) => {
          const id = value.trim();
          if (!isValidProviderId(id) || settings.providers.some((p, i) => i !== index && p.id === id)) return;
          if (settings.defaultProviderId === provider.id) settings.defaultProviderId = id;
          provider.id = id;
          save();
        }),
      );
    new Setting(box).setName('Kind').addDropdown((dropdown) => {
      for (const kind of PROVIDER_KINDS) dropdown.addOption(kind, KIND_LABELS[kind]);
      dropdown.setValue(provider.kind).onChange((value) => {
        provider.kind = value as ProviderKind;
        save();
        this.render();
      });
    });
    if (provider.kind !== 'claude-code') {
      new Setting(box)
        .setName('Base URL')
        .setDesc(provider.kind === 'openai-compatible' ? 'Required, for example http://localhost:11434/v1' : 'Leave empty for the official endpoint.')
        .addText((text) =>
          text.setValue(provider.baseUrl ?? '').onChange((value) => {
            if (value.trim()) provider.baseUrl = value.trim();
            else delete provider.baseUrl;
            save();
          }),
        );
      new Setting(box)
        .setName('API key')
        .setDesc('Pick or create a secret in Obsidian\'s secret storage.')
        .addComponent((el) =>
          new SecretComponent(this.app, el).setValue(provider.secretId ?? '').onChange((value) => {
            if (value) provider.secretId = value;
            else delete provider.secretId;
            save();
          }),
        );
    } else {
      new Setting(box).setName('Executable').addText((text) =>
        text.setValue(provider.executable ?? '').onChange((value) => {
          if (value.trim()) provider.executable = value.trim();
          else delete provider.executable;
          save();
        }),
      );
      new Setting(box).setName('Working directory').addText((text) =>
        text.setValue(provider.cwd ?? '').onChange((value) => {
          if (value.trim()) provider.cwd = value.trim();
          else delete provider.cwd;
          save();
        }),
      );
    }
    new Setting(box)
      .setName('Models')
      .setDesc('One per line or comma-separated; the first is the default.')
      .addTextArea((text) => {
        text.inputEl.rows = 2;
        text.setValue(provider.models.join('\n')).onChange((value) => {
          provider.models = [...new Set(value.split(/[\n,]/).map((m) => m.trim()).filter(Boolean))];
          save();
        });
      });
  }
}

function uniqueId(settings: StrataSettings, base: string): string {
  let n = settings.providers.length + 1;
  while (settings.providers.some((p) => p.id === `${base}-${n}`)) n++;
  return `${base}-${n}`;
}


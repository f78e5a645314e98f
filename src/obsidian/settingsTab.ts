import { PluginSettingTab, Setting, type App, type Plugin } from 'obsidian';
import type { ProviderSettings, StrataSettings } from '../core/settings/settings';
import { renderProvider } from './providerSettings';
import { renderProjectSettings } from './projectSettings';
import type { SemanticState } from './searchIndex';
import { renderChatSettings } from './chatSettings';
import { adoptDefault } from '../core/settings/defaultModel';
import { renderContextSettings } from './contextSettings';
import { renderSemanticSearchSettings } from './semanticSearchSettings';
import { renderAgentSettings } from './agentSettings';
import { renderApplyModelSetting } from './applyModelSettings';
import { renderBudgetSettings } from './budgetSettings';
import { renderPlanningSettings } from './planningSettings';

export interface SettingsHost extends Plugin {
  config: StrataSettings;
  saveSettings(): Promise<void>;
  /** Semantic search as it runs now (what is embedded, its cost, its last error). */
  semanticSearchState?(): SemanticState;
}

/**
 * Settings: providers and keys (SecretStorage), defaults, prompts, chat folder, context behaviour.
 * Built with display(): the declarative settings API needs Obsidian 1.13, and Strata supports 1.11.4.
 */
export class StrataSettingTab extends PluginSettingTab {
  /** Providers shown expanded (by position), kept across redraws. */
  private readonly expanded = new Set<number>();
  /** Fills the Default model list again (a provider or its models changed). */
  private refreshDefaultModel: () => void = () => undefined;
  /** Refreshes the semantic search status while the tab is open. */
  private statusTimer: number | null = null;

  constructor(
    app: App,
    private readonly plugin: SettingsHost,
  ) {
    super(app, plugin);
  }

  display(): void {
    this.render();
  }

  hide(): void {
    this.stopStatus();
    super.hide();
  }

  private stopStatus(): void {
    if (this.statusTimer !== null) window.clearInterval(this.statusTimer);
    this.statusTimer = null;
  }

  private render(): void {
    const { containerEl } = this;
    containerEl.empty();
    containerEl.addClass('strata-settings');
    const settings = this.plugin.config;
    const save = () => void this.plugin.saveSettings();
    // The Default model list follows the providers as they are edited (set below, once it exists).
    this.refreshDefaultModel = () => undefined;

    new Setting(containerEl).setName('Providers').setHeading();
    containerEl.createDiv({
      cls: 'strata-settings-note',
      text: 'API keys are kept in Obsidian\'s secret storage, never in the plugin\'s data file or in saved chats.',
    });
    settings.providers.forEach((provider, index) => this.providerSettings(containerEl, provider, index));
    new Setting(containerEl).addButton((button) =>
      button.setButtonText('Add provider').onClick(() => {
        settings.providers.push({ id: uniqueId(settings, 'provider'), kind: 'openai-compatible', name: 'New provider', models: [], baseUrl: 'http://localhost:11434/v1' });
        this.expanded.add(settings.providers.length - 1);
        this.saveProviders();
        this.render();
      }),
    );

    const chat = renderChatSettings(containerEl, settings, save);
    this.refreshDefaultModel = () => chat.refreshDefaultModel();

    renderProjectSettings(containerEl, { app: this.app, settings, save, redraw: () => this.render() });

    renderContextSettings(containerEl, settings, save);

    const showStatus = renderSemanticSearchSettings(containerEl, settings, save, () => this.plugin.semanticSearchState?.() ?? { state: 'off' });
    this.stopStatus();
    this.statusTimer = window.setInterval(showStatus, 1000);
    renderAgentSettings(containerEl, settings, save);
    renderApplyModelSetting(containerEl, settings, save);
    renderBudgetSettings(containerEl, settings, save);
    renderPlanningSettings(containerEl, settings, save);
  }

  /**
   * A provider changed: when the default model is offered by none (a first setup), the first
   * provider with a model becomes the default; the Default model list shows the providers as they
   * are now; the save tells open chats (an empty one follows the new default at once).
   */
  private saveProviders(): void {
    adoptDefault(this.plugin.config);
    this.refreshDefaultModel();
    void this.plugin.saveSettings();
  }

  private providerSettings(containerEl: HTMLElement, provider: ProviderSettings, index: number): void {
    const host = {
      app: this.app,
      settings: this.plugin.config,
      save: () => this.saveProviders(),
      redraw: () => this.render(),
      remove: (at: number) => {
        this.plugin.config.providers.splice(at, 1);
        // The ones after it move up a place: so does their expanded state.
        const shifted = [...this.expanded].filter((i) => i !== at).map((i) => (i > at ? i - 1 : i));
        this.expanded.clear();
        for (const i of shifted) this.expanded.add(i);
        this.saveProviders();
        this.render();
      },
    };
    renderProvider(containerEl, host, provider, index, this.expanded.has(index), (open) => {
      if (open) this.expanded.add(index);
      else this.expanded.delete(index);
    });
  }
}

function uniqueId(settings: StrataSettings, base: string): string {
  let n = settings.providers.length + 1;
  while (settings.providers.some((p) => p.id === `${base}-${n}`)) n++;
  return `${base}-${n}`;
}

import { PluginSettingTab, Setting, type App, type Plugin } from 'obsidian';
import { FRESHNESS_POLICIES, type FreshnessPolicy } from '../core/engine/freshness';
import { RENDERINGS, type Rendering } from '../core/engine/converter';
import { MODES } from '../core/chat/modes';
import { parseWindows } from '../core/tokens/modelWindows';
import { DEFAULT_BUDGET_SETTINGS } from '../core/budget/budget';
import { CONTEXT_PLANNING, plannerTarget, type BudgetCount, type ChatMode, type ContextPlanning, type ProviderSettings, type StrataSettings } from '../core/settings';
import { modelRefNote, parseBudgetCount } from './settingsInput';
import { renderProvider } from './providerSettings';
import { renderProjectSettings } from './projectSettings';
import type { SemanticState } from './searchIndex';
import { describeSemanticState } from './semanticStatus';

export interface SettingsHost extends Plugin {
  config: StrataSettings;
  saveSettings(): Promise<void>;
  /** Semantic search as it runs now (what is embedded, its cost, its last error). */
  semanticSearchState?(): SemanticState;
}

const RENDERING_LABELS: Record<Rendering, string> = {
  transcript: 'Transcript (each item sent once; best caching)',
  seed: 'Library in system prompt (resends history when the library grows)',
};

const PLANNING_LABELS: Record<ContextPlanning, string> = {
  auto: 'Auto',
  heuristic: 'Deterministic only',
  off: 'Off',
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
  /** Providers shown expanded (by position), kept across redraws. */
  private readonly expanded = new Set<number>();
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

    renderProjectSettings(containerEl, { app: this.app, settings, save, redraw: () => this.render() });

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

    this.semanticSearchSettings(containerEl);
    this.agentSettings(containerEl);
    this.budgetSettings(containerEl);
    this.planningSettings(containerEl);
  }

  /** Issue 13: embeddings fused with the lexical search. Off by default: it sends the vault to the embedding model. */
  private semanticSearchSettings(containerEl: HTMLElement): void {
    const settings = this.plugin.config;
    const save = () => void this.plugin.saveSettings();
    new Setting(containerEl).setName('Semantic search').setHeading();
    containerEl.createDiv({
      cls: 'strata-settings-note',
      text: 'Finds notes by meaning as well as by words. Every section of every note is sent once to the embedding model, and again when it changes; each search sends the question. With OpenAI\'s text-embedding-3-small that is $0.02 per million tokens (a vault of 1,000 notes is often about a million tokens: about 2 cents to index); a local model through Ollama costs nothing and nothing leaves the computer. The tokens and cost are counted.',
    });
    let model: Setting | null = null;
    new Setting(containerEl)
      .setName('Use semantic search')
      .setDesc('Off by default. When on, search ranks by words and by meaning together.')
      .addToggle((toggle) =>
        toggle.setValue(settings.semanticSearch).onChange((value) => {
          settings.semanticSearch = value;
          model?.setDisabled(!value);
          save();
        }),
      );
    model = new Setting(containerEl)
      .setName('Embedding model')
      .setDesc('The provider ID, a slash, then the model name. For a model on this computer, add an OpenAI-compatible provider for the local server and name one of its embedding models, such as nomic-embed-text. Changing it embeds the vault again.')
      .addText((text) =>
        text
          .setPlaceholder('Provider ID/model')
          .setValue(settings.embeddingModel)
          .onChange((value) => {
            settings.embeddingModel = value.trim();
            save();
          }),
      );
    model.setDisabled(!settings.semanticSearch);
    const status = new Setting(containerEl).setName('Status');
    status.descEl.addClass('strata-semantic-status');
    const show = (): void => {
      const state = this.plugin.semanticSearchState?.() ?? { state: 'off' };
      status.setDesc(describeSemanticState(state));
    };
    show();
    this.stopStatus();
    this.statusTimer = window.setInterval(show, 1000);
  }

  /** Issue 14: the Agent mode's loop. */
  private agentSettings(containerEl: HTMLElement): void {
    const settings = this.plugin.config;
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
            void this.plugin.saveSettings();
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
          void this.plugin.saveSettings();
        }),
      );
  }

  /** Seed 001's context settings: the input budget, when and how a chat condenses. */
  private budgetSettings(containerEl: HTMLElement): void {
    const settings = this.plugin.config;
    const save = () => void this.plugin.saveSettings();
    const d = DEFAULT_BUDGET_SETTINGS;
    const n = (x: number) => x.toLocaleString('en-US');
    new Setting(containerEl).setName('Context budget').setHeading();
    containerEl.createDiv({
      cls: 'strata-settings-note',
      text: 'Each request fits a budget: the smaller of the max context tokens and the model\'s window less the reserved output tokens. When a chat nears it, older messages are condensed into a summary; they stay in the chat.',
    });
    this.countSetting(containerEl, 'maxContextTokens', 'Max context tokens', `The most tokens one request may carry, whatever the model's window. Default ${n(d.maxContextTokens)}.`);
    this.countSetting(containerEl, 'reservedOutputTokens', 'Reserved output tokens', `Tokens kept free in the model's window for the reply (at most half the window). Default ${n(d.reservedOutputTokens)}.`);
    this.countSetting(
      containerEl,
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
          void this.plugin.saveSettings();
        });
      });
    threshold.setDisabled(!settings.autoCondense);
    this.countSetting(
      containerEl,
      'maxCodeLines',
      'Max code lines',
      `Code blocks longer than this in condensed history keep their first and last lines, with a note of how many were cut. The current message is always sent whole. Default ${n(d.maxCodeLines)}.`,
    );
    this.countSetting(
      containerEl,
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

  /** Issue 15: artifact planning, when what is attached is more than the budget holds. */
  private planningSettings(containerEl: HTMLElement): void {
    const settings = this.plugin.config;
    const save = () => void this.plugin.saveSettings();
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

  /** A whole-number setting: what does not parse or is out of range is refused, said under its name, and not saved. */
  private countSetting(containerEl: HTMLElement, key: BudgetCount, name: string, desc: string): void {
    const settings = this.plugin.config;
    const setting = new Setting(containerEl).setName(name).setDesc(desc);
    setting.settingEl.addClass('strata-settings-number');
    const error = setting.infoEl.createDiv({ cls: 'strata-settings-error', attr: { role: 'alert' } });
    error.hide();
    setting.addText((text) => {
      text.inputEl.setAttr('inputmode', 'numeric');
      text.inputEl.setAttr('aria-label', name);
      text.setValue(String(settings[key])).onChange((value) => {
        const parsed = parseBudgetCount(key, value);
        text.inputEl.toggleClass('is-invalid', !parsed.ok);
        text.inputEl.setAttr('aria-invalid', String(!parsed.ok));
        error.toggle(!parsed.ok);
        if (!parsed.ok) {
          error.setText(`Not saved: ${parsed.error}`);
          return;
        }
        error.setText('');
        settings[key] = parsed.value;
        void this.plugin.saveSettings();
      });
    });
  }


  private providerSettings(containerEl: HTMLElement, provider: ProviderSettings, index: number): void {
    const host = {
      app: this.app,
      settings: this.plugin.config,
      save: () => void this.plugin.saveSettings(),
      redraw: () => this.render(),
      remove: (at: number) => {
        this.plugin.config.providers.splice(at, 1);
        // The ones after it move up a place: so does their expanded state.
        const shifted = [...this.expanded].filter((i) => i !== at).map((i) => (i > at ? i - 1 : i));
        this.expanded.clear();
        for (const i of shifted) this.expanded.add(i);
        void this.plugin.saveSettings();
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


/**
 * One provider in the settings tab: a one-line summary (name, kind, model count, key status) that
 * expands to edit it, refresh its models from the provider, set temperature and max output tokens,
 * and test the connection.
 */
import { Platform, requestUrl, SecretComponent, Setting, type App } from 'obsidian';
import { formatModelOptions, parseMaxOutput, parseModelOptions, parseTemperature, type GenerationOptions } from '../core/generation';
import { PROVIDER_KINDS, type ProviderKind } from '../core/ports/chatModel';
import { isValidProviderId, type ProviderSettings, type StrataSettings } from '../core/settings/settings';
import { requestUrlFetch } from '../providers';
import { keyStatus, testConnection, type KeyStatus } from '../providers/connectionTest';
import { chatModelsOnly, listModels, mergeModels } from '../providers/modelList';
import { obsidianProviderFactory } from './providerWiring';
import { numberSetting, type ParsedNumber } from './numberSetting';
import { CLI_KINDS, cliFields, cliKindsUnavailable } from './cliProviderSettings';

export const KIND_LABELS: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible (Ollama, LM Studio, OpenRouter…)',
  anthropic: 'Anthropic',
  'openai-responses': 'OpenAI Responses (stateful)',
  'claude-code': 'Claude Code CLI (desktop)',
  codex: 'Codex CLI (desktop)',
  gemini: 'Google Gemini',
};

/** The kind in the one-line summary. */
const SHORT_KIND: Record<ProviderKind, string> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible',
  anthropic: 'Anthropic',
  'openai-responses': 'OpenAI Responses',
  'claude-code': 'Claude Code',
  codex: 'Codex',
  gemini: 'Gemini',
};

const KEY_TEXT: Record<KeyStatus, string> = { set: 'Key set', missing: 'No key', 'not-needed': 'No key needed' };

export interface ProviderSectionHost {
  readonly app: App;
  readonly settings: StrataSettings;
  save(): void;
  /** Re-render the whole tab (the kind changed). */
  redraw(): void;
  /** Remove the provider at `index` (and re-render). */
  remove(index: number): void;
}

/** The summary line's text, for tests and the summary itself: "3 models · Key set". */
export function providerSummary(provider: ProviderSettings, key: KeyStatus): { name: string; kind: string; models: string; key: string } {
  const n = provider.models.length;
  return { name: provider.name, kind: SHORT_KIND[provider.kind], models: `${n} model${n === 1 ? '' : 's'}`, key: KEY_TEXT[key] };
}

export function renderProvider(containerEl: HTMLElement, host: ProviderSectionHost, provider: ProviderSettings, index: number, open: boolean, onToggle: (open: boolean) => void): void {
  const { app, settings } = host;
  const save = () => host.save();
  const secret = (id: string) => app.secretStorage.getSecret(id);
  const box = containerEl.createEl('details', { cls: 'strata-settings-provider', attr: { 'data-provider': provider.id } });
  box.open = open;
  box.addEventListener('toggle', () => onToggle(box.open));
  const summaryEl = box.createEl('summary', { cls: 'strata-provider-summary' });
  const refreshSummary = () => {
    const key = keyStatus(provider, secret);
    const s = providerSummary(provider, key);
    summaryEl.empty();
    summaryEl.createSpan({ cls: 'strata-provider-name', text: s.name });
    const facts = summaryEl.createSpan({ cls: 'strata-provider-facts' });
    facts.createSpan({ cls: 'strata-provider-kind', text: s.kind });
    facts.createSpan({ cls: 'strata-provider-models', text: s.models });
    facts.createSpan({ cls: `strata-provider-key is-${key}`, text: s.key });
  };
  refreshSummary();
  const body = box.createDiv({ cls: 'strata-provider-body' });

  new Setting(body).setName('Name').addText((text) =>
    text.setValue(provider.name).onChange((value) => {
      provider.name = value.trim() || provider.id;
      refreshSummary();
      save();
    }),
  );
  new Setting(body)
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
  // The CLI kinds (Claude Code, Codex) run a command as a child process: only Obsidian's desktop app
  // has one. On a phone or tablet they are not offered (a provider synced from a computer stays, said unusable here).
  const desktop = Platform.isDesktopApp;
  const kindSetting = new Setting(body).setName('Kind').addDropdown((dropdown) => {
    for (const kind of PROVIDER_KINDS) if (desktop || !CLI_KINDS.has(kind) || provider.kind === kind) dropdown.addOption(kind, KIND_LABELS[kind]);
    dropdown.setValue(provider.kind).onChange((value) => {
      provider.kind = value as ProviderKind;
      save();
      host.redraw();
    });
  });
  if (!desktop) kindSetting.setDesc(cliKindsUnavailable(provider.kind));
  if (provider.kind !== 'claude-code') {
    new Setting(body)
      .setName('Base URL')
      .setDesc(provider.kind === 'openai-compatible' ? 'Required, for example http://localhost:11434/v1' : provider.kind === 'codex' ? 'Optional: a Responses API endpoint for Codex (empty: OpenAI).' : 'Leave empty for the official endpoint.')
      .addText((text) =>
        text.setValue(provider.baseUrl ?? '').onChange((value) => {
          if (value.trim()) provider.baseUrl = value.trim();
          else delete provider.baseUrl;
          save();
        }),
      );
    new Setting(body)
      .setName('API key')
      .setDesc(provider.kind === 'codex' ? "Optional: without one, Codex uses the login in Strata's Codex folder (see below)." : "Pick or create a secret in Obsidian's secret storage.")
      .addComponent((el) =>
        new SecretComponent(app, el).setValue(provider.secretId ?? '').onChange((value) => {
          if (value) provider.secretId = value;
          else delete provider.secretId;
          refreshSummary();
          save();
        }),
      );
  }
  if (CLI_KINDS.has(provider.kind)) cliFields(body, provider, save);
  modelsSetting(body, host, provider, refreshSummary);
  generationSettings(body, host, provider);
  connectionSetting(body, host, provider);
  new Setting(body).addButton((button) => {
    // setDestructive() needs Obsidian 1.13; the class is what it sets.
    button.buttonEl.addClass('mod-warning');
    button.setButtonText('Remove provider').onClick(() => host.remove(index));
  });
}

function modelsSetting(body: HTMLElement, host: ProviderSectionHost, provider: ProviderSettings, refreshSummary: () => void): void {
  let area: HTMLTextAreaElement | null = null;
  const setting = new Setting(body).setName('Models').setDesc('One per line or comma-separated; the first is the default.');
  const status = setting.infoEl.createDiv({ cls: 'strata-provider-status', attr: { role: 'status' } });
  status.hide();
  setting.addTextArea((text) => {
    area = text.inputEl;
    text.inputEl.rows = 3;
    text.setValue(provider.models.join('\n')).onChange((value) => {
      provider.models = [...new Set(value.split(/[\n,]/).map((m) => m.trim()).filter(Boolean))];
      refreshSummary();
      host.save();
    });
  });
  if (CLI_KINDS.has(provider.kind)) return;
  setting.addButton((button) =>
    button
      .setButtonText('Refresh models')
      .setTooltip("Add the provider's chat models to the list (your own entries stay)")
      .onClick(async () => {
        button.setDisabled(true);
        status.show();
        status.removeClass('is-error');
        status.setText('Asking the provider for its models…');
        try {
          const key = provider.secretId ? host.app.secretStorage.getSecret(provider.secretId) : null;
          const ids = await listModels({ kind: provider.kind, ...(provider.baseUrl ? { baseUrl: provider.baseUrl } : {}), ...(key ? { apiKey: key } : {}), fetch: requestUrlFetch((p) => requestUrl(p)) });
          const chat = chatModelsOnly(ids);
          const before = provider.models.length;
          provider.models = mergeModels(provider.models, chat);
          if (area) area.value = provider.models.join('\n');
          refreshSummary();
          host.save();
          status.setText(refreshText(provider.models.length - before, chat.length, ids.length - chat.length));
        } catch (error) {
          status.addClass('is-error');
          status.setText(error instanceof Error ? error.message : String(error));
        } finally {
          button.setDisabled(false);
        }
      }),
  );
}

function refreshText(added: number, chat: number, others: number): string {
  const what = added === 0 ? 'No new models' : `${added} new model${added === 1 ? '' : 's'} added`;
  const left = others > 0 ? `; ${others} others (embeddings, speech, images…) left out` : '';
  return `${what}: the provider lists ${chat} chat model${chat === 1 ? '' : 's'}${left}.`;
}

/** Temperature, max output tokens and their per-model overrides (Claude Code ignores them: said instead). */
function generationSettings(body: HTMLElement, host: ProviderSectionHost, provider: ProviderSettings): void {
  if (CLI_KINDS.has(provider.kind)) {
    body.createDiv({ cls: 'strata-settings-note', text: `${SHORT_KIND[provider.kind]} chooses its own temperature and reply length: Strata sends neither.` });
    return;
  }
  const field = (name: string, desc: string, current: number | undefined, parse: (t: string) => ParsedNumber<number | null>, set: (v: number | null) => void) =>
    numberSetting(body, {
      name,
      desc,
      value: current === undefined ? '' : String(current),
      placeholder: 'Default',
      parse,
      apply: (value) => {
        set(value);
        host.save();
      },
    });
  field('Temperature', 'From 0 (focused) to 2 (varied; Anthropic allows up to 1). Empty: the provider\'s default, and none is sent.', provider.temperature, parseTemperature, (v) => {
    if (v === null) delete provider.temperature;
    else provider.temperature = v;
  });
  field(
    'Max output tokens',
    'The longest reply. When set, the context budget keeps exactly this much of the model\'s window free for it. Empty: the provider\'s default.',
    provider.maxOutputTokens,
    parseMaxOutput,
    (v) => {
      if (v === null) delete provider.maxOutputTokens;
      else provider.maxOutputTokens = v;
    },
  );
  const setting = new Setting(body).setName('Per-model overrides').setDesc('One model per line; a model\'s values win over the ones above. Example: my-model = temperature 0.3, max output 2000');
  const error = setting.infoEl.createDiv({ cls: 'strata-settings-error', attr: { role: 'alert' } });
  error.hide();
  setting.addTextArea((text) => {
    text.inputEl.rows = 2;
    text.inputEl.setAttr('aria-label', 'Per-model overrides');
    text.setValue(formatModelOptions(provider.modelOptions)).onChange((value) => {
      const parsed = parseModelOptions(value);
      error.toggle(parsed.errors.length > 0);
      error.setText(parsed.errors.length > 0 ? `Left out: ${parsed.errors.join(' ')}` : '');
      const options: Record<string, GenerationOptions> = parsed.options;
      if (Object.keys(options).length > 0) provider.modelOptions = options;
      else delete provider.modelOptions;
      host.save();
    });
  });
}

function connectionSetting(body: HTMLElement, host: ProviderSectionHost, provider: ProviderSettings): void {
  const setting = new Setting(body).setName('Connection').setDesc('Sends a one-word request to the first model.');
  const result = setting.infoEl.createDiv({ cls: 'strata-provider-test-result', attr: { role: 'status' } });
  result.hide();
  setting.addButton((button) =>
    button.setButtonText('Test connection').onClick(async () => {
      button.setDisabled(true);
      result.show();
      result.removeClass('is-ok', 'is-error');
      result.setText(`Testing ${provider.models[0] ?? ''}…`);
      const build = obsidianProviderFactory(host.app, () => host.settings, { retry: { attempts: 1 } });
      const report = await testConnection(provider, { build, secret: (id) => host.app.secretStorage.getSecret(id), now: () => performance.now() });
      result.addClass(report.ok ? 'is-ok' : 'is-error');
      result.setText(report.message);
      button.setDisabled(false);
    }),
  );
}

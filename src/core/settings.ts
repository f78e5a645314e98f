import { FRESHNESS_POLICIES, type FreshnessPolicy } from './engine/freshness';
import { RENDERINGS, type Rendering } from './engine/converter';
import { PROVIDER_KINDS, type ProviderKind } from '../providers/types';

export { PROVIDER_KINDS };

/** Chat modes: what the assistant is asked to do with the context (a dynamic prompt fragment, never a prefix break). */
export const CHAT_MODES = ['chat', 'notes-only'] as const;
export type ChatMode = (typeof CHAT_MODES)[number];

/**
 * One configured provider endpoint. Never holds an API key: `secretId` names the secret in
 * Obsidian's SecretStorage.
 */
export interface ProviderSettings {
  /** Stable id (lowercase letters, digits, dashes): chats remember it. */
  id: string;
  kind: ProviderKind;
  /** Display name. */
  name: string;
  baseUrl?: string;
  /** Models offered in the picker, first is the provider's default. */
  models: string[];
  secretId?: string;
  /** Claude Code: CLI executable and working directory. */
  executable?: string;
  cwd?: string;
}

/** Plugin settings as stored in data.json. Never holds API keys (those live in SecretStorage). */
export interface StrataSettings {
  providers: ProviderSettings[];
  defaultProviderId: string;
  defaultModel: string;
  defaultMode: ChatMode;
  systemPrompt: string;
  memory: string;
  chatFolder: string;
  rendering: Rendering;
  freshness: FreshnessPolicy;
  attachActiveNote: boolean;
  /** User overrides of the model context-window table. */
  contextWindows: Record<string, number>;
}

export const DEFAULT_PROVIDERS: readonly ProviderSettings[] = [
  { id: 'openai', kind: 'openai', name: 'OpenAI', models: ['gpt-4o', 'gpt-4o-mini', 'gpt-4.1'], secretId: 'openai-api-key' },
  {
    id: 'anthropic',
    kind: 'anthropic',
    name: 'Anthropic',
    models: ['claude-sonnet-4-5', 'claude-haiku-4-5'],
    secretId: 'anthropic-api-key',
  },
];

export const DEFAULT_SETTINGS: StrataSettings = {
  providers: DEFAULT_PROVIDERS.map(cloneProvider),
  defaultProviderId: 'openai',
  defaultModel: 'gpt-4o',
  defaultMode: 'chat',
  systemPrompt: '',
  memory: '',
  chatFolder: 'Strata/Chats',
  rendering: 'transcript',
  freshness: 'fresh',
  attachActiveNote: true,
  contextWindows: {},
};

export interface SettingsLoad {
  settings: StrataSettings;
  /** Fields that were present but invalid and fell back to defaults: shown to the user. */
  warnings: string[];
}

const ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

export function isValidProviderId(id: string): boolean {
  return ID_PATTERN.test(id);
}

export function cloneProvider(p: ProviderSettings): ProviderSettings {
  return { ...p, models: [...p.models] };
}

export function defaultSettings(): StrataSettings {
  return { ...DEFAULT_SETTINGS, providers: DEFAULT_PROVIDERS.map(cloneProvider), contextWindows: {} };
}

/**
 * Validate whatever data.json held (it may be missing, hand-edited or corrupted) field by field:
 * a bad field falls back to its default with a warning; good fields are kept.
 */
export function loadSettings(raw: unknown): SettingsLoad {
  const warnings: string[] = [];
  const settings = defaultSettings();
  if (raw === null || raw === undefined) return { settings, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { settings, warnings: ['settings file is not an object; defaults are used'] };
  }
  const data = raw as Record<string, unknown>;
  const str = (key: 'systemPrompt' | 'memory' | 'defaultModel' | 'chatFolder' | 'defaultProviderId', nonEmpty: boolean) => {
    const value = data[key];
    if (value === undefined) return;
    if (typeof value === 'string' && (!nonEmpty || value.trim())) settings[key] = value;
    else warnings.push(`${key}: expected ${nonEmpty ? 'a non-empty ' : 'a '}string; default used`);
  };
  str('systemPrompt', false);
  str('memory', false);
  str('defaultModel', true);
  str('chatFolder', true);
  str('defaultProviderId', true);
  if (data.rendering !== undefined) {
    if (RENDERINGS.includes(data.rendering as Rendering)) settings.rendering = data.rendering as Rendering;
    else warnings.push(`rendering: expected one of ${RENDERINGS.join(', ')}; default used`);
  }
  if (data.freshness !== undefined) {
    if (FRESHNESS_POLICIES.includes(data.freshness as FreshnessPolicy)) settings.freshness = data.freshness as FreshnessPolicy;
    else warnings.push(`freshness: expected one of ${FRESHNESS_POLICIES.join(', ')}; default used`);
  }
  if (data.defaultMode !== undefined) {
    if (CHAT_MODES.includes(data.defaultMode as ChatMode)) settings.defaultMode = data.defaultMode as ChatMode;
    else warnings.push(`defaultMode: expected one of ${CHAT_MODES.join(', ')}; default used`);
  }
  if (data.attachActiveNote !== undefined) {
    if (typeof data.attachActiveNote === 'boolean') settings.attachActiveNote = data.attachActiveNote;
    else warnings.push('attachActiveNote: expected true or false; default used');
  }
  if (data.contextWindows !== undefined) {
    const windows = data.contextWindows;
    if (windows && typeof windows === 'object' && !Array.isArray(windows)) {
      for (const [model, value] of Object.entries(windows as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
        if (typeof value === 'number' && Number.isInteger(value) && value > 0) settings.contextWindows[model] = value;
        else warnings.push(`contextWindows.${model}: expected a positive whole number; ignored`);
      }
    } else {
      warnings.push('contextWindows: expected an object; ignored');
    }
  }
  if (data.providers !== undefined) {
    if (Array.isArray(data.providers)) {
      const providers: ProviderSettings[] = [];
      data.providers.forEach((entry, index) => {
        const parsed = parseProvider(entry, index, warnings);
        if (!parsed) return;
        if (providers.some((p) => p.id === parsed.id)) {
          warnings.push(`providers[${index}]: duplicate id "${parsed.id}"; ignored`);
          return;
        }
        providers.push(parsed);
      });
      settings.providers = providers;
    } else {
      warnings.push('providers: expected a list; defaults used');
    }
  }
  for (const key of ['apiKey', 'openAIApiKey', 'anthropicApiKey']) {
    if (key in data) warnings.push(`${key}: API keys are not read from data.json; store them in Obsidian's secret storage`);
  }
  if (settings.providers.length > 0 && !settings.providers.some((p) => p.id === settings.defaultProviderId)) {
    if (data.defaultProviderId !== undefined) {
      warnings.push(`defaultProviderId: no provider "${settings.defaultProviderId}"; the first provider is used`);
    }
    settings.defaultProviderId = settings.providers[0].id;
    if (data.defaultModel === undefined && settings.providers[0].models.length > 0) settings.defaultModel = settings.providers[0].models[0];
  }
  return { settings, warnings };
}

function parseProvider(entry: unknown, index: number, warnings: string[]): ProviderSettings | null {
  const where = `providers[${index}]`;
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) {
    warnings.push(`${where}: expected an object; ignored`);
    return null;
  }
  const e = entry as Record<string, unknown>;
  if (typeof e.id !== 'string' || !isValidProviderId(e.id)) {
    warnings.push(`${where}.id: expected lowercase letters, digits and dashes; provider ignored`);
    return null;
  }
  if (!PROVIDER_KINDS.includes(e.kind as ProviderKind)) {
    warnings.push(`${where}.kind: expected one of ${PROVIDER_KINDS.join(', ')}; provider ignored`);
    return null;
  }
  const provider: ProviderSettings = {
    id: e.id,
    kind: e.kind as ProviderKind,
    name: typeof e.name === 'string' && e.name.trim() ? e.name : e.id,
    models: [],
  };
  if (e.name !== undefined && (typeof e.name !== 'string' || !e.name.trim())) warnings.push(`${where}.name: expected a string; id used`);
  if (Array.isArray(e.models)) {
    for (const m of e.models as unknown[]) {
      if (typeof m === 'string' && m.trim()) {
        if (!provider.models.includes(m.trim())) provider.models.push(m.trim());
      } else warnings.push(`${where}.models: a model name is not a string; ignored`);
    }
  } else if (e.models !== undefined) {
    warnings.push(`${where}.models: expected a list of model names; ignored`);
  }
  const optional = (key: 'baseUrl' | 'secretId' | 'executable' | 'cwd') => {
    const value = e[key];
    if (value === undefined || value === '') return;
    if (typeof value === 'string') provider[key] = value;
    else warnings.push(`${where}.${key}: expected a string; ignored`);
  };
  optional('baseUrl');
  optional('secretId');
  optional('executable');
  optional('cwd');
  return provider;
}

/** The provider settings for an id, or undefined. */
export function findProvider(settings: StrataSettings, id: string): ProviderSettings | undefined {
  return settings.providers.find((p) => p.id === id);
}

/**
 * The configured provider and model a chat from elsewhere (a Copilot import) should continue with:
 * a provider with that id, else one of that kind ("openai", "anthropic"), else the default; the
 * chat's model when that provider offers it, else the provider's first model (or the default model).
 */
export function adoptProvider(settings: StrataSettings, provider: string, model: string): { provider: string; model: string } {
  const wanted = provider.toLowerCase();
  const chosen =
    settings.providers.find((p) => p.id === wanted) ??
    settings.providers.find((p) => p.kind === wanted) ??
    settings.providers.find((p) => p.id === settings.defaultProviderId) ??
    settings.providers[0];
  if (!chosen) return { provider, model };
  const fallback = chosen.id === settings.defaultProviderId ? settings.defaultModel : (chosen.models[0] ?? settings.defaultModel);
  return { provider: chosen.id, model: chosen.models.includes(model) ? model : fallback };
}

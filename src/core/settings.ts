import { FRESHNESS_POLICIES, type FreshnessPolicy } from './engine/freshness';
import { RENDERINGS, type Rendering } from './engine/converter';

/** Plugin settings as stored in data.json. Never holds API keys (those live in SecretStorage). */
export interface StrataSettings {
  systemPrompt: string;
  memory: string;
  defaultModel: string;
  chatFolder: string;
  rendering: Rendering;
  freshness: FreshnessPolicy;
  attachActiveNote: boolean;
  /** User overrides of the model context-window table. */
  contextWindows: Record<string, number>;
}

export const DEFAULT_SETTINGS: StrataSettings = {
  systemPrompt: '',
  memory: '',
  defaultModel: 'gpt-4o',
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

/**
 * Validate whatever data.json held (it may be missing, hand-edited or corrupted) field by field:
 * a bad field falls back to its default with a warning; good fields are kept.
 */
export function loadSettings(raw: unknown): SettingsLoad {
  const warnings: string[] = [];
  const settings: StrataSettings = { ...DEFAULT_SETTINGS, contextWindows: {} };
  if (raw === null || raw === undefined) return { settings, warnings };
  if (typeof raw !== 'object' || Array.isArray(raw)) {
    return { settings, warnings: ['settings file is not an object; defaults are used'] };
  }
  const data = raw as Record<string, unknown>;
  const str = (key: 'systemPrompt' | 'memory' | 'defaultModel' | 'chatFolder', nonEmpty: boolean) => {
    const value = data[key];
    if (value === undefined) return;
    if (typeof value === 'string' && (!nonEmpty || value.trim())) settings[key] = value;
    else warnings.push(`${key}: expected ${nonEmpty ? 'a non-empty ' : 'a '}string; default used`);
  };
  str('systemPrompt', false);
  str('memory', false);
  str('defaultModel', true);
  str('chatFolder', true);
  if (data.rendering !== undefined) {
    if (RENDERINGS.includes(data.rendering as Rendering)) settings.rendering = data.rendering as Rendering;
    else warnings.push(`rendering: expected one of ${RENDERINGS.join(', ')}; default used`);
  }
  if (data.freshness !== undefined) {
    if (FRESHNESS_POLICIES.includes(data.freshness as FreshnessPolicy)) settings.freshness = data.freshness as FreshnessPolicy;
    else warnings.push(`freshness: expected one of ${FRESHNESS_POLICIES.join(', ')}; default used`);
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
  for (const key of ['apiKey', 'openAIApiKey', 'anthropicApiKey']) {
    if (key in data) warnings.push(`${key}: API keys are not read from data.json; store them in Obsidian's secret storage`);
  }
  return { settings, warnings };
}

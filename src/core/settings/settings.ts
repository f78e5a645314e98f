import { z } from 'zod';
import { lazySchema } from '../lazySchema';
import { DEFAULT_BUDGET_SETTINGS, type BudgetSettings } from './budgetSettings';
import { FRESHNESS_POLICIES, RENDERINGS } from './engineChoices';
import { generationOptionsFor, TEMPERATURE_RANGE } from '../generation';
import { leftOut, NonBlank, orElse, readLenient } from '../lenient';
import { PROVIDER_KINDS, type ProviderKind } from '../ports/chatModel';
import { ProjectSchema } from './projectSettings';
import { WritePolicySetting } from './writePolicySchema';

/** Chat modes: what the assistant is asked to do with the context (a dynamic prompt fragment, never a prefix break). */
export const CHAT_MODES = ['chat', 'notes-only', 'vault-qa', 'agent'] as const;
export type ChatMode = (typeof CHAT_MODES)[number];

const ID_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

export function isValidProviderId(id: string): boolean {
  return ID_PATTERN.test(id);
}

const OPTIONAL_TEXT = ['baseUrl', 'secretId', 'executable', 'cwd'];

const Temperature = lazySchema(() => z.number().min(TEMPERATURE_RANGE.min).max(TEMPERATURE_RANGE.max));
const MaxOutput = lazySchema(() => z.int().min(1));
const GenerationSchema = lazySchema(() => z.object({ temperature: leftOut(Temperature()).optional(), maxOutputTokens: leftOut(MaxOutput()).optional() }));

/**
 * One configured provider endpoint. Never holds an API key: `secretId` names the secret in
 * Obsidian's SecretStorage. An empty optional text field means unset.
 */
const ProviderSchema = lazySchema(() => z
  .preprocess(
    (v) => (v !== null && typeof v === 'object' && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).filter(([k, x]) => !(OPTIONAL_TEXT.includes(k) && x === ''))) : v),
    z.object({
      /** Stable id (lowercase letters, digits, dashes): chats remember it. */
      id: z.string().regex(ID_PATTERN, { error: 'expected lowercase letters, digits and dashes' }),
      kind: z.enum(PROVIDER_KINDS),
      /** Display name (the id when it has none). */
      name: leftOut(NonBlank, 'the id is used').optional(),
      baseUrl: leftOut(z.string()).optional(),
      /** Models offered in the picker, first is the provider's default. */
      models: orElse(z.array(leftOut(NonBlank)), [], 'no models are listed'),
      secretId: leftOut(z.string()).optional(),
      /** Claude Code: CLI executable and working directory. */
      executable: leftOut(z.string()).optional(),
      cwd: leftOut(z.string()).optional(),
      /** Optional generation options (unset: the provider's default, nothing sent); see ./generation.ts. */
      temperature: leftOut(Temperature()).optional(),
      maxOutputTokens: leftOut(MaxOutput()).optional(),
      modelOptions: leftOut(z.record(z.string(), leftOut(GenerationSchema()))).optional(),
    }),
  )
  .transform(({ name, models, ...provider }) => ({ ...provider, name: name ?? provider.id, models: [...new Set(models.map((m) => m.trim()))] })));

export type ProviderSettings = z.infer<ReturnType<typeof ProviderSchema>>;

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

/** The whole-number budget settings and their limits: data.json is read and the settings tab checks input against the same ones. */
export const BUDGET_COUNT_LIMITS = {
  maxContextTokens: { min: 1_000, max: null },
  // No room for the reply is never what anyone wants.
  reservedOutputTokens: { min: 1, max: null },
  keepMessages: { min: 0, max: 200 },
  maxCodeLines: { min: 10, max: null },
  maxOutputLines: { min: 10, max: null },
} as const satisfies Record<string, { min: number; max: number | null }>;

export type BudgetCount = keyof typeof BUDGET_COUNT_LIMITS;

function budgetCount(key: BudgetCount) {
  const { min, max } = BUDGET_COUNT_LIMITS[key];
  return max === null ? z.int().min(min) : z.int().min(min).max(max);
}

export const CONTEXT_PLANNING = ['auto', 'heuristic', 'off'] as const;
export type ContextPlanning = (typeof CONTEXT_PLANNING)[number];

/**
 * Plugin settings as stored in data.json (it may be missing, hand-edited or corrupted): a bad
 * field falls back to its default with a warning; good fields are kept. Never holds API keys
 * (those live in SecretStorage).
 */
const SettingsSchema = lazySchema(() => z.object({
  providers: orElse(z.array(leftOut(ProviderSchema(), 'the provider is left out')), [...DEFAULT_PROVIDERS], 'the default providers are used'),
  defaultProviderId: orElse(NonBlank, 'openai'),
  defaultModel: orElse(NonBlank, 'gpt-4o'),
  defaultMode: orElse(z.enum(CHAT_MODES), 'chat'),
  systemPrompt: orElse(z.string(), ''),
  memory: orElse(z.string(), ''),
  chatFolder: orElse(NonBlank, 'Strata/Chats'),
  /** Custom prompts: each note in this folder (and its subfolders) is a prompt, run as `/name` or a command. */
  promptsFolder: orElse(NonBlank, 'Strata/Prompts'),
  /** Folders the vault search leaves out, besides the chat folder (always left out). */
  searchExcludedFolders: orElse(z.array(z.string()), []),
  rendering: orElse(z.enum(RENDERINGS), 'transcript'),
  freshness: orElse(z.enum(FRESHNESS_POLICIES), 'fresh'),
  attachActiveNote: orElse(z.boolean(), true),
  // Budget and condensing (seed 001's context settings): see src/core/budget/budget.ts.
  maxContextTokens: orElse(budgetCount('maxContextTokens'), DEFAULT_BUDGET_SETTINGS.maxContextTokens, 'the default is used'),
  reservedOutputTokens: orElse(budgetCount('reservedOutputTokens'), DEFAULT_BUDGET_SETTINGS.reservedOutputTokens, 'the default is used'),
  autoCondense: orElse(z.boolean(), DEFAULT_BUDGET_SETTINGS.autoCondense),
  condenseThreshold: orElse(z.number().min(0.5).max(0.95), DEFAULT_BUDGET_SETTINGS.condenseThreshold, 'the default is used'),
  keepMessages: orElse(budgetCount('keepMessages'), DEFAULT_BUDGET_SETTINGS.keepMessages, 'the default is used'),
  maxCodeLines: orElse(budgetCount('maxCodeLines'), DEFAULT_BUDGET_SETTINGS.maxCodeLines, 'the default is used'),
  maxOutputLines: orElse(budgetCount('maxOutputLines'), DEFAULT_BUDGET_SETTINGS.maxOutputLines, 'the default is used'),
  summarize: orElse(z.boolean(), DEFAULT_BUDGET_SETTINGS.summarize),
  /** `provider-id/model` for summaries; empty: the chat's own model. */
  summaryModel: orElse(z.string().trim(), DEFAULT_BUDGET_SETTINGS.summaryModel),
  /**
   * Artifact planning (src/core/planning): `auto` plans with the planner model when the decision
   * table says so, `heuristic` always with the deterministic planner, `off` sends what is attached.
   */
  contextPlanning: orElse(z.enum(CONTEXT_PLANNING), 'auto', 'the default is used'),
  /** `provider-id/model` (or a model name on the chat's provider) that plans; empty: a cheap model of the chat's provider. */
  plannerModel: orElse(z.string().trim(), ''),
  /** `provider-id/model` (or a model name on the chat's provider) that applies a reply to a note or edits a selection (issue 28); empty: the chat's model. */
  applyModel: orElse(z.string().trim(), ''),
  /** A short title generated after a chat's first answer, on the summary model (never over a user's title). */
  generateTitles: orElse(z.boolean(), true),
  /** User overrides of the model context-window table, by model name (sorted). */
  contextWindows: orElse(z.record(z.string(), leftOut(z.int().positive())), {}, 'ignored').transform((windows) =>
    Object.fromEntries(Object.entries(windows).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))),
  ),
  /** Semantic search (embeddings fused with the lexical rank): off by default, as embedding costs tokens. See core/search/semanticSettings.ts. */
  semanticSearch: orElse(z.boolean(), false),
  /** `provider-id/model` (or a model name on the default provider) the vault is embedded with. */
  embeddingModel: orElse(z.string().trim(), 'openai/text-embedding-3-small'),
  embeddingBatchSize: orElse(z.int().min(1).max(2048), 64, 'the default is used'),
  /** Agent mode: model calls that ask for tools before the model must answer (src/core/agent/loop.ts). */
  agentMaxSteps: orElse(z.int().min(1).max(50), 8, 'the default is used'),
  /** Agent mode: fetchUrl may read local addresses (loopback, private, link-local, .local names). Off: the agent cannot reach local services (issue 26). */
  agentAllowLocalAddresses: orElse(z.boolean(), false),
  /** Agent mode: what the agent may write (issue 28): ask each time, apply without asking in chosen folders, or read-only. A project or a chat may set its own. */
  agentWritePolicy: WritePolicySetting(),
  /** Projects: a folder scope, a project prompt (static L1), default notes and model (src/core/projects/projects.ts). */
  projects: orElse(z.array(leftOut(ProjectSchema(), 'the project is left out')), [], 'no projects'),
}));

export type StrataSettings = z.infer<ReturnType<typeof SettingsSchema>>;

export interface SettingsLoad {
  settings: StrataSettings;
  /** Fields that were present but invalid and fell back to defaults: shown to the user. */
  warnings: string[];
}

/** Fresh defaults (nothing shared between calls). */
export function defaultSettings(): StrataSettings {
  return SettingsSchema().parse({});
}

export function cloneProvider(p: ProviderSettings): ProviderSettings {
  return { ...p, models: [...p.models], ...(p.modelOptions ? { modelOptions: { ...p.modelOptions } } : {}) };
}

/** The first entry of each id; a later one is ignored, with a warning. */
function withoutDuplicateIds<T extends { readonly id: string }>(list: T[], label: string, warnings: string[]): T[] {
  const ids = new Set<string>();
  return list.filter((entry) => {
    if (ids.has(entry.id)) {
      warnings.push(`${label}: duplicate id "${entry.id}"; the later one is ignored`);
      return false;
    }
    ids.add(entry.id);
    return true;
  });
}

/** Validate whatever data.json held; never throws. */
export function loadSettings(raw: unknown): SettingsLoad {
  if (raw === null || raw === undefined) return { settings: defaultSettings(), warnings: [] };
  const { value: settings, warnings } = readLenient(SettingsSchema(), raw, defaultSettings(), 'the defaults are used', 'the settings');
  const data: Record<string, unknown> = raw !== null && typeof raw === 'object' && !Array.isArray(raw) ? (raw as Record<string, unknown>) : {};
  settings.providers = withoutDuplicateIds(settings.providers, 'providers', warnings);
  settings.projects = withoutDuplicateIds(settings.projects, 'projects', warnings);
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

/** The budget settings out of the plugin's. */
export function budgetSettingsOf(settings: StrataSettings): BudgetSettings {
  return {
    maxContextTokens: settings.maxContextTokens,
    reservedOutputTokens: settings.reservedOutputTokens,
    autoCondense: settings.autoCondense,
    condenseThreshold: settings.condenseThreshold,
    keepMessages: settings.keepMessages,
    maxCodeLines: settings.maxCodeLines,
    maxOutputLines: settings.maxOutputLines,
    summarize: settings.summarize,
    summaryModel: settings.summaryModel,
  };
}

/**
 * The budget settings for one provider and model: a max output tokens set for them is what the
 * budget keeps free for the reply (so no request asks for more than the window).
 */
export function budgetSettingsFor(settings: StrataSettings, providerId: string, model: string): BudgetSettings {
  const { maxOutputTokens } = generationOptionsFor(findProvider(settings, providerId), model);
  return { ...budgetSettingsOf(settings), ...(maxOutputTokens !== undefined ? { maxOutputTokens } : {}) };
}

/**
 * The provider and model summaries are written with: the summary model setting (`provider-id/model`,
 * or a model name on the chat's provider, which may itself contain a slash, as OpenRouter's do),
 * else the chat's own.
 */
export function summaryTarget(settings: StrataSettings, chatProvider: string, chatModel: string): { provider: string; model: string } {
  const wanted = settings.summaryModel.trim();
  if (!wanted) return { provider: chatProvider, model: chatModel };
  const slash = wanted.indexOf('/');
  const model = wanted.slice(slash + 1).trim();
  if (slash > 0 && model && findProvider(settings, wanted.slice(0, slash))) return { provider: wanted.slice(0, slash), model };
  return { provider: chatProvider, model: wanted };
}

/** The provider and model that apply a reply to a note or edit a selection: the apply model setting (read as summaryTarget reads it), else the chat's. */
export function applyTarget(settings: StrataSettings, chatProvider: string, chatModel: string): { provider: string; model: string } {
  return summaryTarget({ ...settings, summaryModel: settings.applyModel }, chatProvider, chatModel);
}

/** Cheap models per provider kind: the planner's default when no planner model is set. */
const CHEAP_MODELS: Partial<Record<ProviderKind, string>> = {
  openai: 'gpt-4o-mini',
  'openai-responses': 'gpt-4o-mini',
  anthropic: 'claude-haiku-4-5',
  gemini: 'gemini-2.5-flash-lite',
};

/**
 * The provider and model artifact plans are made with: the planner model setting (as summaryTarget
 * reads it), else a cheap model of the chat's provider (its own model where none is known: an
 * OpenAI-compatible endpoint serves what it serves).
 */
export function plannerTarget(settings: StrataSettings, chatProvider: string, chatModel: string): { provider: string; model: string } {
  if (settings.plannerModel.trim()) return summaryTarget({ ...settings, summaryModel: settings.plannerModel }, chatProvider, chatModel);
  const kind = findProvider(settings, chatProvider)?.kind;
  return { provider: chatProvider, model: (kind && CHEAP_MODELS[kind]) ?? chatModel };
}

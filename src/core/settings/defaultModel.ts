import type { StrataSettings } from './settings';

/** A provider and one of its models. */
export interface ModelChoice {
  readonly provider: string;
  readonly model: string;
}

function offers(settings: StrataSettings, choice: ModelChoice): boolean {
  return settings.providers.some((p) => p.id === choice.provider && p.models.includes(choice.model));
}

/**
 * The default model when the one set is offered by no provider (a first setup: the defaults name a
 * provider the user never added, or the one they removed): the first provider that lists a model,
 * with its first model. Null when the default is fine, or no provider lists a model yet.
 */
export function adoptedDefault(settings: StrataSettings): ModelChoice | null {
  if (offers(settings, { provider: settings.defaultProviderId, model: settings.defaultModel })) return null;
  // The default provider is there with models, but not this one (renamed or removed from its list): its first model.
  const own = settings.providers.find((p) => p.id === settings.defaultProviderId && p.models.length > 0);
  const first = own ?? settings.providers.find((p) => p.models.length > 0);
  return first ? { provider: first.id, model: first.models[0] } : null;
}

/** Applies adoptedDefault (true: the default changed, and what shows it should be drawn again). */
export function adoptDefault(settings: StrataSettings): boolean {
  const choice = adoptedDefault(settings);
  if (!choice) return false;
  settings.defaultProviderId = choice.provider;
  settings.defaultModel = choice.model;
  return true;
}

/**
 * The model a chat with no message yet should switch to after the settings changed: the default,
 * when the chat's own provider and model are offered by no provider (the empty chat said "not set
 * up" a moment ago). Null otherwise: a chat with messages, or a working choice, is left alone.
 */
export function emptyChatModel(settings: StrataSettings, chat: ModelChoice & { readonly messages: number }): ModelChoice | null {
  if (chat.messages > 0 || offers(settings, chat)) return null;
  const target = { provider: settings.defaultProviderId, model: settings.defaultModel };
  return offers(settings, target) && (target.provider !== chat.provider || target.model !== chat.model) ? target : null;
}

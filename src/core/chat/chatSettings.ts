import type { LiveChat } from '../conversation/liveChat';
import { setModel, setProject } from '../conversation/transitions';
import { findProvider, type ChatMode, type StrataSettings } from '../settings/settings';
import { findProject, projectLabel, projectModel } from '../projects/projects';
import { modeUnavailable, TOOL_MODES } from './modes';
import type { ProviderFactory } from '../ports/providerFactory';

/**
 * Why `mode` cannot run on the chat's provider and model (the mode picker says so), or null.
 * The Agent mode needs tool calling and connected tools.
 */
export function modeProblem(chat: LiveChat, mode: ChatMode, deps: { settings: StrataSettings; providers: ProviderFactory; tools: boolean }): string | null {
  if (!TOOL_MODES.includes(mode)) return null;
  if (!deps.tools) return 'The Agent mode is not available here: no tools are connected.';
  const { provider: providerId, model } = chat.conversation;
  const settings = findProvider(deps.settings, providerId);
  if (!settings) return null;
  try {
    const provider = deps.providers(settings, model);
    return modeUnavailable(mode, provider.capabilities, provider.config.kind);
  } catch {
    return null;
  }
}

/**
 * Put a chat in a project (null: none); false when it already is. A chat with no message yet becomes
 * a new chat of that project: its default model. A chat with answered turns keeps its model; the
 * switch is a deliberate event: when the project prompt changes with it, the next request's prefix
 * break is named 'project-switch'.
 */
export function moveToProject(chat: LiveChat, id: string | null, settings: StrataSettings, at: number): boolean {
  const before = chat.conversation;
  const next = setProject(before, id ?? undefined, at);
  if (next === before) return false;
  if (before.turns.length === 0) {
    const model = projectModel(settings, findProject(settings, id)) ?? { provider: settings.defaultProviderId, model: settings.defaultModel };
    chat.update(() => setModel(next, model.provider, model.model, at));
  } else {
    chat.switchProject(projectLabel(settings, before.project), projectLabel(settings, id), next);
  }
  return true;
}

import type { ChipResolver } from '../context/resolver';
import type { VaultReader } from '../ports/vault';
import type { ChatArchivePort } from '../ports/chatArchive';
import type { EngineOptions } from '../engine/engine';
import { LiveChat } from '../conversation/liveChat';
import { newConversation, type Conversation } from '../conversation/model';
import { rehydrate } from '../conversation/rehydrate';
import { interrupted, setMode } from '../conversation/transitions';
import { rewriteCacheOf } from '../vaultQa/queryRewrite';
import { warmTokenCounts } from '../tokens/tokenCounter';
import { CHAT_MODES, type StrataSettings } from '../settings/settings';
import { findProject, projectModel } from '../projects/projects';

/** How a chat comes to be shown: a new one, or a saved one brought back where it stopped. */

export function engineOptions(settings: StrataSettings): EngineOptions {
  return { rendering: settings.rendering, freshness: settings.freshness };
}

/** A new chat; in `projectId`'s project when it is configured (with its default model). */
export function newLiveChat(settings: StrataSettings, ids: { newId: () => string; now: () => number }, projectId?: string): LiveChat {
  const project = findProject(settings, projectId);
  const model = projectModel(settings, project) ?? { provider: settings.defaultProviderId, model: settings.defaultModel };
  const conversation = newConversation(
    { provider: model.provider, model: model.model, mode: settings.defaultMode, id: ids.newId(), ...(project ? { project: project.id } : {}) },
    { now: ids.now },
  );
  return LiveChat.fresh(conversation, engineOptions(settings));
}

export interface OpenedChat {
  readonly chat: LiveChat;
  /** What loading and rehydrating found (a moved note, an edited one, a damaged line), in words. */
  readonly warnings: readonly string[];
}

/**
 * A saved chat as it stopped: turns, library (notes re-read from the vault), provider session and
 * any kept message; a request that was running when it was saved is marked interrupted.
 */
export async function openSavedChat(
  id: string,
  deps: { archive: ChatArchivePort; vault: VaultReader; resolver: ChipResolver; settings: StrataSettings },
): Promise<OpenedChat> {
  const loaded = await deps.archive.load(id);
  // Long messages are counted in slices between frames before the engine counts its history at once.
  await warmTokenCounts(loaded.conversation.model, messageTexts(loaded.conversation));
  const restored = await rehydrate(loaded.conversation, deps.vault, engineOptions(deps.settings), deps.resolver);
  // A mode this version does not know (a hand edit, a newer version) reads as the plain chat mode.
  const known = (CHAT_MODES as readonly string[]).includes(loaded.conversation.mode);
  const conversation = known ? loaded.conversation : setMode(loaded.conversation, 'chat', loaded.conversation.updated);
  const chat = new LiveChat(interrupted(conversation), restored.engine, rewriteCacheOf(conversation.turns));
  return { chat, warnings: [...loaded.warnings, ...restored.issues.map((i) => i.message)] };
}

/** Each turn's text and reply, as the counter looks at them (no array of two thousand made for it). */
function* messageTexts(conversation: Conversation): Generator<string> {
  for (const turn of conversation.turns) {
    yield turn.text;
    if (turn.reply !== undefined) yield turn.reply;
  }
}

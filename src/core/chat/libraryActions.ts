import type { LiveChat } from '../conversation/liveChat';
import { withOverride } from '../planning/book';
import type { PlanOverride } from '../conversation/records/plan';
import type { PromptContextEngine } from '../engine/engine';
import type { CondensedView } from './chatState';

/**
 * The user's changes to a chat's Context Library (the library panel), each said back in words. A
 * removal is a deliberate prefix break: the next request no longer extends the cached one.
 */

/** Remove an item from the library; null when the library does not hold it. */
export function removeLibraryItem(chat: LiveChat, id: string): string | null {
  const entry = chat.engine.libraryItems().find((i) => i.id === id);
  if (!entry || !chat.removeFromLibrary(id)) return null;
  return `Library: "${entry.title}" was removed from the Context Library. The next request starts a new cached prefix, so it costs more once.`;
}

/**
 * The user's override of an item's plan: always in full, left out, or back to the planner's choice
 * (null). It applies from the next request. Excluding an item the library already sent takes it out
 * of the library: a deliberate prefix break, named `replanned`.
 */
export function overridePlan(chat: LiveChat, id: string, override: PlanOverride | null): string {
  const entry = chat.engine.libraryItems().find((i) => i.id === id);
  const title = entry?.title ?? chat.conversation.plan?.decisions.find((d) => d.id === id)?.title ?? id;
  chat.update((c) => ({ ...c, plan: withOverride(c.plan, id, override) }));
  if (override === 'exclude' && entry && chat.removeFromLibrary(id, `you excluded ${title}`)) {
    return `Plan: "${title}" is excluded. It leaves the notes this chat sends, so the next request starts a new cached prefix (it costs more once).`;
  }
  // A condensed item pinned in full comes back whole on the next request, as a new version (issue 27).
  if (override === 'full' && chat.sendInFull(id)) return `Library: "${title}" is condensed; it will be sent in full again from the next request (once, as a new version).`;
  if (override === 'full') return `Plan: "${title}" will be sent in full from the next request.`;
  if (override === 'exclude') return `Plan: "${title}" is excluded from the next requests.`;
  return `Plan: "${title}" goes back to the planner's choice on the next request that carries it.`;
}

/** The items the chat holds condensed, for the library panel (in the condensed block's order). */
export function condensedViews(engine: PromptContextEngine): readonly CondensedView[] | undefined {
  const c = engine.currentLibraryCondensing();
  const ids = engine.condensedIds();
  if (!c || ids.size === 0) return undefined;
  const asked = engine.requestedInFull();
  return c.entries.filter((e) => ids.has(e.id)).map((e) => ({ id: e.id, form: e.form, fullAgain: asked.includes(e.id) }));
}

import { combineHashes } from '../hash';
import type { CompactionKind } from './compaction';
import type { Rendering } from '../settings/engineChoices';
import type { PrefixChange, PromptFragment } from './types';

/** What the engine remembers of the last successful request: enough to tell whether the next one extends it. */
export interface CommittedRequest {
  /** Messages of that request plus the reply. */
  readonly count: number;
  /** combineHashes of those messages' hashes. */
  readonly combined: string;
  readonly model: string;
  /** `${id}:${hash}` of each static L1 fragment. */
  readonly staticFragments: readonly string[];
  /** Library versions that request carried (before its own new items joined). */
  readonly libraryVersions: number;
}

/** The id of the project prompt's L1 fragment (src/core/systemPrompt.ts). */
const PROJECT_FRAGMENT = 'project';

/** Deliberate events since the last request, each a named reason for a prefix break. */
export type PendingEvent =
  | { type: 'removed'; id: string }
  | { type: 'condensed'; through: number; kind: CompactionKind }
  | { type: 'rendering'; rendering: Rendering }
  | { type: 'truncated'; turns: number }
  | { type: 'edited'; ids: string[] }
  /** The chat changed project: `from` and `to` as the user names them ("project Alpha", "no project"). */
  | { type: 'project'; from: string; to: string }
  /** A reopened chat's images that are gone or changed (history carries a marker for each). */
  | { type: 'image-changed'; paths: string[] }
  /** The artifact plan took items out of the library (the user's override): `detail` says which and why. */
  | { type: 'replanned'; ids: string[]; detail: string };

export interface PrefixCheck {
  readonly previous: CommittedRequest | null;
  /** Hashes of the new request's messages. */
  readonly messageHashes: readonly string[];
  readonly model: string;
  readonly fragments: readonly PromptFragment[];
  readonly fragmentHashes: readonly string[];
  readonly pending: readonly PendingEvent[];
  readonly rendering: Rendering;
  readonly libraryGrew: boolean;
  /** What the chat's agent wrote to library notes since the last request ("you applied an edit to …"), named with the break. */
  readonly appliedEdits?: readonly string[];
  /** combineHashes, or an incremental equivalent. */
  readonly combine?: (hashes: readonly string[]) => string;
}

/**
 * Null when the new request starts with the previous request and its reply, byte for byte, on the
 * same model; otherwise the most specific named reason. Deterministic: the order of checks is fixed.
 */
export function detectPrefixChange(check: PrefixCheck): PrefixChange | null {
  const { previous } = check;
  if (!previous) return null;
  if (previous.model !== check.model) {
    return { reason: 'model-switch', detail: `${previous.model} → ${check.model}: the provider cache is per model` };
  }
  const extends_ =
    check.messageHashes.length > previous.count &&
    (check.combine ?? combineHashes)(check.messageHashes.slice(0, previous.count)) === previous.combined;
  if (extends_) return null;

  const statics = check.fragments
    .map((f, i) => ({ f, key: `${f.id}:${check.fragmentHashes[i]}` }))
    .filter(({ f }) => f.lifecycle === 'static');
  const changed = statics.filter(({ key }) => !previous.staticFragments.includes(key)).map(({ f }) => f.id);
  const dropped = previous.staticFragments.filter((key) => !statics.some((s) => s.key === key));
  if (changed.length > 0 || dropped.length > 0) {
    const ids = [...changed, ...dropped.map((k) => k.split(':')[0])];
    const projects = check.pending.flatMap((e) => (e.type === 'project' ? [e] : []));
    if (projects.length > 0 && ids.includes(PROJECT_FRAGMENT)) {
      const others = [...new Set(ids.filter((id) => id !== PROJECT_FRAGMENT))];
      const also = others.length > 0 ? `; system prompt fragments changed too: ${others.join(', ')}` : '';
      return { reason: 'project-switch', detail: `${projects[0].from} → ${projects[projects.length - 1].to}${also}` };
    }
    return { reason: 'settings-changed', detail: `system prompt fragments changed: ${[...new Set(ids)].join(', ')}` };
  }
  for (const event of check.pending) {
    switch (event.type) {
      case 'removed':
        return {
          reason: 'library-item-removed',
          detail: `removed from the library: ${check.pending.flatMap((e) => (e.type === 'removed' ? [e.id] : [])).join(', ')}`,
        };
      case 'condensed':
        return {
          reason: 'condensed',
          detail:
            event.kind === 'summary'
              ? `the conversation was condensed: turns 1-${event.through} replaced by a summary`
              : `the conversation was condensed: turns 1-${event.through} dropped (not summarized)`,
        };
      case 'rendering':
        return { reason: 'rendering-changed', detail: `rendering switched to ${event.rendering}` };
      case 'truncated':
        return { reason: 'history-edited', detail: `history truncated to ${event.turns} turn(s)` };
      case 'edited':
        return { reason: 'note-edited', detail: `notes changed since the chat was saved: ${event.ids.join(', ')}` };
      case 'project':
        // The project prompt did not change (both empty, or the same): the switch itself broke nothing.
        break;
      case 'image-changed':
        return { reason: 'image-changed', detail: `images no longer available as sent: ${event.paths.join(', ')}` };
      case 'replanned':
        return { reason: 'replanned', detail: event.detail };
    }
  }
  if (check.rendering === 'seed' && check.libraryGrew) {
    const edits = check.appliedEdits && check.appliedEdits.length > 0 ? ` (${check.appliedEdits.join('; ')})` : '';
    return { reason: 'library-grew', detail: `the system message holds the Context Library, which grew${edits}` };
  }
  if (check.rendering === 'seed') {
    return {
      reason: 'history-context-dropped',
      detail: 'the seed rendering sends earlier turns raw, without the context blocks they carried',
    };
  }
  return { reason: 'history-edited', detail: 'earlier messages differ from what was sent' };
}

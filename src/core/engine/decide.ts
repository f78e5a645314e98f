import type { ContextItem } from '../context/items';
import { sendsUpdate } from './freshness';
import { type FreshnessPolicy } from '../settings/engineChoices';
import type { FreshnessEvent, LibraryItem } from './types';

/** An item version sent in full this turn: a first appearance or a newer version of a library item. */
export interface ItemEntry {
  readonly item: ContextItem;
  readonly mode: 'new' | 'update';
  readonly version: number;
}

export interface ItemDecisionInput {
  /** The library's latest version of each id, keyed by id, in order of the id's first appearance. */
  readonly latest: ReadonlyMap<string, LibraryItem>;
  /** This turn's items, in chip order (an id attached twice counts once, where it first appears). */
  readonly items: readonly ContextItem[];
  /** Library notes re-read but not attached this turn: the note now, or null when it is gone. */
  readonly current?: ReadonlyMap<string, ContextItem | null>;
  readonly policy: FreshnessPolicy;
  /** Notes the chat's agent edited since the last turn (issue 28), by path: their change is named as such. */
  readonly appliedEdits?: ReadonlyMap<string, string>;
}

export interface ItemDecision {
  /** Versions sent in full, in the order they go into L3: attached items first, then library updates. */
  readonly enter: readonly ItemEntry[];
  /** Ids attached this turn that are sent by reference, in chip order. */
  readonly referenced: readonly string[];
  readonly freshness: readonly FreshnessEvent[];
}

/**
 * The freshness and smart-reference rules for one turn, as plain data: which items enter the
 * library and as which version, which are referenced by id, and what the freshness policy did.
 */
export function decideItems({ latest, items, current, policy, appliedEdits }: ItemDecisionInput): ItemDecision {
  const changed = (source: string, otherwise: string) => appliedEdits?.get(source) ?? otherwise;
  const enter: ItemEntry[] = [];
  const referenced: string[] = [];
  const freshness: FreshnessEvent[] = [];
  const attached = new Set<string>();

  for (const item of items) {
    if (attached.has(item.id)) continue;
    attached.add(item.id);
    const sent = latest.get(item.id);
    if (!sent) {
      enter.push({ item, mode: 'new', version: 1 });
    } else if (sent.hash === item.hash) {
      referenced.push(item.id);
    } else if (sendsUpdate(policy, true) || replanned(sent, item)) {
      freshness.push({
        id: item.id,
        status: 'updated',
        fromVersion: sent.version,
        toVersion: sent.version + 1,
        detail: replanned(sent, item) ?? `${changed(item.source, 'the note changed since it was sent')}; the new version is sent in full`,
      });
      enter.push({ item, mode: 'update', version: sent.version + 1 });
    } else {
      referenced.push(item.id);
      freshness.push({
        id: item.id,
        status: 'stale-kept',
        fromVersion: sent.version,
        detail: `${changed(item.source, 'the note changed since it was sent')}; the library copy is kept (stable policy)`,
      });
    }
  }

  for (const sent of latest.values()) {
    if (attached.has(sent.id) || !current?.has(sent.id)) continue;
    const now = current.get(sent.id);
    if (now === null || now === undefined) {
      freshness.push({
        id: sent.id,
        status: 'missing-kept',
        fromVersion: sent.version,
        detail: 'the note is no longer in the vault; the library copy is kept',
      });
    } else if (now.hash !== sent.hash) {
      if (sendsUpdate(policy, false) || replanned(sent, now)) {
        freshness.push({
          id: sent.id,
          status: 'updated',
          fromVersion: sent.version,
          toVersion: sent.version + 1,
          detail: replanned(sent, now) ?? `${changed(now.source, 'a library note changed since it was sent')}; the new version is sent in full`,
        });
        // A note reached through a folder or tag keeps that listing as its origin.
        enter.push({ item: { ...now, via: sent.via }, mode: 'update', version: sent.version + 1 });
      } else {
        freshness.push({
          id: sent.id,
          status: 'stale-kept',
          fromVersion: sent.version,
          detail: `${changed(now.source, 'a library note changed since it was sent')}; the library copy is kept (${policy} policy)`,
        });
      }
    }
  }

  return { enter, referenced, freshness };
}

const FORM_NAMES = { summarize: 'a summary', rag_extract: 'an extract', full: 'the full text' } as const;

/**
 * The artifact plan changed how an item is sent (the user's override, a new decision): the new form
 * is sent whatever the freshness policy, since it was asked for. Null when only the text changed.
 */
function replanned(sent: LibraryItem, now: ContextItem): string | null {
  const from = sent.planned?.strategy ?? 'full';
  const to = now.planned?.strategy ?? 'full';
  if (from === to) return null;
  return `re-planned: ${FORM_NAMES[from]} was sent, now ${FORM_NAMES[to]} is sent`;
}

import type { ChatState } from '../../core/chat/chatState';
import type { ArtifactType, PlanOverride, Strategy } from '../../core/conversation/records/plan';
import type { CondensedForm } from '../../core/engine/types';
import { basename } from './format';

const CONDENSED_WHY: Readonly<Record<CondensedForm, string>> = {
  summary: 'Condensed to a short summary to keep the chat in its budget; a question about it brings back its sections.',
  outline: 'Condensed to its heading outline to keep the chat in its budget; a question about it brings back its sections.',
  listed: 'Condensed to its path to keep the chat in its budget; a question about it brings back its sections.',
};

/**
 * One line of the library panel ("Notes in this chat"): an item the chat sends (the Context
 * Library) or one the plan or the user left out, with how it goes into the request.
 */
export interface LibraryRow {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  /** Where it comes from, with its version ("Projects/Plan.md · v2"); empty when not known. */
  readonly detail: string;
  readonly strategy: Strategy;
  /** Tokens sent for it now (0: not sent) and of the whole item. */
  readonly tokens: number;
  readonly fullTokens: number;
  /** Why (the plan's one line, or what the user's override does); empty for an item never planned. */
  readonly rationale: string;
  readonly override?: PlanOverride;
  /** In the Context Library (already sent): excluding it then restarts the cached prefix. */
  readonly sent: boolean;
  /** Held condensed (issue 27): its outline or summary stands for it; `fullAgain`: the user asked for it in full. */
  readonly condensed?: { readonly form: CondensedForm; readonly fullAgain: boolean };
}

/**
 * The library items in their order, then the items left out: planned out (strategy exclude) or
 * excluded by the user. An item without a decision goes in full. A user's override replaces the
 * item's decision (src/core/planning/book.ts withOverride), so it is looked up apart.
 */
export function libraryRows(state: ChatState): LibraryRow[] {
  const plan = state.plan;
  const entries = new Map(plan.entries.map((e) => [e.id, e]));
  const overrides = new Map(plan.overrides.map((o) => [o.id, o.override]));
  const overrideOf = (id: string): PlanOverride | undefined => entries.get(id)?.override ?? overrides.get(id);
  const listed = new Set<string>();

  // An override (or "Use the plan") drops the item's kept decision, but the library still holds the
  // form the last plan sent until the next request: the last plan record says which.
  const lastSent = new Map((plan.last?.decisions ?? []).map((d) => [d.id, d]));
  const condensed = new Map((state.condensed ?? []).map((c) => [c.id, c]));
  const rows: LibraryRow[] = state.library.map((item) => {
    listed.add(item.id);
    const held = condensed.get(item.id);
    if (held) {
      const rationale = held.fullAgain ? 'You asked for it in full: the next request sends it whole again.' : CONDENSED_WHY[held.form];
      const override = overrideOf(item.id);
      return {
        id: item.id,
        type: item.kind,
        title: item.title,
        detail: item.version > 1 ? `${item.source} · v${item.version}` : item.source,
        strategy: 'include_full',
        tokens: item.tokens,
        fullTokens: item.tokens,
        rationale,
        sent: true,
        condensed: { form: held.form, fullAgain: held.fullAgain },
        ...(override ? { override } : {}),
      };
    }
    const entry = entries.get(item.id);
    const override = overrideOf(item.id);
    const earlier = entry ? undefined : lastSent.get(item.id);
    const planned = entry ?? (earlier && earlier.strategy !== 'include_full' && earlier.strategy !== 'exclude' ? earlier : undefined);
    const rationale =
      override === 'full'
        ? 'You pinned it: sent in full from the next request.'
        : entry
          ? entry.rationale
          : planned
            ? 'The plan decides again on the next request.'
            : '';
    return {
      id: item.id,
      type: item.kind,
      title: item.title,
      detail: item.version > 1 ? `${item.source} · v${item.version}` : item.source,
      strategy: planned?.strategy ?? 'include_full',
      tokens: item.tokens,
      fullTokens: planned?.fullTokens ?? item.tokens,
      rationale,
      sent: true,
      ...(override ? { override } : {}),
    };
  });

  for (const entry of plan.entries) {
    if (listed.has(entry.id) || entry.strategy !== 'exclude') continue;
    listed.add(entry.id);
    const override = overrideOf(entry.id);
    rows.push({
      id: entry.id,
      type: entry.type,
      title: entry.title,
      detail: entry.type === 'tool' ? '' : entry.id,
      strategy: 'exclude',
      tokens: 0,
      fullTokens: entry.fullTokens,
      rationale: entry.rationale,
      sent: false,
      ...(override ? { override } : {}),
    });
  }

  // Overrides on items no longer decided nor in the library: they apply when the item is next attached.
  for (const { id, override } of plan.overrides) {
    if (listed.has(id)) continue;
    listed.add(id);
    const earlier = lastSent.get(id);
    rows.push({
      id,
      type: earlier?.type ?? typeOfId(id),
      title: earlier?.title ?? titleOfId(id),
      detail: id,
      strategy: 'exclude',
      tokens: 0,
      fullTokens: earlier?.fullTokens ?? 0,
      rationale: override === 'exclude' ? 'You excluded it: it is not sent.' : 'You pinned it: sent in full the next time it is attached.',
      sent: false,
      override,
    });
  }
  return rows;
}

/** An item's kind from its id alone (src/core/context/items.ts), for an override whose item is gone. */
function typeOfId(id: string): ArtifactType {
  if (id.startsWith('folder:')) return 'folder';
  if (id.startsWith('tag:')) return 'tag';
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(id)) return 'url';
  if (/#L\d+-L\d+$/.test(id)) return 'selection';
  if (/#dataview-[0-9a-f]{12}$/.test(id)) return 'dataview';
  if (/\.canvas$/i.test(id)) return 'canvas';
  if (/\.pdf$/i.test(id)) return 'pdf';
  return 'note';
}

function titleOfId(id: string): string {
  const type = typeOfId(id);
  if (type === 'url') return id;
  if (type === 'tag') return id.slice('tag:'.length);
  if (type === 'folder') return `${id.slice('folder:'.length)}/`;
  return basename(id);
}

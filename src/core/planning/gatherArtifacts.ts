import type { ContextItem } from '../context/items';
import type { PromptContextEngine, TurnInput } from '../engine/engine';
import type { LibraryItem, ToolOutput } from '../engine/types';
import { sha256Hex } from '../hash';
import type { TokenCounter } from '../tokens/tokenCounter';
import { itemArtifact, toolArtifact } from './artifacts';
import { keptDecision, overrideOf } from './book';
import { type KeptDecision, type PlanBook } from '../conversation/records/plan';
import { WRAPPER_TOKENS } from './execute';
import { extractOf, extractRanges } from './extract';
import { plannedOutIds } from './plannedOut';
import { sentRanges, type SupplementSource } from './supplements';
import { SummaryCache } from './summaryCache';
import { summaryHeader } from './summarize';
import type { Artifact } from './types';
import type { ArtifactDecision, ArtifactUsage } from '../conversation/records/plan';

/** An artifact of this turn still to be decided, and where its decision goes back to. */
export type Slot =
  | { readonly type: 'item'; readonly item: ContextItem; readonly artifact: Artifact; readonly library: boolean }
  | { readonly type: 'tool'; readonly index: number; readonly tool: ToolOutput; readonly artifact: Artifact };

/** What a turn carries, sorted for planning (the first stage of planTurn). */
export interface GatheredArtifacts {
  /** This turn's items as they go unless decided (null: left out by the user or a kept exclusion). */
  readonly items: readonly (ContextItem | null)[];
  /** Library notes re-read this turn, as they go unless decided. */
  readonly current: ReadonlyMap<string, ContextItem | null>;
  /** What is still to decide: new items, library notes whose text changed, this turn's tool outputs. */
  readonly slots: readonly Slot[];
  /** What the user's overrides and kept decisions applied, for the record. */
  readonly usages: readonly ArtifactUsage[];
  /** Artifacts decided on an earlier turn (the planner sees them as kept). */
  readonly kept: readonly { artifact: Artifact; decision: ArtifactDecision }[];
  /** Items held as a summary or an extract since an earlier turn, or left out, with their whole text: this turn's question may need other parts. */
  readonly supplementable: readonly SupplementSource[];
  /** Tool outputs of the turns history still sends, read once when first needed (a long chat has many turns). */
  readonly history: () => ToolOutput[];
}

export interface GatherDeps {
  readonly counter: TokenCounter;
  readonly cache: SummaryCache;
  readonly sticky: boolean;
  /** The notes the plan left out, as they are now (plannedOut.ts). */
  readonly plannedOut?: ReadonlyMap<string, ContextItem>;
}

/**
 * Sort what a turn carries: each attached item goes by the user's override, a kept decision, by
 * reference when the library holds it in full, or is new (to decide); each re-read library note
 * stays as decided when its text did not change, else is decided again; notes the plan left out
 * earlier are offered to this question as sections; this turn's tool outputs are decided each turn.
 */
export async function gatherArtifacts(engine: PromptContextEngine, input: TurnInput, book: PlanBook | undefined, deps: GatherDeps): Promise<GatheredArtifacts> {
  const { counter, sticky } = deps;
  const turn = engine.turnCount + 1;
  const latest = new Map(engine.libraryItems().map((l) => [l.id, l]));
  const tokensOf = (content: string) => counter.count(content) + WRAPPER_TOKENS;
  const items: (ContextItem | null)[] = [...input.items];
  const current = new Map(input.current ?? []);
  const slots: Slot[] = [];
  const usages: ArtifactUsage[] = [];
  const kept: { artifact: Artifact; decision: ArtifactDecision }[] = [];
  const supplementable: SupplementSource[] = [];
  let historyBlocks: ToolOutput[] | null = null;
  const history = (): ToolOutput[] => (historyBlocks ??= historyTools(engine));
  const heldPart = (lib: LibraryItem, source: ContextItem): SupplementSource => ({
    id: lib.id,
    title: lib.title,
    item: source,
    held: lib.planned?.strategy === 'summarize' ? 'summary' : 'extract',
    skip: [...(lib.planned?.strategy === 'rag_extract' ? extractRanges(lib.content) : []), ...sentRanges(history(), source.source)],
  });

  // This turn's items: the user's override, a kept decision, already in the library in full, or new.
  for (const [i, item] of input.items.entries()) {
    const override = overrideOf(book, item.id);
    const decision = sticky ? keptDecision(book, item.id) : undefined;
    const lib = latest.get(item.id);
    if (override === 'exclude') {
      items[i] = null;
      usages.push(userUsage(item, 'exclude', tokensOf(item.content), 0));
    } else if (override === 'full') {
      if (lib?.planned && lib.hash !== item.hash) usages.push(userUsage(item, 'include_full', tokensOf(item.content), tokensOf(item.content)));
    } else if (decision && decision.sourceHash === item.hash) {
      items[i] = await applyKept(item, decision, lib, counter, deps.cache);
      if (lib?.planned && decision.turn < turn) supplementable.push(heldPart(lib, item));
      if (decision.strategy !== 'include_full') usages.push(keptUsage(decision));
      kept.push({ artifact: itemArtifact(item, decision.fullTokens, true), decision });
    } else if (sticky && lib && !lib.planned && lib.hash === item.hash) {
      // In the library in full already (attached before planning was needed): sent by reference, as today.
    } else {
      slots.push({ type: 'item', item, artifact: itemArtifact(item, tokensOf(item.content), false), library: false });
    }
  }

  // Library notes re-read this turn: a planned one whose text did not change stays as the library has it.
  for (const [id, now] of current) {
    const lib = latest.get(id);
    if (!now || !lib) continue;
    const decision = sticky ? keptDecision(book, id) : undefined;
    if (overrideOf(book, id) === 'full') continue; // the whole note: a re-planned update if it was a summary or an extract
    if (decision && decision.sourceHash === now.hash) {
      current.set(id, fromLibrary(lib, now));
      if (lib.planned && decision.turn < turn) supplementable.push(heldPart(lib, now));
      kept.push({ artifact: itemArtifact(now, decision.fullTokens, true), decision });
    } else if (lib.planned || !sticky) {
      // Its text changed since it was decided (or nothing is sticky): decided again, as a historical artifact.
      slots.push({ type: 'item', item: now, artifact: itemArtifact(now, tokensOf(now.content), true), library: true });
    }
  }

  // Notes the plan left out on an earlier turn (never sent): offered to this turn's question as
  // sections; without stickiness, decided again with the rest.
  const attached = new Map(input.items.map((it) => [it.id, it]));
  for (const id of plannedOutIds(book)) {
    const decision = keptDecision(book, id);
    const now = attached.get(id) ?? deps.plannedOut?.get(id);
    if (!decision || decision.turn >= turn || !now || latest.has(id)) continue;
    if (sticky) supplementable.push({ id, title: now.title, item: now, held: 'excluded', skip: sentRanges(history(), now.source) });
    else if (!attached.has(id)) {
      items.push(now);
      slots.push({ type: 'item', item: now, artifact: itemArtifact(now, tokensOf(now.content), true), library: false });
    }
  }

  // Library items condensed (issue 27): the prefix holds their outline or summary; a question about
  // one gets its sections as this turn's block, from the text the library kept.
  const condensed = engine.condensedIds();
  for (const id of condensed) {
    const lib = latest.get(id);
    if (!lib || attached.has(id)) continue;
    const item: ContextItem = { id, kind: lib.kind, title: lib.title, source: lib.source, content: lib.content, hash: lib.hash, ...(lib.via ? { via: lib.via } : {}) };
    supplementable.push({ id, title: lib.title, item, held: 'condensed', skip: sentRanges(history(), lib.source) });
  }

  // This turn's tool outputs (Vault QA's search block): decided each turn, never kept.
  (input.tools ?? []).forEach((tool, index) => slots.push({ type: 'tool', index, tool, artifact: toolArtifact(tool, turn, index, counter, false) }));
  return { items, current, slots, usages, kept, supplementable, history };
}

/**
 * The turn's input with these items replaced: an item attached this turn that maps to null is not
 * sent; a library note that maps to null keeps its library copy (not checked this turn); tool
 * outputs given as null are not sent. Items not in the map go as they are.
 */
export function inputWith(input: TurnInput, gathered: GatheredArtifacts, replaced: ReadonlyMap<string, ContextItem | null>, tools: readonly (ToolOutput | null)[]): TurnInput {
  const librarySlots = new Set(gathered.slots.flatMap((s) => (s.type === 'item' && s.library ? [s.artifact.id] : [])));
  const nextItems = gathered.items.flatMap((it) => {
    if (!it) return [];
    if (!replaced.has(it.id) || librarySlots.has(it.id)) return [it];
    const r = replaced.get(it.id);
    return r ? [r] : [];
  });
  const nextCurrent = new Map(gathered.current);
  for (const id of librarySlots) {
    if (!replaced.has(id)) continue;
    const r = replaced.get(id);
    if (r) nextCurrent.set(id, r);
    else nextCurrent.delete(id);
  }
  return {
    ...input,
    items: nextItems,
    ...(input.current ? { current: nextCurrent } : {}),
    ...(input.tools ? { tools: tools.filter((t): t is ToolOutput => t !== null) } : {}),
  };
}

/** The input as gathered, before any decision: the very input when nothing was replaced, left out or added (its assembly is then made once). */
export function inputAsGathered(input: TurnInput, gathered: GatheredArtifacts): TurnInput {
  const { items, current } = gathered;
  const unchanged = items.length === input.items.length && items.every((it, i) => it === input.items[i]) && [...current].every(([id, it]) => input.current?.get(id) === it);
  return unchanged ? input : inputWith(input, gathered, new Map(), input.tools ?? []);
}

export function plannedItem(item: ContextItem, strategy: 'summarize' | 'rag_extract', text: string, fullTokens: number): ContextItem {
  return { ...item, content: text, hash: sha256Hex(text), planned: { strategy, sourceHash: item.hash, fullTokens } };
}

function fromLibrary(lib: LibraryItem, item: ContextItem): ContextItem {
  return { ...item, content: lib.content, hash: lib.hash, ...(lib.planned ? { planned: lib.planned } : {}) };
}

function userUsage(item: ContextItem, strategy: 'exclude' | 'include_full', fullTokens: number, tokens: number): ArtifactUsage {
  const rationale = strategy === 'exclude' ? 'you excluded it' : 'you pinned it in full';
  return { id: item.id, type: item.kind, title: item.title, strategy, priority: 0, rationale, by: 'user', kept: false, fullTokens, tokens };
}

function keptUsage(kept: KeptDecision): ArtifactUsage {
  return {
    id: kept.id,
    type: kept.type,
    title: kept.title,
    strategy: kept.strategy,
    priority: kept.priority,
    rationale: kept.rationale,
    by: kept.by,
    kept: true,
    fullTokens: kept.fullTokens,
    tokens: kept.tokens,
    ...(kept.focus ? { focus: kept.focus } : {}),
    ...(kept.query ? { query: kept.query } : {}),
  };
}

/**
 * A kept decision applied to the item as it is now (same text as when decided): the library's own
 * summary or extract when it has it (byte for byte what was sent), else made again the same way —
 * the summary from the cache, the extract from the text (deterministic); null when excluded.
 */
async function applyKept(item: ContextItem, kept: KeptDecision, lib: LibraryItem | undefined, counter: TokenCounter, cache: SummaryCache): Promise<ContextItem | null> {
  if (kept.strategy === 'exclude') return null;
  if (kept.strategy === 'include_full') return item;
  if (lib?.planned && lib.planned.strategy === kept.strategy && lib.planned.sourceHash === item.hash) return fromLibrary(lib, item);
  if (kept.strategy === 'summarize') {
    const focus = kept.focus ?? '';
    const cached = await cache.get(SummaryCache.key(item.id, item.hash, focus));
    if (cached) return plannedItem(item, 'summarize', `${summaryHeader(item.title, kept.fullTokens, focus)}\n\n${cached.text}`, kept.fullTokens);
  }
  // An extract of the same size for the same query (also what a lost summary becomes).
  const found = await extractOf(item.title, item.content, kept.query ?? kept.focus ?? '', Math.max(kept.tokens, 200), counter);
  return found ? plannedItem(item, 'rag_extract', found.text, kept.fullTokens) : null;
}

/** Tool outputs of the turns history still sends (after the latest compaction). */
function historyTools(engine: PromptContextEngine): ToolOutput[] {
  const through = engine.currentCompaction()?.through ?? 0;
  return engine
    .completedTurns()
    .filter((t) => t.turn > through)
    .flatMap((t) => t.tools);
}

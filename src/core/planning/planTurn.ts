import { summaryReserve } from '../budget/plan';
import type { InputBudget } from '../budget/budget';
import type { ContextItem } from '../context/items';
import type { PromptContextEngine, TurnInput } from '../engine/engine';
import type { LibraryItem, ToolOutput } from '../engine/types';
import { sha256Hex } from '../hash';
import type { ContextPlanning } from '../settings/settings';
import { tokenCounterFor, type TokenCounter } from '../tokens/tokenCounter';
import { itemArtifact, toolArtifact } from './artifacts';
import { keptDecision, overrideOf, type KeptDecision, type PlanBook } from './book';
import { executePlan, WRAPPER_TOKENS, type Outcome } from './execute';
import { extractOf, extractRanges } from './extract';
import { HEURISTIC_PLANNER } from './heuristic';
import { shouldPlan } from './shouldPlan';
import { sentRanges, SUPPLEMENT_SHARE, SUPPLEMENT_TOOL, supplementsFor, type SupplementSource } from './supplements';
import { plannedOutIds } from './plannedOut';
import { renderTool } from '../engine/render';
import { SummaryCache } from './summaryCache';
import { summaryHeader, type ArtifactSummarizer } from './summarize';
import type { Artifact, ArtifactDecision, ArtifactUsage, Decider, PlanCall, Planner, PlanRecord } from './types';

/**
 * Share of the budget planned artifacts together may take. With a summary (at most 8 %) it stays
 * under the compaction target (half the budget), so a compaction can always reach its target, and
 * later questions keep room for their own sections (supplements.ts) and for history.
 */
export const ARTIFACT_SHARE = 0.4;
/**
 * What this turn's new artifacts may take however full the library already is (the budget allowing):
 * what the user just attached is what the question is about.
 */
export const NEW_ARTIFACT_FLOOR = 0.25;
/** Kept free besides, for counts that move a little when blocks are joined. */
const SAFETY_SHARE = 0.02;

export const PLANNING_GOAL = "Answer the user's message in a chat about the notes in their Obsidian vault.";

export interface PlanTurnDeps {
  readonly mode: ContextPlanning;
  /** The planner model (auto mode); null: the deterministic planner plans. */
  readonly planner: Planner | null;
  /** Null: no summaries (a summary decision becomes an extract). */
  readonly summarizer: ArtifactSummarizer | null;
  readonly cache: SummaryCache;
  readonly budget: InputBudget;
  readonly autoCondense: boolean;
  readonly expensiveModel: boolean;
  readonly signal: AbortSignal;
  /** False: every artifact is decided again each turn (to measure what stickiness saves). Default true. */
  readonly sticky?: boolean;
  /** The notes the plan left out, as they are now (plannedOut.ts): a question about them gets their sections. */
  readonly plannedOut?: ReadonlyMap<string, ContextItem>;
}

export interface PlannedTurn {
  /** The turn's input with each item and tool output as the plan sends it (excluded ones left out). */
  readonly input: TurnInput;
  /** Null when nothing was planned or applied this turn. */
  readonly record: PlanRecord | null;
  /** Decisions made this turn: the chat keeps them once the turn is answered. */
  readonly decisions: readonly KeptDecision[];
}

/** An artifact of this turn and where its decision goes back to. */
type Slot =
  | { readonly type: 'item'; readonly item: ContextItem; readonly artifact: Artifact; readonly library: boolean }
  | { readonly type: 'tool'; readonly index: number; readonly tool: ToolOutput; readonly artifact: Artifact };

function plannedItem(item: ContextItem, strategy: 'summarize' | 'rag_extract', text: string, fullTokens: number): ContextItem {
  return { ...item, content: text, hash: sha256Hex(text), planned: { strategy, sourceHash: item.hash, fullTokens } };
}

function fromLibrary(lib: LibraryItem, item: ContextItem): ContextItem {
  return { ...item, content: lib.content, hash: lib.hash, ...(lib.planned ? { planned: lib.planned } : {}) };
}

function usageOf(o: Outcome, kept: boolean): ArtifactUsage {
  return {
    id: o.artifact.id,
    type: o.artifact.type,
    title: o.artifact.title,
    strategy: o.strategy,
    priority: o.decision.priority,
    rationale: o.rationale,
    by: o.by,
    kept,
    fullTokens: o.artifact.tokens,
    tokens: o.tokens,
    ...(o.strategy === 'summarize' && o.decision.focus ? { focus: o.decision.focus } : {}),
    ...(o.strategy === 'rag_extract' ? { query: o.decision.query ?? '' } : {}),
    ...(o.cacheHit !== undefined ? { cacheHit: o.cacheHit } : {}),
  };
}

/**
 * Plan one turn's artifacts (seed 004) before it is assembled: the items attached this turn, the
 * library notes that changed, and this turn's tool outputs. Decisions are sticky: an item decided
 * before whose text did not change is sent exactly as before (its summary or extract is the
 * library's own text), so the prefix that carries it stays the same; the user's overrides win.
 * The decision table says whether what is new is worth a plan; if so the planner (the model in auto
 * mode, else the deterministic one; the deterministic one as well when the model fails, with a
 * warning) decides, and the decisions are carried out inside the room the budget leaves.
 */
export async function planTurn(engine: PromptContextEngine, input: TurnInput, book: PlanBook | undefined, deps: PlanTurnDeps): Promise<PlannedTurn> {
  if (deps.mode === 'off') return { input, record: null, decisions: [] };
  const sticky = deps.sticky ?? true;
  const counter = tokenCounterFor(input.model);
  const turn = engine.turnCount + 1;
  const library = engine.libraryItems();
  const latest = new Map(library.map((l) => [l.id, l]));
  const tokensOf = (content: string) => counter.count(content) + WRAPPER_TOKENS;

  const items: (ContextItem | null)[] = [...input.items];
  const current = new Map(input.current ?? []);
  const slots: Slot[] = [];
  const usages: ArtifactUsage[] = [];
  const keptArtifacts: { artifact: Artifact; decision: ArtifactDecision }[] = [];
  // Items kept as a summary or an extract since an earlier turn, or left out, with their whole text: this turn's question may need other parts.
  const supplementable: SupplementSource[] = [];
  // History's tool outputs, read only when a supplement needs them (a long chat has many turns).
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
    const kept = sticky ? keptDecision(book, item.id) : undefined;
    const lib = latest.get(item.id);
    if (override === 'exclude') {
      items[i] = null;
      usages.push(userUsage(item, 'exclude', tokensOf(item.content), 0));
    } else if (override === 'full') {
      if (lib?.planned && lib.hash !== item.hash) usages.push(userUsage(item, 'include_full', tokensOf(item.content), tokensOf(item.content)));
    } else if (kept && kept.sourceHash === item.hash) {
      const applied = await applyKept(item, kept, lib, counter, deps.cache);
      items[i] = applied;
      if (lib?.planned && kept.turn < turn) supplementable.push(heldPart(lib, item));
      if (kept.strategy !== 'include_full') usages.push(keptUsage(kept));
      keptArtifacts.push({ artifact: itemArtifact(item, kept.fullTokens, true), decision: kept });
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
    const override = overrideOf(book, id);
    const kept = sticky ? keptDecision(book, id) : undefined;
    if (override === 'full') continue; // the whole note: a re-planned update if it was a summary or an extract
    if (kept && kept.sourceHash === now.hash) {
      current.set(id, fromLibrary(lib, now));
      if (lib.planned && kept.turn < turn) supplementable.push(heldPart(lib, now));
      keptArtifacts.push({ artifact: itemArtifact(now, kept.fullTokens, true), decision: kept });
    } else if (lib.planned || !sticky) {
      // Its text changed since it was decided (or nothing is sticky): decided again, as a historical artifact.
      slots.push({ type: 'item', item: now, artifact: itemArtifact(now, tokensOf(now.content), true), library: true });
    }
  }

  // Notes the plan left out on an earlier turn (never sent): offered to this turn's question as
  // sections; without stickiness, decided again with the rest.
  const attached = new Map(input.items.map((it) => [it.id, it]));
  for (const id of plannedOutIds(book)) {
    const kept = keptDecision(book, id);
    const now = attached.get(id) ?? deps.plannedOut?.get(id);
    if (!kept || kept.turn >= turn || !now || latest.has(id)) continue;
    if (sticky) supplementable.push({ id, title: now.title, item: now, held: 'excluded', skip: sentRanges(history(), now.source) });
    else if (!attached.has(id)) {
      items.push(now);
      slots.push({ type: 'item', item: now, artifact: itemArtifact(now, tokensOf(now.content), true), library: false });
    }
  }

  // This turn's tool outputs (Vault QA's search block): decided each turn, never kept.
  (input.tools ?? []).forEach((tool, index) => slots.push({ type: 'tool', index, tool, artifact: toolArtifact(tool, turn, index, counter, false) }));

  const decided = keptArtifacts.map((k) => k.artifact);
  const librarySlots = new Set(slots.flatMap((s) => (s.type === 'item' && s.library ? [s.artifact.id] : [])));
  /**
   * The input with these items replaced: an item attached this turn that maps to null is not sent;
   * a library note that maps to null keeps its library copy (not checked this turn); tool outputs
   * given as null are not sent. Items not in the map go as they are.
   */
  const outputOf = (replaced: ReadonlyMap<string, ContextItem | null>, tools: readonly (ToolOutput | null)[]): TurnInput => {
    const nextItems = items.flatMap((it) => {
      if (!it) return [];
      if (!replaced.has(it.id) || librarySlots.has(it.id)) return [it];
      const r = replaced.get(it.id);
      return r ? [r] : [];
    });
    const nextCurrent = new Map(current);
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
  };
  // Nothing replaced, left out or added: the very input, so its assembly (measured, then sent) is made once.
  const unchanged = items.length === input.items.length && items.every((it, i) => it === input.items[i]) && [...current].every(([id, it]) => input.current?.get(id) === it);
  const asIs = unchanged ? input : outputOf(new Map(), input.tools ?? []);
  const verdict = shouldPlan({
    undecided: slots.map((s) => s.artifact),
    decided,
    // Our own sections for earlier questions are not tool results the planner should weigh.
    historicalTools: () => history().filter((t) => t.name !== SUPPLEMENT_TOOL).length,
    // Assembled only when the table gets that far (small additions are decided on their size alone).
    requestTokens: () => engine.assemble(asIs).promptTokens,
    budgetTokens: deps.budget.tokens,
    expensiveModel: deps.expensiveModel,
  });
  const appliedOnly = (): PlanRecord | null =>
    usages.length === 0
      ? null
      : { reason: verdict.reason, detail: verdict.detail, planner: null, roomTokens: 0, decisions: usages, calls: [], cache: { hits: 0, misses: 0 } };
  if (!verdict.plan) return withSupplements({ input: asIs, record: appliedOnly(), decisions: [] });

  // The room: what the budget leaves besides L1, this message, kept items and (unless condensing is
  // off) a condensed history; and no more than the artifacts' share of the budget.
  const base = engine.assemble(outputOf(new Map(slots.flatMap((sl) => (sl.type === 'item' ? [[sl.artifact.id, null] as const] : []))), (input.tools ?? []).map(() => null)));
  const condensable = deps.autoCondense ? Math.max(0, historyTokens(engine, counter) - summaryReserve(deps.budget)) : 0;
  const minimum = base.promptTokens - condensable;
  const keptTokens = library.reduce((n, l) => n + l.tokens, 0);
  const share = Math.max(Math.floor(deps.budget.tokens * ARTIFACT_SHARE) - keptTokens, Math.floor(deps.budget.tokens * NEW_ARTIFACT_FLOOR));
  const room = Math.max(0, Math.min(deps.budget.tokens - minimum - Math.ceil(deps.budget.tokens * SAFETY_SHARE), share));

  const artifacts = slots.map((s) => s.artifact);
  const plannerInput = { question: input.userText, goal: PLANNING_GOAL, budgetTokens: room, artifacts, kept: keptArtifacts };
  const planner = deps.mode === 'auto' && deps.planner ? deps.planner : HEURISTIC_PLANNER;
  let by: Decider = planner.kind;
  let warning: string | undefined;
  const calls: PlanCall[] = [];
  let plan;
  try {
    const made = await planner.plan(plannerInput, deps.signal);
    plan = made.plan;
    if (made.call) calls.push(made.call);
  } catch (error) {
    if (deps.signal.aborted) throw error;
    by = 'fallback';
    warning = `The planner failed (${error instanceof Error ? error.message : String(error)}); the deterministic plan was used.`;
    plan = (await HEURISTIC_PLANNER.plan(plannerInput, deps.signal)).plan;
  }
  const decisions = new Map<string, { decision: ArtifactDecision; by: Decider }>(plan.decisions.map((d) => [d.id, { decision: d, by }]));
  const missing = artifacts.filter((a) => !decisions.has(a.id));
  if (missing.length > 0) {
    const fill = (await HEURISTIC_PLANNER.plan({ ...plannerInput, artifacts: missing }, deps.signal)).plan;
    const last = Math.max(0, ...plan.decisions.map((d) => d.priority));
    for (const d of fill.decisions) decisions.set(d.id, { decision: { ...d, priority: last + d.priority }, by: 'fallback' });
  }
  const problems: string[] = [];
  const executed = await executePlan(artifacts, decisions, room, input.userText, {
    counter,
    summarizer: deps.mode === 'auto' ? deps.summarizer : null,
    cache: deps.cache,
    signal: deps.signal,
    onProblem: (text) => problems.push(text),
  });
  calls.push(...executed.calls);

  const replacedItems = new Map<string, ContextItem | null>();
  const tools: (ToolOutput | null)[] = [...(input.tools ?? [])];
  const kept: KeptDecision[] = [];
  executed.outcomes.forEach((o, i) => {
    const slot = slots[i];
    usages.push(usageOf(o, false));
    if (slot.type === 'tool') {
      tools[slot.index] = o.text === null ? null : { ...slot.tool, output: o.text };
      return;
    }
    const sent = o.strategy === 'include_full' ? slot.item : o.text === null ? null : plannedItem(slot.item, o.strategy as 'summarize' | 'rag_extract', o.text, o.artifact.tokens);
    // A library note decided again cannot leave the library here (only the user removes items): excluded, it keeps its last form.
    replacedItems.set(slot.item.id, sent);
    kept.push({
      ...o.decision,
      strategy: o.strategy,
      rationale: o.rationale,
      type: o.artifact.type,
      title: o.artifact.title,
      by: o.by,
      sourceHash: o.artifact.hash,
      fullTokens: o.artifact.tokens,
      tokens: o.tokens,
      turn,
    });
  });
  const allWarnings = [warning, ...problems].filter((w): w is string => Boolean(w));
  const record: PlanRecord = {
    reason: verdict.reason,
    detail: verdict.detail,
    planner: by,
    ...(allWarnings.length > 0 ? { warning: allWarnings.join(' ') } : {}),
    roomTokens: room,
    decisions: usages,
    calls,
    cache: { hits: executed.hits, misses: executed.misses },
    ...(slots.some((s) => s.type === 'item' && s.library) ? { replanned: slots.filter((s) => s.type === 'item' && s.library).map((s) => s.artifact.id) } : {}),
  };
  return withSupplements({ input: outputOf(replacedItems, tools), record, decisions: kept });

  /**
   * This turn's sections of the kept summaries and extracts and of the notes left out (supplements.ts).
   * Their room counts history as a compaction would leave it (a summary in its place) when
   * condensing is on: answering the question is worth a compaction, which fitTurn then makes.
   */
  async function withSupplements(planned: PlannedTurn): Promise<PlannedTurn> {
    if (supplementable.length === 0) return planned;
    const tokens = engine.assemble(planned.input).promptTokens;
    const condensable = deps.autoCondense ? Math.max(0, historyTokens(engine, counter) - summaryReserve(deps.budget)) : 0;
    const free = deps.budget.tokens - (tokens - condensable) - Math.ceil(deps.budget.tokens * SAFETY_SHARE);
    const room = Math.max(0, Math.min(Math.floor(deps.budget.tokens * SUPPLEMENT_SHARE), free));
    const found = await supplementsFor(input.userText, supplementable, room, counter);
    if (found.length === 0) return planned;
    const record: PlanRecord = planned.record ?? { reason: verdict.reason, detail: verdict.detail, planner: null, roomTokens: 0, decisions: [], calls: [], cache: { hits: 0, misses: 0 } };
    return {
      ...planned,
      input: { ...planned.input, tools: [...(planned.input.tools ?? []), ...found.map((f) => f.tool)] },
      record: { ...record, decisions: [...record.decisions, ...found.map((f) => f.usage)] },
    };
  }
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

/** Tokens of what history still sends (messages and their tool outputs): what a compaction can take back. */
function historyTokens(engine: PromptContextEngine, counter: TokenCounter): number {
  const through = engine.currentCompaction()?.through ?? 0;
  return engine
    .completedTurns()
    .filter((t) => t.turn > through)
    .reduce((n, t) => n + counter.count(t.userText) + counter.count(t.reply) + t.tools.reduce((k, tool) => k + counter.count(renderTool(tool)), 0), 0);
}

import { summaryReserve } from '../budget/plan';
import type { InputBudget } from '../budget/budget';
import type { ContextItem } from '../context/items';
import type { PromptContextEngine, TurnInput } from '../engine/engine';
import type { ToolOutput } from '../engine/types';
import type { ContextPlanning } from '../settings/settings';
import { tokenCounterFor, type TokenCounter } from '../tokens/tokenCounter';
import type { KeptDecision, PlanBook } from '../conversation/records/plan';
import { executePlan, type Outcome } from './execute';
import { HEURISTIC_PLANNER } from './heuristic';
import { shouldPlan } from './shouldPlan';
import { SUPPLEMENT_SHARE, SUPPLEMENT_TOOL, supplementsFor } from './supplements';
import { renderTool } from '../engine/render';
import type { SummaryCache } from './summaryCache';
import type { ArtifactSummarizer } from './summarize';
import { gatherArtifacts, inputAsGathered, inputWith, plannedItem, type GatheredArtifacts } from './gatherArtifacts';
import type { Planner, ShouldPlan as PlanVerdict } from './types';
import type { ArtifactDecision, ArtifactUsage, Decider, PlanCall, PlanRecord } from '../conversation/records/plan';

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

export interface PlanningDeps {
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

/**
 * Plan one turn's artifacts (seed 004) before it is assembled: the items attached this turn, the
 * library notes that changed, and this turn's tool outputs. Decisions are sticky: an item decided
 * before whose text did not change is sent exactly as before (its summary or extract is the
 * library's own text), so the prefix that carries it stays the same; the user's overrides win.
 * In stages: gather what the turn carries (gatherArtifacts.ts) → the decision table says whether what
 * is new is worth a plan → the room the budget leaves → the planner decides (the model in auto mode,
 * else the deterministic one; the deterministic one as well when the model fails, with a warning)
 * → the decisions are carried out inside the room → sections of held items for this question.
 */
export async function planTurn(engine: PromptContextEngine, input: TurnInput, book: PlanBook | undefined, deps: PlanningDeps): Promise<PlannedTurn> {
  if (deps.mode === 'off') return { input, record: null, decisions: [] };
  const counter = tokenCounterFor(input.model);
  const gathered = await gatherArtifacts(engine, input, book, { counter, cache: deps.cache, sticky: deps.sticky ?? true, ...(deps.plannedOut ? { plannedOut: deps.plannedOut } : {}) });
  const asIs = inputAsGathered(input, gathered);
  const verdict = shouldPlan({
    undecided: gathered.slots.map((s) => s.artifact),
    decided: gathered.kept.map((k) => k.artifact),
    // Our own sections for earlier questions are not tool results the planner should weigh.
    historicalTools: () => gathered.history().filter((t) => t.name !== SUPPLEMENT_TOOL).length,
    // Assembled only when the table gets that far (small additions are decided on their size alone).
    requestTokens: () => engine.assemble(asIs).promptTokens,
    budgetTokens: deps.budget.tokens,
    expensiveModel: deps.expensiveModel,
  });
  const stage: PlanStage = { engine, input, gathered, verdict, counter, deps };
  if (!verdict.plan) {
    const applied = gathered.usages.length === 0 ? null : recordOf(verdict, null, 0, [...gathered.usages], [], { hits: 0, misses: 0 });
    return withSupplements(stage, { input: asIs, record: applied, decisions: [] });
  }
  const room = roomForArtifacts(stage);
  const { decisions, by, warning, calls } = await decide(stage, room);
  const problems: string[] = [];
  const artifacts = gathered.slots.map((s) => s.artifact);
  const executed = await executePlan(artifacts, decisions, room, input.userText, {
    counter,
    summarizer: deps.mode === 'auto' ? deps.summarizer : null,
    cache: deps.cache,
    signal: deps.signal,
    onProblem: (text) => problems.push(text),
  });
  const applied = applyOutcomes(stage, executed.outcomes);
  const warnings = [warning, ...problems].filter((w): w is string => Boolean(w));
  const replanned = gathered.slots.filter((s) => s.type === 'item' && s.library).map((s) => s.artifact.id);
  const record = recordOf(verdict, by, room, applied.usages, [...calls, ...executed.calls], { hits: executed.hits, misses: executed.misses }, {
    ...(warnings.length > 0 ? { warning: warnings.join(' ') } : {}),
    ...(replanned.length > 0 ? { replanned } : {}),
  });
  return withSupplements(stage, { input: applied.input, record, decisions: applied.kept });
}

/** What every stage after gathering reads. */
interface PlanStage {
  readonly engine: PromptContextEngine;
  readonly input: TurnInput;
  readonly gathered: GatheredArtifacts;
  readonly verdict: PlanVerdict;
  readonly counter: TokenCounter;
  readonly deps: PlanningDeps;
}

/** A plan record, its keys in the order chat notes have always written them. */
function recordOf(
  verdict: PlanVerdict,
  planner: Decider | null,
  roomTokens: number,
  decisions: ArtifactUsage[],
  calls: PlanCall[],
  cache: PlanRecord['cache'],
  extra: Pick<PlanRecord, 'warning' | 'replanned'> = {},
): PlanRecord {
  const { reason, detail } = verdict;
  const { warning, replanned } = extra;
  return { reason, detail, planner, ...(warning !== undefined ? { warning } : {}), roomTokens, decisions, calls, cache, ...(replanned !== undefined ? { replanned } : {}) };
}

/**
 * The room: what the budget leaves besides L1, this message, kept items and (unless condensing is
 * off) a condensed history; and no more than the artifacts' share of the budget.
 */
function roomForArtifacts({ engine, input, gathered, counter, deps }: PlanStage): number {
  const withoutSlots = new Map(gathered.slots.flatMap((sl) => (sl.type === 'item' ? [[sl.artifact.id, null] as const] : [])));
  const base = engine.assemble(inputWith(input, gathered, withoutSlots, (input.tools ?? []).map(() => null)));
  const condensable = deps.autoCondense ? Math.max(0, historyTokens(engine, counter) - summaryReserve(deps.budget)) : 0;
  const minimum = base.promptTokens - condensable;
  const keptTokens = engine.libraryItems().reduce((n, l) => n + l.tokens, 0);
  const share = Math.max(Math.floor(deps.budget.tokens * ARTIFACT_SHARE) - keptTokens, Math.floor(deps.budget.tokens * NEW_ARTIFACT_FLOOR));
  return Math.max(0, Math.min(deps.budget.tokens - minimum - Math.ceil(deps.budget.tokens * SAFETY_SHARE), share));
}

/** The planner's decision per artifact; the deterministic planner fills in what it failed or forgot to decide. */
async function decide({ input, gathered, deps }: PlanStage, room: number) {
  const artifacts = gathered.slots.map((s) => s.artifact);
  const plannerInput = { question: input.userText, goal: PLANNING_GOAL, budgetTokens: room, artifacts, kept: [...gathered.kept] };
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
  return { decisions, by, warning, calls };
}

/** The carried-out decisions put back where their artifacts came from: the input as sent, the record's rows, the decisions the chat keeps. */
function applyOutcomes({ engine, input, gathered }: PlanStage, outcomes: readonly Outcome[]) {
  const turn = engine.turnCount + 1;
  const usages = [...gathered.usages];
  const replacedItems = new Map<string, ContextItem | null>();
  const tools: (ToolOutput | null)[] = [...(input.tools ?? [])];
  const kept: KeptDecision[] = [];
  outcomes.forEach((o, i) => {
    const slot = gathered.slots[i];
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
  return { input: inputWith(input, gathered, replacedItems, tools), usages, kept };
}

/**
 * This turn's sections of the kept summaries and extracts and of the notes left out (supplements.ts).
 * Their room counts history as a compaction would leave it (a summary in its place) when
 * condensing is on: answering the question is worth a compaction, which fitTurn then makes.
 */
async function withSupplements({ engine, input, gathered, verdict, counter, deps }: PlanStage, planned: PlannedTurn): Promise<PlannedTurn> {
  if (gathered.supplementable.length === 0) return planned;
  const tokens = engine.assemble(planned.input).promptTokens;
  const condensable = deps.autoCondense ? Math.max(0, historyTokens(engine, counter) - summaryReserve(deps.budget)) : 0;
  const free = deps.budget.tokens - (tokens - condensable) - Math.ceil(deps.budget.tokens * SAFETY_SHARE);
  const room = Math.max(0, Math.min(Math.floor(deps.budget.tokens * SUPPLEMENT_SHARE), free));
  // This turn's own items in full rival the held ones (a question about the note it attaches stays about it).
  const rivals = planned.input.items.filter((i) => !i.planned).map((i) => ({ id: i.id, title: i.title, content: i.content }));
  const found = await supplementsFor(input.userText, [...gathered.supplementable], room, counter, rivals);
  if (found.length === 0) return planned;
  const record: PlanRecord = planned.record ?? recordOf(verdict, null, 0, [], [], { hits: 0, misses: 0 });
  return {
    ...planned,
    input: { ...planned.input, tools: [...(planned.input.tools ?? []), ...found.map((f) => f.tool)] },
    record: { ...record, decisions: [...record.decisions, ...found.map((f) => f.usage)] },
  };
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

/** Tokens of what history still sends (messages and their tool outputs): what a compaction can take back. */
function historyTokens(engine: PromptContextEngine, counter: TokenCounter): number {
  const through = engine.currentCompaction()?.through ?? 0;
  return engine
    .completedTurns()
    .filter((t) => t.turn > through)
    .reduce((n, t) => n + counter.count(t.userText) + counter.count(t.reply) + t.tools.reduce((k, tool) => k + counter.count(renderTool(tool)), 0), 0);
}

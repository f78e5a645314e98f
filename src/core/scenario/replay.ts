import type { InputBudget } from '../budget/budget';
import type { BudgetSettings } from '../settings/budgetSettings';
import { condenseNow, fitTurn } from '../budget/condense';
import { type CompactionEvent } from '../conversation/records/compaction';
import type { Summarizer } from '../budget/summarizer';
import { ChipResolver } from '../context/resolver';
import { PromptContextEngine, type EngineOptions, type TurnInput } from '../engine/engine';
import { type TurnAssembly } from '../engine/turnAssembly';
import type { ToolFormPlanner } from '../engine/toolForms';
import { planTurn, type PlannedTurn } from '../planning/planTurn';
import { readPlannedOut } from '../planning/plannedOut';
import { withDecisions } from '../planning/book';
import { type PlanBook } from '../conversation/records/plan';
import type { SummaryCache } from '../planning/summaryCache';
import type { ArtifactSummarizer } from '../planning/summarize';
import type { Planner } from '../planning/types';
import type { PlanRecord } from '../conversation/records/plan';
import type { ContextPlanning } from '../settings/settings';
import { checkExpectations, type ExpectationResult } from './expect';
import { reReadLibraryNotes } from '../context/libraryNotes';
import type { PromptFragment } from '../engine/types';
import { promptFragments } from '../systemPrompt';
import type { VaultReader } from '../ports/vault';
import { OverlayVault } from './overlayVault';
import { placeholderReply, ScenarioError, type Scenario } from './scenario';
import { localSearchBlock } from '../vaultQa/localSearchBlock';
import { VAULT_QA_PER_NOTE, VAULT_QA_RESULTS } from '../vaultQa/vaultQa';
import type { VaultSearch } from '../search/types';
import { insideFolder, normalizeFolder } from '../vaultFolders';

export interface ReplayOptions extends EngineOptions {
  model?: string;
  fragments?: readonly PromptFragment[];
  /**
   * Called before each turn is assembled with the engine so far; may return a different engine
   * (e.g. saved and reloaded through the chat-note codec) to check that rehydration changes nothing.
   */
  beforeTurn?: (engine: PromptContextEngine, turn: number, vault: VaultReader) => Promise<PromptContextEngine> | PromptContextEngine;
  /** Where replies come from: a live model (the demo), or by default the scenario's canned reply. */
  respond?: (assembly: TurnAssembly, turn: number) => Promise<string>;
  /** Keep every request inside a budget, condensing as the chat would (without it: no budget). */
  budget?: ReplayBudget;
  /** Called after each turn is committed (the inspector keeps the compactions for the chat note). */
  afterTurn?: (turn: ReplayedTurn) => void;
  /** The vault search a turn's `"search": "query"` runs (required when a scenario has one). */
  search?: VaultSearch;
  /** Plan large attachments (src/core/planning) inside the budget (needs `budget`). */
  planning?: ReplayPlanning;
}

/** The replay's artifact planning: the planner (null: the deterministic one), summaries, the cache. */
export interface ReplayPlanning {
  readonly mode: ContextPlanning;
  readonly planner: Planner | null;
  readonly summarizer: ArtifactSummarizer | null;
  readonly cache: SummaryCache;
  /** False: decide every artifact again each turn (what stickiness saves). */
  readonly sticky?: boolean;
  readonly expensiveModel?: boolean;
}

export interface ReplayBudget {
  readonly budget: InputBudget;
  readonly settings: BudgetSettings;
  /** Null: summaries off (dropped turns are omitted with a marker). */
  readonly summarizer: Summarizer | null;
  /** Earlier tool outputs of the kept turns shortened at a compaction (src/core/planning/toolArtifacts.ts). Absent: verbatim. */
  readonly toolForms?: ToolFormPlanner;
}

export interface ReplayedTurn {
  readonly turn: number;
  readonly assembly: TurnAssembly;
  readonly reply: string;
  /** The compactions made before this turn's request (a manual one, then an automatic one). */
  readonly compactions?: readonly CompactionEvent[];
  /** The turn's artifact plan (planning on, and something was planned or kept). */
  readonly plan?: PlanRecord;
  /** The scenario's expected sections for this turn, and whether each reached the request. */
  readonly expected?: readonly ExpectationResult[];
}

/** Replay a scenario through the real resolver and engine, offline. */
export async function replayScenario(scenario: Scenario, vault: VaultReader, options: ReplayOptions = {}): Promise<ReplayedTurn[]> {
  return (await replayWithEngine(scenario, vault, options)).turns;
}

/** The replay, and the engine as it ends (to save the replayed chat as a chat note). */
export async function replayWithEngine(scenario: Scenario, vault: VaultReader, options: ReplayOptions = {}): Promise<{ turns: ReplayedTurn[]; engine: PromptContextEngine }> {
  const overlay = new OverlayVault(vault);
  const resolver = new ChipResolver(overlay);
  const fragments = options.fragments ?? promptFragments({ projectPrompt: scenario.project?.prompt ?? '' });
  const scope = normalizeFolder(scenario.project?.folder ?? '');
  const model = options.model ?? scenario.model;
  let engine = new PromptContextEngine(options);
  let book: PlanBook | undefined;
  const out: ReplayedTurn[] = [];
  for (const [index, step] of scenario.turns.entries()) {
    const turn = index + 1;
    await overlay.apply(step.edits);
    if (options.beforeTurn) engine = await options.beforeTurn(engine, turn, overlay);
    for (const id of step.remove) engine.removeFromLibrary(id);
    const { items, problems } = await resolver.resolve(step.context);
    const current = await reReadLibraryNotes(resolver, engine.libraryNotes(), items);
    const tools = step.search !== undefined ? [...step.tools, await searchBlock(step.search, turn, options.search, scope)] : step.tools;
    const compactions: CompactionEvent[] = [];
    let assembly: TurnAssembly;
    let input: TurnInput = { userText: step.user, items, problems, tools, fragments, model, current };
    let planned: PlannedTurn | null = null;
    if (options.budget) {
      const deps = { ...options.budget, signal: new AbortController().signal };
      if (options.planning) {
        const p = options.planning;
        planned = await planTurn(engine, input, book, {
          mode: p.mode,
          planner: p.planner,
          summarizer: p.summarizer,
          cache: p.cache,
          budget: options.budget.budget,
          autoCondense: options.budget.budget.autoCondense,
          expensiveModel: p.expensiveModel ?? false,
          signal: deps.signal,
          ...(p.sticky !== undefined ? { sticky: p.sticky } : {}),
          plannedOut: await readPlannedOut(resolver, book),
        });
        input = planned.input;
      }
      if (step.condense) {
        const manual = await condenseNow(engine, { ...input, userText: '', items: [], problems: [], tools: [] }, deps);
        if (manual) compactions.push(manual);
      }
      const fitted = await fitTurn(engine, input, deps);
      if (fitted.compaction) compactions.push(fitted.compaction);
      assembly = fitted.assembly;
    } else {
      assembly = engine.assemble(input);
    }
    const reply = options.respond ? await options.respond(assembly, turn) : (step.reply ?? placeholderReply(turn));
    engine.commit(assembly, reply);
    if (planned && planned.decisions.length > 0) book = withDecisions(book, planned.decisions);
    const expected = step.expect && step.expect.length > 0 ? await checkExpectations(step.expect, assembly.messages.map((m) => m.content).join('\n'), overlay) : undefined;
    const replayed: ReplayedTurn = {
      turn,
      assembly,
      reply,
      ...(compactions.length > 0 ? { compactions } : {}),
      ...(planned?.record ? { plan: planned.record } : {}),
      ...(expected ? { expected } : {}),
    };
    out.push(replayed);
    options.afterTurn?.(replayed);
  }
  return { turns: out, engine };
}

/** A turn's `"search"`: the localSearch block a Vault QA turn would send for that query. */
async function searchBlock(query: string, turn: number, search: VaultSearch | undefined, scope: string) {
  if (!search) throw new ScenarioError(`turn ${turn} has "search": the replay needs a vault search (the replay's search option)`);
  // A project's search asks for more, as Vault QA does: hits outside its folder are dropped after.
  const hits = await search.search(query, { k: scope ? VAULT_QA_RESULTS * 4 : VAULT_QA_RESULTS, perNote: VAULT_QA_PER_NOTE });
  return localSearchBlock(query, hits.filter((h) => h.score > 0 && insideFolder(h.path, scope)).slice(0, VAULT_QA_RESULTS)).tool;
}

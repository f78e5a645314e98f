import { existsSync } from 'node:fs';
import path from 'node:path';
import { inputBudget, type InputBudget } from '../../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS } from '../../src/core/settings/budgetSettings';
import { ExtractiveSummarizer } from '../../src/core/budget/summarizer';
import { sumCalls } from '../../src/core/planning/book';
import { llmPlanner } from '../../src/core/planning/llmPlanner';
import { SummaryCache } from '../../src/core/planning/summaryCache';
import { modelSummarizer } from '../../src/core/planning/summarize';
import { SUPPLEMENT_TOOL } from '../../src/core/planning/supplements';
import type { PlanRecord, Strategy } from '../../src/core/conversation/records/plan';
import { replayWithEngine, type ReplayedTurn, type ReplayPlanning } from '../../src/core/scenario/replay';
import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { FsVault } from '../../src/node/fsVault';
import { startLocalModels, type LocalModels } from '../../src/node/localModels';
import { loadScenarioFile } from '../../src/node/scenarioFiles';
import { RequestEncoder } from '../cache/encode';
import { simulateCaches, totals } from '../cache/simulate';

/** One turn of a planned replay, as the report shows it. */
export interface PlanningTurnRow {
  readonly turn: number;
  readonly promptTokens: number;
  /** Expected sections reached / expected (0 / 0: the turn names none). */
  readonly reached: number;
  readonly expected: number;
  /** The should-plan reason and who decided (null: nothing new was decided). */
  readonly reason: PlanRecord['reason'] | null;
  readonly planner: PlanRecord['planner'];
  /** New decisions of the turn by strategy, and the sections sent for later questions (supplements). */
  readonly decided: Readonly<Record<Strategy, number>>;
  readonly supplements: number;
  readonly supplementTokens: number;
  readonly plannerTokens: number;
  readonly summaryCalls: number;
  readonly summaryTokens: number;
  /** USD of the planner's and the summaries' calls (null: no priced call). */
  readonly planningCost: number | null;
  readonly cacheHits: number;
  readonly cacheMisses: number;
  readonly compactions: number;
  readonly prefixChange: string | null;
}

export interface PlanningVariant {
  readonly name: string;
  readonly planner: 'heuristic' | 'llm';
  readonly sticky: boolean;
  readonly turns: readonly PlanningTurnRow[];
  readonly reached: number;
  readonly expected: number;
  readonly maxRequest: number;
  readonly overBudget: number;
  readonly compactions: number;
  readonly prefixBreaks: number;
  readonly promptTokens: number;
  /** Cached share of all prompt tokens under each provider's rule (the local server's own rules). */
  readonly cachedShare: { readonly openai: number; readonly anthropic: number };
  readonly planningTokens: number;
  readonly planningCost: number | null;
  readonly ms: number;
}

export interface PlanningBench {
  readonly scenario: string;
  readonly model: string;
  readonly budget: Pick<InputBudget, 'window' | 'reserve' | 'tokens' | 'threshold'>;
  /** Tokens of everything attached, whole, and how many budgets that is. */
  readonly attachedTokens: number;
  readonly attachedBudgets: number;
  readonly variants: readonly PlanningVariant[];
  /** The same chat once more with the summary cache of the first (a second chat on the same notes). */
  readonly secondChat: { readonly summaryCalls: number; readonly hits: number; readonly misses: number } | null;
  /** Embedding tokens spent: extracts rank sections with the lexical search index, so none. */
  readonly embeddingTokens: number;
}

const STRATEGY_KEYS: readonly Strategy[] = ['include_full', 'summarize', 'rag_extract', 'exclude'];

export function planningScenarioFile(root: string): string | null {
  const file = path.join(root, 'bench', 'planning', 'planning-16k.json');
  const { vaultDir } = loadScenarioFile(file);
  return existsSync(vaultDir) ? file : null;
}

/** Pure: a replayed turn as a report row. */
export function planningRow(t: ReplayedTurn): PlanningTurnRow {
  const plan = t.plan;
  const decided = Object.fromEntries(STRATEGY_KEYS.map((k) => [k, 0])) as Record<Strategy, number>;
  let supplements = 0;
  let supplementTokens = 0;
  for (const d of plan?.decisions ?? []) {
    if (d.id.endsWith(`#${SUPPLEMENT_TOOL}`)) {
      supplements += 1;
      supplementTokens += d.tokens;
    } else if (!d.kept) decided[d.strategy] += 1;
  }
  const calls = plan?.calls ?? [];
  const planner = sumCalls(calls.filter((c) => c.kind === 'planner'));
  const summaries = sumCalls(calls.filter((c) => c.kind === 'summary'));
  const all = sumCalls(calls);
  return {
    turn: t.turn,
    promptTokens: t.assembly.promptTokens,
    reached: (t.expected ?? []).filter((e) => e.reached).length,
    expected: (t.expected ?? []).length,
    reason: plan ? plan.reason : null,
    planner: plan ? plan.planner : null,
    decided,
    supplements,
    supplementTokens,
    plannerTokens: planner.usage.inputTokens + planner.usage.outputTokens,
    summaryCalls: summaries.calls,
    summaryTokens: summaries.usage.inputTokens + summaries.usage.outputTokens,
    planningCost: all.cost,
    cacheHits: plan?.cache.hits ?? 0,
    cacheMisses: plan?.cache.misses ?? 0,
    compactions: t.compactions?.length ?? 0,
    prefixChange: t.assembly.prefixChange?.reason ?? null,
  };
}

function planningFor(kind: 'heuristic' | 'llm', sticky: boolean, model: string, local: LocalModels, cache: SummaryCache): ReplayPlanning {
  if (kind === 'heuristic') return { mode: 'heuristic', planner: null, summarizer: null, cache, sticky };
  const chat = { provider: 'local', model };
  const deps = { providers: local.providers, costOf: local.costOf };
  return { mode: 'auto', planner: llmPlanner(local.settings, chat, deps), summarizer: modelSummarizer(local.settings, chat, deps), cache, sticky };
}

/**
 * Replays the planning scenario (more than four budgets of a 16k model attached, one question per
 * section) with the deterministic planner and with the planner model (real LangChain clients over
 * HTTP to the local provider server: its default plan, its extractive summaries), each with sticky
 * decisions and without; then the planner-model chat once more on the same summary cache.
 */
export async function measurePlanning(root: string): Promise<PlanningBench | null> {
  const file = planningScenarioFile(root);
  if (!file) return null;
  const { scenario, vaultDir } = loadScenarioFile(file);
  const model = scenario.model;
  const settings = DEFAULT_BUDGET_SETTINGS;
  const budget = inputBudget(model, settings);
  const counter = tokenCounterFor(model);
  const local = await startLocalModels(model, { plannerModel: 'gpt-4o-mini' });
  try {
    const run = async (kind: 'heuristic' | 'llm', sticky: boolean, cache: SummaryCache) => {
      const t0 = performance.now();
      const { turns } = await replayWithEngine(scenario, new FsVault(vaultDir), {
        budget: { budget, settings, summarizer: new ExtractiveSummarizer(model) },
        planning: planningFor(kind, sticky, model, local, cache),
      });
      return { turns, ms: performance.now() - t0 };
    };
    const variants: PlanningVariant[] = [];
    let llmCache: SummaryCache | null = null;
    let attachedTokens = 0;
    for (const kind of ['heuristic', 'llm'] as const) {
      for (const sticky of [true, false]) {
        const cache = new SummaryCache();
        if (kind === 'llm' && sticky) llmCache = cache;
        const { turns, ms } = await run(kind, sticky, cache);
        const first = turns[0]?.plan;
        if (first) attachedTokens = Math.max(attachedTokens, first.decisions.reduce((n, d) => n + d.fullTokens, 0));
        variants.push(variantOf(kind, sticky, turns, model, budget, counter, ms));
      }
    }
    let secondChat: PlanningBench['secondChat'] = null;
    if (llmCache) {
      const { turns } = await run('llm', true, llmCache);
      const rows = turns.map(planningRow);
      secondChat = { summaryCalls: rows.reduce((n, r) => n + r.summaryCalls, 0), hits: rows.reduce((n, r) => n + r.cacheHits, 0), misses: rows.reduce((n, r) => n + r.cacheMisses, 0) };
    }
    const { window, reserve, tokens, threshold } = budget;
    return {
      scenario: scenario.name,
      model,
      budget: { window, reserve, tokens, threshold },
      attachedTokens,
      attachedBudgets: attachedTokens / tokens,
      variants,
      secondChat,
      embeddingTokens: 0,
    };
  } finally {
    await local.close();
  }
}

function variantOf(kind: 'heuristic' | 'llm', sticky: boolean, turns: readonly ReplayedTurn[], model: string, budget: InputBudget, counter: ReturnType<typeof tokenCounterFor>, ms: number): PlanningVariant {
  const rows = turns.map(planningRow);
  const requests = turns.map((t) => t.assembly.messages);
  const sum = totals(simulateCaches(requests, model, new RequestEncoder(model, counter)));
  const costs = rows.map((r) => r.planningCost).filter((c): c is number => c !== null);
  return {
    name: `${kind === 'llm' ? 'planner model' : 'deterministic'}, ${sticky ? 'sticky' : 'decided again each turn'}`,
    planner: kind,
    sticky,
    turns: rows,
    reached: rows.reduce((n, r) => n + r.reached, 0),
    expected: rows.reduce((n, r) => n + r.expected, 0),
    maxRequest: Math.max(...rows.map((r) => r.promptTokens)),
    overBudget: rows.filter((r) => r.promptTokens > budget.tokens).length,
    compactions: rows.reduce((n, r) => n + r.compactions, 0),
    prefixBreaks: rows.filter((r) => r.prefixChange !== null).length,
    promptTokens: sum.promptTokens,
    cachedShare: { openai: sum.openaiCached / sum.promptTokens, anthropic: sum.anthropicRead / sum.promptTokens },
    planningTokens: rows.reduce((n, r) => n + r.plannerTokens + r.summaryTokens, 0),
    planningCost: costs.length > 0 ? costs.reduce((a, b) => a + b, 0) : null,
    ms,
  };
}

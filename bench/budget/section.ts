import { existsSync } from 'node:fs';
import path from 'node:path';
import { inputBudget, type InputBudget } from '../../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS } from '../../src/core/settings/budgetSettings';
import { ExtractiveSummarizer } from '../../src/core/budget/summarizer';
import type { ChatMessage } from '../../src/core/engine/messages';
import { replayScenario, replayWithEngine, type ReplayedTurn } from '../../src/core/scenario/replay';
import { tokenCounterFor, type TokenCounter } from '../../src/core/tokens/tokenCounter';
import { FsVault } from '../../src/node/fsVault';
import { loadScenarioFile } from '../../src/node/scenarioFiles';
import { RULES, uncached, type Rule } from '../cache/efficiency';
import { RequestEncoder } from '../cache/encode';
import { appendOnlyRequests, lowerBound, type LowerBound } from '../cache/layouts';
import { simulateCaches, totals, type CacheTotals } from '../cache/simulate';
import { ratio } from '../lib/stats';
import { compactAtThresholdRequests, requestTokens, slidingWindowRequests } from './layouts';
import { MeteredSummarizer, type SummaryCost } from './metered';
import { offlineToolForms, TOOL_CHAT_TURNS, toolChatCorpus } from './toolChatFigures';
import { notesOf, toolChatScenario } from './toolChat';
import type { Scenario } from '../../src/core/scenario/scenario';

export const BUDGET_LAYOUTS = ['no-budget', 'sliding-window', 'compact-simple', 'compact-target', 'strata', 'strata-no-summary', 'strata-verbatim-tools'] as const;
export type BudgetLayout = (typeof BUDGET_LAYOUTS)[number];

export const BUDGET_LAYOUT_LABELS: Record<BudgetLayout, string> = {
  'no-budget': 'no budget (append-only)',
  'sliding-window': 'per-turn sliding window',
  'compact-simple': 'simple compact-at-80 % (keeps 4 messages)',
  'compact-target': 'compact-at-80 %, keeps half the budget',
  strata: 'Strata',
  'strata-no-summary': 'Strata, summaries off',
  'strata-verbatim-tools': 'Strata, earlier tool outputs verbatim (masked only)',
};

export interface BudgetLayoutResult {
  readonly totals: CacheTotals;
  /** Uncached tokens ÷ the information lower bound, per cache rule. */
  readonly overLowerBound: Record<Rule, number | null>;
  /** The same ÷ the bound with each tool output counted in every turn that produces it. */
  readonly overPerTurnBound: Record<Rule, number | null>;
  /** Largest request, counted as the engine counts (content + 3 per message + 3). */
  readonly maxRequest: number;
  readonly overBudget: number;
  /** Requests that do not extend the previous one (what a prefix cache loses). */
  readonly prefixBreaks: number;
  /** Compactions (null: the layout has none). */
  readonly condenses: number | null;
  /** What the summaries would cost with a model (null: no summaries). */
  readonly summary: SummaryCost | null;
  /** Library items (latest versions) whose text is absent from the last request. */
  readonly itemsLost: number;
  /** Mean tokens of the request right after a compaction: what the chat carries on (null: not a Strata layout, or no compaction). */
  readonly carriedAfter: number | null;
}

export interface BudgetScenarioResult {
  readonly name: string;
  readonly file: string;
  readonly model: string;
  readonly turns: number;
  readonly budget: Pick<InputBudget, 'window' | 'reserve' | 'tokens' | 'threshold' | 'target'>;
  readonly lowerBound: LowerBound;
  /** Each tool output counted in every turn that produces it. */
  readonly perTurnBound: LowerBound;
  readonly layouts: Record<BudgetLayout, BudgetLayoutResult>;
  readonly ms: number;
}

/** The budget scenarios: the shared budget-chat when ../shared is there, and the project's own. */
export function budgetScenarioFiles(root: string): string[] {
  const shared = path.resolve(root, '..', 'shared', 'scenarios', 'budget-chat.json');
  return [...(existsSync(shared) ? [shared] : []), path.join(root, 'bench', 'scenarios', 'budget-greenhouse.json')];
}

function prefixBreaks(requests: readonly (readonly ChatMessage[])[]): number {
  let breaks = 0;
  for (let i = 1; i < requests.length; i++) {
    const before = requests[i - 1];
    const extendsPrevious = before.every((m, k) => requests[i][k]?.role === m.role && requests[i][k]?.content === m.content);
    if (!extendsPrevious) breaks++;
  }
  return breaks;
}

function itemsLost(turns: readonly ReplayedTurn[], last: readonly ChatMessage[]): number {
  const latest = new Map<string, string>();
  for (const t of turns) {
    for (const id of t.assembly.envelope.removed) latest.delete(id);
    for (const s of t.assembly.envelope.layers.L3.segments) if (s.type === 'item') latest.set(s.item.id, s.item.content);
  }
  const text = last.map((m) => m.content).join('\n');
  return [...latest.values()].filter((content) => !text.includes(content.trim())).length;
}

/** Replays one budget scenario under the default settings' budget (gpt-3.5-turbo: 12,289) and compares the layouts. */
export function measureBudgetScenario(file: string): Promise<BudgetScenarioResult> {
  const { scenario, vaultDir } = loadScenarioFile(file);
  return measureScenario(scenario, vaultDir, file);
}

/** The same for a scenario made in code (`file` names it in the report). */
export async function measureScenario(scenario: Scenario, vaultDir: string, file: string): Promise<BudgetScenarioResult> {
  const t0 = performance.now();
  const model = scenario.model;
  const counter: TokenCounter = tokenCounterFor(model);
  const settings = DEFAULT_BUDGET_SETTINGS;
  const budget = inputBudget(model, settings);
  const vault = () => new FsVault(vaultDir);

  const plain = await replayWithEngine(scenario, vault());
  const strataSummarizer = new MeteredSummarizer(new ExtractiveSummarizer(model), counter);
  // As Strata runs with context planning on (the default): a compaction shortens earlier tool outputs.
  const toolForms = offlineToolForms(model);
  const strata = await replayScenario(scenario, vault(), { budget: { budget, settings, summarizer: strataSummarizer, toolForms } });
  const omitted = await replayScenario(scenario, vault(), { budget: { budget, settings: { ...settings, summarize: false }, summarizer: null, toolForms } });
  const verbatimSummarizer = new MeteredSummarizer(new ExtractiveSummarizer(model), counter);
  const verbatimTools = await replayScenario(scenario, vault(), { budget: { budget, settings, summarizer: verbatimSummarizer } });
  const simpleSummarizer = new MeteredSummarizer(new ExtractiveSummarizer(model), counter);
  const keepTurns = Math.ceil(settings.keepMessages / 2);
  const manual = new Set(scenario.turns.flatMap((t, i) => (t.condense ? [i + 1] : [])));
  const simple = await compactAtThresholdRequests(plain.turns, plain.engine.completedTurns(), budget, simpleSummarizer, counter, { turns: keepTurns }, manual);
  const targetSummarizer = new MeteredSummarizer(new ExtractiveSummarizer(model), counter);
  const toTarget = await compactAtThresholdRequests(plain.turns, plain.engine.completedTurns(), budget, targetSummarizer, counter, 'target', manual);

  const requests: Record<BudgetLayout, ChatMessage[][]> = {
    'no-budget': appendOnlyRequests(plain.turns),
    'sliding-window': slidingWindowRequests(plain.turns, budget, counter),
    'compact-simple': simple.requests,
    'compact-target': toTarget.requests,
    strata: strata.map((t) => t.assembly.messages),
    'strata-no-summary': omitted.map((t) => t.assembly.messages),
    'strata-verbatim-tools': verbatimTools.map((t) => t.assembly.messages),
  };
  const condenses: Record<BudgetLayout, number | null> = {
    'no-budget': null,
    'sliding-window': null,
    'compact-simple': simple.compactions.length,
    'compact-target': toTarget.compactions.length,
    strata: strata.reduce((n, t) => n + (t.compactions?.length ?? 0), 0),
    'strata-no-summary': omitted.reduce((n, t) => n + (t.compactions?.length ?? 0), 0),
    'strata-verbatim-tools': verbatimTools.reduce((n, t) => n + (t.compactions?.length ?? 0), 0),
  };
  const summaries: Record<BudgetLayout, SummaryCost | null> = {
    'no-budget': null,
    'sliding-window': null,
    'compact-simple': simpleSummarizer.total,
    'compact-target': targetSummarizer.total,
    strata: strataSummarizer.total,
    'strata-no-summary': null,
    'strata-verbatim-tools': verbatimSummarizer.total,
  };

  const carried = (turns: readonly ReplayedTurn[]): number | null => {
    const after = turns.filter((t) => (t.compactions ?? []).length > 0).map((t) => t.assembly.promptTokens);
    return after.length === 0 ? null : Math.round(after.reduce((a, b) => a + b, 0) / after.length);
  };
  const carriedAfter: Record<BudgetLayout, number | null> = {
    'no-budget': null,
    'sliding-window': null,
    'compact-simple': null,
    'compact-target': null,
    strata: carried(strata),
    'strata-no-summary': carried(omitted),
    'strata-verbatim-tools': carried(verbatimTools),
  };
  const bound = lowerBound(plain.turns, counter);
  const perTurnBound = lowerBound(plain.turns, counter, { toolsPerTurn: true });
  const encoder = new RequestEncoder(model, counter);
  const layouts = {} as Record<BudgetLayout, BudgetLayoutResult>;
  for (const name of BUDGET_LAYOUTS) {
    const list = requests[name];
    const sum = totals(simulateCaches(list, model, encoder));
    const sizes = list.map((r) => requestTokens(r, counter));
    const overLowerBound = {} as Record<Rule, number | null>;
    const overPerTurnBound = {} as Record<Rule, number | null>;
    for (const rule of RULES) {
      overLowerBound[rule] = ratio(uncached(sum, rule), bound.tokens);
      overPerTurnBound[rule] = ratio(uncached(sum, rule), perTurnBound.tokens);
    }
    layouts[name] = {
      totals: sum,
      overLowerBound,
      overPerTurnBound,
      maxRequest: Math.max(...sizes),
      overBudget: sizes.filter((n) => n > budget.tokens).length,
      prefixBreaks: prefixBreaks(list),
      condenses: condenses[name],
      summary: summaries[name],
      itemsLost: itemsLost(plain.turns, list[list.length - 1]),
      carriedAfter: carriedAfter[name],
    };
  }
  const { window, reserve, tokens, threshold, target } = budget;
  return {
    name: scenario.name,
    file,
    model,
    turns: scenario.turns.length,
    budget: { window, reserve, tokens, threshold, target },
    lowerBound: bound,
    perTurnBound,
    layouts,
    ms: performance.now() - t0,
  };
}

export async function measureBudget(root: string): Promise<BudgetScenarioResult[]> {
  const out: BudgetScenarioResult[] = [];
  for (const file of budgetScenarioFiles(root)) out.push(await measureBudgetScenario(file));
  // The agent-heavy chat (issue 27): a search and a readNote every turn, made over real notes.
  const corpus = toolChatCorpus(root);
  out.push(await measureScenario(toolChatScenario(notesOf(corpus), TOOL_CHAT_TURNS), corpus, 'bench/budget/toolChat.ts'));
  return out;
}

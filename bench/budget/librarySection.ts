import path from 'node:path';
import { inputBudget } from '../../src/core/budget/budget';
import { ExtractiveSummarizer } from '../../src/core/budget/summarizer';
import { replayWithEngine } from '../../src/core/scenario/replay';
import { DEFAULT_BUDGET_SETTINGS } from '../../src/core/settings/budgetSettings';
import { SummaryCache } from '../../src/core/planning/summaryCache';
import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { FsVault } from '../../src/node/fsVault';
import { loadScenarioFile } from '../../src/node/scenarioFiles';
import { RULES, uncached, type Rule } from '../cache/efficiency';
import { RequestEncoder } from '../cache/encode';
import { lowerBound } from '../cache/layouts';
import { simulateCaches, totals } from '../cache/simulate';
import { ratio } from '../lib/stats';

/**
 * The library under the budget (issue 27): library-chat.json replayed as a chat sends it (budget,
 * condensing, the deterministic planner for the sections of condensed notes). What it must show:
 * no turn refused, every request inside the budget, every turn's own note whole in its request, the
 * early note's fact delivered from the condensed library, and what it costs in uncached tokens.
 */
export interface LibraryChatResult {
  readonly name: string;
  readonly turns: number;
  readonly budget: number;
  readonly refused: number;
  readonly overBudget: number;
  readonly maxRequest: number;
  /** Turns whose own attached note is not whole in their request. */
  readonly ownNoteMissing: number;
  /** The scenario's expectations (the Facts section of the note asked about) not reached. */
  readonly factsMissed: number;
  /** The last turn's fact (the early note, not attached again) reached the request. */
  readonly earlyFact: boolean;
  readonly breaks: number;
  readonly libraryCondensings: number;
  readonly compactions: number;
  /** Turns that carried sections of a condensed note (planExtract). */
  readonly supplementTurns: number;
  readonly overLowerBound: Record<Rule, number | null>;
  readonly ms: number;
}

export async function measureLibraryChat(root: string): Promise<LibraryChatResult> {
  const t0 = performance.now();
  const file = path.join(root, 'bench', 'scenarios', 'library-chat.json');
  const { scenario, vaultDir } = loadScenarioFile(file);
  const model = scenario.model;
  const budget = inputBudget(model, DEFAULT_BUDGET_SETTINGS);
  // A refusal (BudgetError) would stop the replay: the run reaching its last turn is 0 refused.
  const { turns } = await replayWithEngine(scenario, new FsVault(vaultDir), {
    budget: { budget, settings: DEFAULT_BUDGET_SETTINGS, summarizer: new ExtractiveSummarizer(model) },
    planning: { mode: 'heuristic', planner: null, summarizer: null, cache: new SummaryCache() },
  });
  const refused = scenario.turns.length - turns.length;
  const counter = tokenCounterFor(model);
  const requests = turns.map((t) => t.assembly.messages);
  const sum = totals(simulateCaches(requests, model, new RequestEncoder(model, counter)));
  const bound = lowerBound(turns, counter);
  const overLowerBound = {} as Record<Rule, number | null>;
  for (const rule of RULES) overLowerBound[rule] = ratio(uncached(sum, rule), bound.tokens);
  // Each turn attaches a new note: it must enter whole (not planned down) in that turn's request.
  const ownNoteMissing = turns.filter((t) => {
    const chip = scenario.turns[t.turn - 1].context[0];
    if (!chip || chip.kind !== 'note') return false;
    const whole = t.assembly.envelope.layers.L3.segments.some((s) => s.type === 'item' && s.item.id === chip.path && !s.item.planned);
    return !whole || !t.assembly.messages[t.assembly.messages.length - 1].content.includes(`<note_context id="${chip.path}"`);
  }).length;
  const last = turns[turns.length - 1];
  return {
    name: scenario.name,
    turns: turns.length,
    budget: budget.tokens,
    refused,
    overBudget: turns.filter((t) => t.assembly.promptTokens > budget.tokens).length,
    maxRequest: Math.max(...turns.map((t) => t.assembly.promptTokens)),
    ownNoteMissing,
    factsMissed: turns.filter((t) => t.expected?.some((e) => !e.reached)).length,
    earlyFact: Boolean(last.expected?.every((e) => e.reached)),
    breaks: turns.filter((t) => t.assembly.prefixChange !== null).length,
    libraryCondensings: turns.filter((t) => t.compactions?.some((c) => c.library) || t.assembly.prefixChange?.reason === 'library-condensed').length,
    compactions: turns.reduce((n, t) => n + (t.compactions?.length ?? 0), 0),
    supplementTurns: turns.filter((t) => t.assembly.envelope.layers.L3.segments.some((s) => s.type === 'tool' && s.tool.name === 'planExtract')).length,
    overLowerBound,
    ms: performance.now() - t0,
  };
}

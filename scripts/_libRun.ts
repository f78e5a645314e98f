import path from 'node:path';
import { inputBudget } from '../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS } from '../src/core/settings/budgetSettings';
import { ExtractiveSummarizer } from '../src/core/budget/summarizer';
import { replayScenario } from '../src/core/scenario/replay';
import { FsVault } from '../src/node/fsVault';
import { loadScenarioFile } from '../src/node/scenarioFiles';
import { SummaryCache } from '../src/core/planning/summaryCache';
(async () => {
  const { scenario, vaultDir } = loadScenarioFile(path.resolve('/work/wt-lib/bench/scenarios/library-chat.json'));
  const budget = inputBudget(scenario.model, DEFAULT_BUDGET_SETTINGS);
  const t0 = Date.now();
  const turns = await replayScenario(scenario, new FsVault(vaultDir), {
    budget: { budget, settings: DEFAULT_BUDGET_SETTINGS, summarizer: new ExtractiveSummarizer(scenario.model) },
    planning: { mode: 'heuristic', planner: null, summarizer: null, cache: new SummaryCache() },
  });
  let over = 0, breaks = 0, lib = 0, missed = 0;
  for (const t of turns) {
    if (t.assembly.promptTokens > budget.tokens) over++;
    if (t.assembly.prefixChange) { breaks++; }
    if (t.compactions?.some((c) => c.library)) lib++;
    if (t.expected?.some((e) => !e.reached)) { missed++; console.log('missed', t.turn, JSON.stringify(t.expected)); }
  }
  console.log({ turns: turns.length, over, breaks, lib, missed, max: Math.max(...turns.map((t) => t.assembly.promptTokens)), ms: Date.now() - t0 });
  const last = turns[turns.length - 1];
  console.log(last.assembly.messages[last.assembly.messages.length - 1].content.slice(0, 1500));
  console.log(turns.filter((t) => t.assembly.prefixChange).map((t) => `${t.turn}:${t.assembly.prefixChange!.reason}`).join(' '));
})();

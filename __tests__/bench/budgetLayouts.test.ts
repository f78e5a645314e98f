import path from 'node:path';
import { inputBudget } from '../../src/core/budget/budget';
import { DEFAULT_BUDGET_SETTINGS } from '../../src/core/settings/budgetSettings';
import { ExtractiveSummarizer } from '../../src/core/budget/summarizer';
import type { CompletedTurn } from '../../src/core/engine/completedTurn';
import { renderItem } from '../../src/core/engine/render';
import { replayWithEngine, type ReplayedTurn } from '../../src/core/scenario/replay';
import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { FsVault } from '../../src/node/fsVault';
import { loadScenarioFile } from '../../src/node/scenarioFiles';
import { compactAtThresholdRequests, requestTokens, slidingWindowRequests } from '../../bench/budget/layouts';
import { MeteredSummarizer } from '../../bench/budget/metered';
import { BUDGET_LAYOUTS, budgetScenarioFiles, measureBudgetScenario } from '../../bench/budget/section';
import { appendOnlyRequests } from '../../bench/cache/layouts';
import { ROOT } from '../helpers/paths';

// The budget benchmark's layouts over the project's own budget scenario (real engine, files, tokenizer).
const GREENHOUSE = path.join(ROOT, 'bench', 'scenarios', 'budget-greenhouse.json');
const MODEL = 'gpt-3.5-turbo';
const counter = tokenCounterFor(MODEL);
const budget = inputBudget(MODEL, DEFAULT_BUDGET_SETTINGS);

describe('budget benchmark layouts over budget-greenhouse', () => {
  let turns: ReplayedTurn[];
  let completed: readonly CompletedTurn[];
  beforeAll(async () => {
    const { scenario, vaultDir } = loadScenarioFile(GREENHOUSE);
    const replay = await replayWithEngine(scenario, new FsVault(vaultDir));
    turns = replay.turns;
    completed = replay.engine.completedTurns();
  });

  test('the project scenario is found without ../shared, and the budget is gpt-3.5-turbo\'s 12,289', () => {
    expect(budgetScenarioFiles(ROOT)).toContain(GREENHOUSE);
    expect(budget).toMatchObject({ window: 16_385, reserve: 4_096, tokens: 12_289, threshold: 9_831 });
  });

  test('sliding window: the newest turns that fit, contiguous from the end, recomputed every turn', () => {
    const transcript = appendOnlyRequests(turns);
    const full = transcript[transcript.length - 1];
    const requests = slidingWindowRequests(turns, budget, counter);
    requests.forEach((request, i) => {
      expect(requestTokens(request, counter)).toBeLessThanOrEqual(budget.tokens);
      const kept = (request.length - 2) / 2;
      // System, then turns i−kept..i−1 exactly as the transcript has them, then this turn's message.
      expect(request).toEqual([full[0], ...full.slice(1 + 2 * (i - kept), 1 + 2 * i), full[1 + 2 * i]]);
      // One more (older) turn would not have fitted.
      if (kept < i) expect(requestTokens([full[0], ...full.slice(1 + 2 * (i - kept - 1), 1 + 2 * i), full[1 + 2 * i]], counter)).toBeGreaterThan(budget.tokens);
    });
    // Attached text goes with its turn: the first note is in no late request.
    const first = turns[0].assembly.envelope.layers.L3.segments.find((s) => s.type === 'item');
    expect(first?.type).toBe('item');
    if (first?.type === 'item') expect(requests[requests.length - 1].some((m) => m.content.includes(renderItem(first.item)))).toBe(false);
  });

  test('simple compaction: summary and the condensed turns\' notes open the request; between compactions it only extends', async () => {
    const metered = new MeteredSummarizer(new ExtractiveSummarizer(MODEL), counter);
    const { requests, compactions } = await compactAtThresholdRequests(turns, completed, budget, metered, counter, { turns: 2 });
    expect(compactions.length).toBeGreaterThanOrEqual(3);
    expect(metered.total.calls).toBe(compactions.length);
    expect(metered.total.inputTokens).toBeGreaterThan(metered.total.outputTokens);
    expect(metered.total.outputTokens).toBeGreaterThan(0);
    let through = 0;
    requests.forEach((request, i) => {
      const turn = i + 1;
      expect(requestTokens(request, counter)).toBeLessThanOrEqual(budget.tokens);
      const c = compactions.find((k) => k.turn === turn);
      if (c) {
        // Two turns kept verbatim: system, summary + notes with the first kept message, its reply, the next pair, this turn.
        expect(c.through).toBe(turn - 3);
        expect(request).toHaveLength(6);
        expect(request[1].content).toContain(`<conversation_summary turns="${c.through}" kind="summary">`);
        for (const t of turns.slice(0, c.through)) {
          for (const s of t.assembly.envelope.layers.L3.segments) if (s.type === 'item') expect(request[1].content).toContain(s.item.content.trim().split('\n')[0]);
        }
        through = c.through;
      } else if (i > 0) {
        expect(request.slice(0, requests[i - 1].length)).toEqual(requests[i - 1]);
      }
      if (through > 0 && !c) expect(request[1].content).toContain(`<conversation_summary turns="${through}"`);
    });
  });

  test('the section: every budgeted layout fits, none beats the lower bound, Strata loses no attached text', async () => {
    const r = await measureBudgetScenario(GREENHOUSE);
    expect(r.layouts['no-budget'].overBudget).toBeGreaterThan(0);
    expect(r.layouts['no-budget'].prefixBreaks).toBe(0);
    for (const name of BUDGET_LAYOUTS) {
      const l = r.layouts[name];
      if (name !== 'no-budget') expect(l.overBudget).toBe(0);
      expect(l.maxRequest).toBeLessThanOrEqual(name === 'no-budget' ? Infinity : budget.tokens);
      expect(l.overLowerBound.openai).toBeGreaterThanOrEqual(1);
      expect(l.overLowerBound.anthropic).toBeGreaterThanOrEqual(1);
      expect(l.overPerTurnBound.openai).toBeLessThanOrEqual(l.overLowerBound.openai as number);
    }
    expect(r.perTurnBound.tokens).toBeGreaterThan(r.lowerBound.tokens);
    expect(r.layouts['sliding-window'].itemsLost).toBeGreaterThan(0);
    expect(r.layouts.strata.itemsLost).toBe(0);
    expect(r.layouts['strata-no-summary'].itemsLost).toBe(0);
    expect(r.layouts.strata.condenses).toBe(r.layouts.strata.prefixBreaks);
    expect(r.layouts.strata.summary?.calls).toBe(r.layouts.strata.condenses);
    expect(r.layouts['strata-no-summary'].summary).toBeNull();
    // Strata's engine leaves fewer tokens uncached than a per-turn sliding window, by far.
    expect(r.layouts['sliding-window'].overLowerBound.openai as number).toBeGreaterThan(3 * (r.layouts.strata.overLowerBound.openai as number));
  });
});

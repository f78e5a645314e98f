import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { FreshnessPolicy } from '../../src/core/settings/engineChoices';
import { replayScenario, type ReplayedTurn } from '../../src/core/scenario/replay';
import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { FsVault } from '../../src/node/fsVault';
import { loadScenarioFile } from '../../src/node/scenarioFiles';
import { ratio } from '../lib/stats';
import { RequestEncoder } from './encode';
import { appendOnlyRequests, lowerBound, naiveRequests, type LowerBound } from './layouts';
import { simulateCaches, totals, type CacheTotals, type TurnCacheUse } from './simulate';

export const LAYOUTS = ['strata', 'strata-seed', 'naive', 'append-only'] as const;
export type LayoutName = (typeof LAYOUTS)[number];

export const LAYOUT_LABELS: Record<LayoutName, string> = {
  strata: "Strata default ('transcript')",
  'strata-seed': "Strata 'seed' rendering",
  naive: 'naive (all notes resent)',
  'append-only': 'append-only transcript',
};

export const RULES = ['openai', 'anthropic', 'gemini'] as const;
export type Rule = (typeof RULES)[number];

export function uncached(t: CacheTotals | TurnCacheUse, rule: Rule): number {
  return t.promptTokens - (rule === 'openai' ? t.openaiCached : rule === 'anthropic' ? t.anthropicRead : t.geminiCached);
}

export interface LayoutResult {
  readonly perTurn: TurnCacheUse[];
  readonly totals: CacheTotals;
}

/** A turn where Strata's default left more tokens uncached than the append-only transcript. */
export interface WorseTurn {
  readonly turn: number;
  readonly strata: number;
  readonly appendOnly: number;
  readonly prefixChange: string | null;
}

export interface RuleComparison {
  readonly strataOverLowerBound: number | null;
  readonly naiveOverStrata: number | null;
  readonly seedOverLowerBound: number | null;
  readonly naiveOverLowerBound: number | null;
  readonly appendOnlyOverLowerBound: number | null;
  readonly strataOverAppendOnly: number | null;
  /** Strata uncached − append-only uncached, whole scenario. */
  readonly strataMinusAppendOnly: number;
  readonly worseTurns: readonly WorseTurn[];
}

export interface FreshnessCost {
  readonly fresh: CacheTotals;
  readonly stable: CacheTotals;
}

export interface ScenarioEfficiency {
  readonly name: string;
  readonly file: string;
  readonly model: string;
  readonly turns: number;
  readonly lowerBound: LowerBound;
  readonly layouts: Record<LayoutName, LayoutResult>;
  readonly rules: Record<Rule, RuleComparison>;
  /** Only for scenarios that edit a note: transcript rendering, 'fresh' vs 'stable'. */
  readonly freshness: FreshnessCost | null;
}

/** Scenario files: the shared ones, the benchmark's own (over the shared corpus) and the examples, sorted by path. */
export function scenarioFiles(root: string): string[] {
  const dirs = [path.resolve(root, '..', 'shared', 'scenarios'), path.resolve(root, 'bench', 'scenarios'), path.resolve(root, 'examples', 'scenarios')];
  return dirs.flatMap((dir) =>
    readdirSync(dir)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => path.join(dir, f)),
  );
}

async function replay(file: string, freshness: FreshnessPolicy, rendering: 'transcript' | 'seed'): Promise<ReplayedTurn[]> {
  const { scenario, vaultDir } = loadScenarioFile(file);
  return replayScenario(scenario, new FsVault(vaultDir), { rendering, freshness });
}

export async function measureScenario(file: string): Promise<ScenarioEfficiency> {
  const { scenario } = loadScenarioFile(file);
  const model = scenario.model;
  const encoder = new RequestEncoder(model, tokenCounterFor(model));
  const strataTurns = await replay(file, 'fresh', 'transcript');
  const seedTurns = await replay(file, 'fresh', 'seed');
  const requests: Record<LayoutName, (typeof strataTurns)[number]['assembly']['messages'][]> = {
    strata: strataTurns.map((t) => t.assembly.messages),
    'strata-seed': seedTurns.map((t) => t.assembly.messages),
    naive: naiveRequests(strataTurns),
    'append-only': appendOnlyRequests(strataTurns),
  };
  const layouts = {} as Record<LayoutName, LayoutResult>;
  for (const name of LAYOUTS) {
    const perTurn = simulateCaches(requests[name], model, encoder);
    layouts[name] = { perTurn, totals: totals(perTurn) };
  }
  const bound = lowerBound(strataTurns, tokenCounterFor(model));
  const rules = {} as Record<Rule, RuleComparison>;
  for (const rule of RULES) {
    const u = (name: LayoutName) => uncached(layouts[name].totals, rule);
    const worseTurns: WorseTurn[] = [];
    layouts.strata.perTurn.forEach((t, i) => {
      const strata = uncached(t, rule);
      const appendOnly = uncached(layouts['append-only'].perTurn[i], rule);
      if (strata > appendOnly) {
        const change = strataTurns[i].assembly.prefixChange;
        worseTurns.push({ turn: t.turn, strata, appendOnly, prefixChange: change ? change.reason : null });
      }
    });
    rules[rule] = {
      strataOverLowerBound: ratio(u('strata'), bound.tokens),
      naiveOverStrata: ratio(u('naive'), u('strata')),
      seedOverLowerBound: ratio(u('strata-seed'), bound.tokens),
      naiveOverLowerBound: ratio(u('naive'), bound.tokens),
      appendOnlyOverLowerBound: ratio(u('append-only'), bound.tokens),
      strataOverAppendOnly: ratio(u('strata'), u('append-only')),
      strataMinusAppendOnly: u('strata') - u('append-only'),
      worseTurns,
    };
  }
  let freshness: FreshnessCost | null = null;
  if (scenario.turns.some((t) => t.edits.length > 0)) {
    const stableTurns = await replay(file, 'stable', 'transcript');
    freshness = {
      fresh: layouts.strata.totals,
      stable: totals(simulateCaches(stableTurns.map((t) => t.assembly.messages), model, encoder)),
    };
  }
  return {
    name: scenario.name,
    file,
    model,
    turns: scenario.turns.length,
    lowerBound: bound,
    layouts,
    rules,
    freshness,
  };
}

export async function measureCacheEfficiency(root: string): Promise<ScenarioEfficiency[]> {
  const out: ScenarioEfficiency[] = [];
  for (const file of scenarioFiles(root)) out.push(await measureScenario(file));
  return out;
}

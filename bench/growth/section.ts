import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { growthExponent, median, p95 } from '../lib/stats';
import type { GrowthOptions, GrowthRun } from './worker';

export const MODES = ['next', 'warm', 'cold'] as const;
export type Mode = (typeof MODES)[number];

export interface ModeStats {
  readonly median: number;
  readonly p95: number;
  readonly samples: number;
}

export interface GrowthPoint {
  readonly turn: number;
  readonly libraryNotes: number;
  readonly libraryChars: number;
  readonly historyChars: number;
  readonly promptTokens: number;
  readonly requestChars: number;
  /** Characters tokenized by one assembly of turn N; `nextMax`: the largest first assembly in the window. */
  readonly tokenizedChars: { readonly next: number; readonly nextMax: number; readonly warm: number; readonly cold: number };
  /** New content (new notes + user text) of the window turn with the largest tokenizer work. */
  readonly nextMaxNewChars: number;
  readonly heapUsedMiB: number;
  readonly rssMiB: number;
  readonly modes: Record<Mode, ModeStats>;
}

export interface GrowthExponent {
  readonly from: number;
  readonly to: number;
  readonly modes: Record<Mode, number | null>;
}

export interface GrowthSummary {
  readonly run: GrowthRun;
  readonly points: readonly GrowthPoint[];
  readonly exponents: readonly GrowthExponent[];
  /** Same-run ratios: cold ÷ warm at the largest N, and t(N max) ÷ t(N min) per mode. */
  readonly coldOverWarmAtMax: number;
  readonly largestOverSmallest: Record<Mode, number>;
}

function stats(samples: readonly number[]): ModeStats {
  return { median: median(samples), p95: p95(samples), samples: samples.length };
}

/** Pure: medians, p95s and exponents from a worker's raw run. */
export function summarizeGrowth(run: GrowthRun): GrowthSummary {
  const points: GrowthPoint[] = run.checkpoints.map((c) => ({
    turn: c.turn,
    libraryNotes: c.libraryNotes,
    libraryChars: c.libraryChars,
    historyChars: c.historyChars,
    promptTokens: c.promptTokens,
    requestChars: c.requestChars,
    tokenizedChars: { ...c.tokenizedChars, nextMax: Math.max(...c.nextWindowTokenizedChars) },
    nextMaxNewChars: c.nextWindowNewChars[c.nextWindowTokenizedChars.indexOf(Math.max(...c.nextWindowTokenizedChars))],
    heapUsedMiB: c.heapUsedMiB,
    rssMiB: c.rssMiB,
    modes: { next: stats(c.nextMs), warm: stats(c.warmMs), cold: stats(c.coldMs) },
  }));
  const exponent = (a: GrowthPoint, b: GrowthPoint, mode: Mode) => {
    const t1 = a.modes[mode].median;
    const t2 = b.modes[mode].median;
    return t1 > 0 && t2 > 0 ? growthExponent(a.turn, t1, b.turn, t2) : null;
  };
  const exponents: GrowthExponent[] = [];
  for (let i = 1; i < points.length; i++) {
    const [a, b] = [points[i - 1], points[i]];
    exponents.push({ from: a.turn, to: b.turn, modes: { next: exponent(a, b, 'next'), warm: exponent(a, b, 'warm'), cold: exponent(a, b, 'cold') } });
  }
  if (points.length > 1) {
    const [a, b] = [points[0], points[points.length - 1]];
    exponents.push({ from: a.turn, to: b.turn, modes: { next: exponent(a, b, 'next'), warm: exponent(a, b, 'warm'), cold: exponent(a, b, 'cold') } });
  }
  const first = points[0];
  const last = points[points.length - 1];
  const over = (mode: Mode) => last.modes[mode].median / first.modes[mode].median;
  return {
    run,
    points,
    exponents,
    coldOverWarmAtMax: last.modes.cold.median / last.modes.warm.median,
    largestOverSmallest: { next: over('next'), warm: over('warm'), cold: over('cold') },
  };
}

/** Runs the growth worker in a fresh Node process (with --expose-gc for memory figures). */
export function measureGrowth(root: string, options: GrowthOptions): GrowthSummary {
  const worker = path.join(root, 'bench', 'growth', 'worker.ts');
  const corpus = path.resolve(root, '..', 'shared', 'corpus');
  const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', worker, corpus, JSON.stringify(options)], {
    cwd: root,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.status !== 0) throw new Error(`growth worker failed (${result.status}): ${result.stderr.trim()}`);
  return summarizeGrowth(JSON.parse(result.stdout) as GrowthRun);
}

import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { median, quantile } from '../lib/stats';
import type { VaultKind, WholeTurnCheckpoint, WholeTurnOptions, WholeTurnRun } from './worker';

/** One row of `wholeTurn` in latest.json: the fields first, then the rest of what was measured. */
export interface WholeTurnRow extends Omit<WholeTurnCheckpoint, 'nextSamples' | 'againSamples'> {
  readonly vault: VaultKind;
}

/** A fresh process's first turns (the warm-up chat): what first use costs, kept apart from the per-length figures. */
export interface FirstUse {
  /** Turn 1: Enter → provider call, everything on the path used for the first time. */
  readonly firstTurnMs: number;
  /** Median of turns 2–10 of that chat, beside the measured (warm) chat's turn-10 figure. */
  readonly turns2to10Ms: number;
}

export interface WholeTurnFigures {
  readonly rows: readonly WholeTurnRow[];
  readonly runs: readonly { readonly vault: VaultKind; readonly durationMs: number; readonly peakHeapMiB: number; readonly options: WholeTurnOptions; readonly firstUse?: FirstUse; readonly shortChats?: ShortChats }[];
}

/** Issue 30's turn 10 ÷ turn 50 over several short chats: medians of the pooled turns 4–10 and 44–50, and of each chat's own ratio. */
export interface ShortChats {
  readonly chats: number;
  readonly samples: number;
  readonly tenMs: number;
  readonly fiftyMs: number;
  readonly tenCpuMs: number;
  readonly fiftyCpuMs: number;
  /**
   * Each chat's median at turns 4–10 ÷ its median at 44–50 (both a second apart, under the same load):
   * the median over the chats, and the quartiles of their spread; absent for runs from before.
   */
  readonly perChat?: { readonly ratio: Spread; readonly cpuRatio: Spread; readonly noSlower: number; readonly noSlowerCpu: number };
}

/** A median with the quartiles around it. */
export interface Spread {
  readonly q1: number;
  readonly median: number;
  readonly q3: number;
}

function spreadOf(xs: readonly number[]): Spread {
  return { q1: quantile(xs, 0.25), median: median(xs), q3: quantile(xs, 0.75) };
}

/** Pure: the pooled medians of a run's short chats and their per-chat ratios (null without any). */
export function shortChatsOf(pooled: WholeTurnRun['shortChats']): ShortChats | null {
  if (!pooled || pooled.tenMs.length === 0 || pooled.fiftyMs.length === 0 || pooled.tenCpuMs.length === 0 || pooled.fiftyCpuMs.length === 0) return null;
  const base = { chats: pooled.chats, samples: pooled.tenMs.length, tenMs: median(pooled.tenMs), fiftyMs: median(pooled.fiftyMs), tenCpuMs: median(pooled.tenCpuMs), fiftyCpuMs: median(pooled.fiftyCpuMs) };
  const measured = (pooled.perChat ?? []).filter((c) => c.tenMs.length > 0 && c.fiftyMs.length > 0 && c.tenCpuMs.length > 0 && c.fiftyCpuMs.length > 0);
  if (measured.length === 0) return base;
  const ratios = measured.map((c) => median(c.tenMs) / median(c.fiftyMs));
  const cpuRatios = measured.map((c) => median(c.tenCpuMs) / median(c.fiftyCpuMs));
  return {
    ...base,
    perChat: { ratio: spreadOf(ratios), cpuRatio: spreadOf(cpuRatios), noSlower: ratios.filter((r) => r <= 1).length, noSlowerCpu: cpuRatios.filter((r) => r <= 1).length },
  };
}

/** Pure: the first-use figures of a warm-up chat's per-turn times (null without one, or shorter than 10 turns). */
export function firstUseOf(warmupNextMs: readonly number[] | undefined): FirstUse | null {
  if (!warmupNextMs || warmupNextMs.length < 10) return null;
  return { firstTurnMs: warmupNextMs[0], turns2to10Ms: median(warmupNextMs.slice(1, 10)) };
}

/** Pure: the rows of one worker run, with the field names first. */
export function rowsOf(run: WholeTurnRun): WholeTurnRow[] {
  return run.checkpoints.map((c) => {
    const { turns, nextMs, againMs, saveMs, openMs, firstSendMs, noteBytes, frontmatterBytes, heapMiB, ...rest } = c;
    const { nextSamples: _n, againSamples: _a, ...extra } = rest;
    return { turns, nextMs, againMs, saveMs, openMs, firstSendMs, noteBytes, frontmatterBytes, heapMiB, vault: run.options.vault, ...extra };
  });
}

/** Runs one worker per vault kind, each in a fresh Node process (--expose-gc for the heap figure). */
export function measureWholeTurn(root: string, base: Omit<WholeTurnOptions, 'vault'>, kinds: readonly VaultKind[], progress: (message: string) => void): WholeTurnFigures {
  const worker = path.join(root, 'bench', 'wholeTurn', 'worker.ts');
  const rows: WholeTurnRow[] = [];
  const runs: WholeTurnFigures['runs'][number][] = [];
  for (const vault of kinds) {
    progress(`whole turn: ${base.turns} turns over ${base.notes} notes, ${vault} vault, in a child process…`);
    const options: WholeTurnOptions = { ...base, vault };
    const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', worker, JSON.stringify(options)], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    if (result.status !== 0) throw new Error(`whole-turn worker failed (${result.status})`);
    const run = JSON.parse(result.stdout) as WholeTurnRun;
    rows.push(...rowsOf(run));
    const firstUse = firstUseOf(run.warmupNextMs);
    const shortChats = shortChatsOf(run.shortChats);
    runs.push({ vault, durationMs: run.durationMs, peakHeapMiB: run.peakHeapMiB, options, ...(firstUse ? { firstUse } : {}), ...(shortChats ? { shortChats } : {}) });
  }
  return { rows, runs };
}

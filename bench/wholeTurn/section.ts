import { spawnSync } from 'node:child_process';
import path from 'node:path';
import type { VaultKind, WholeTurnCheckpoint, WholeTurnOptions, WholeTurnRun } from './worker';

/** One row of `wholeTurn` in latest.json: the fields first, then the rest of what was measured. */
export interface WholeTurnRow extends Omit<WholeTurnCheckpoint, 'nextSamples' | 'againSamples'> {
  readonly vault: VaultKind;
}

export interface WholeTurnFigures {
  readonly rows: readonly WholeTurnRow[];
  readonly runs: readonly { readonly vault: VaultKind; readonly durationMs: number; readonly peakHeapMiB: number; readonly options: WholeTurnOptions }[];
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
    runs.push({ vault, durationMs: run.durationMs, peakHeapMiB: run.peakHeapMiB, options });
  }
  return { rows, runs };
}

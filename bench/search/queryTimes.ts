/**
 * Query times alone on a generated vault (the scale bench builds, saves and restores too; this
 * only searches): the index is built once (or restored from `--cache FILE`), then the vault's
 * queries run `--rounds` times, each query timed by wall clock and by this process's CPU.
 * argv: <notes> [--rounds N] [--cache FILE] [--k K]. Prints one JSON line.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { VaultIndex } from '../../src/core/search/vaultIndex';
import { median, p95 } from '../lib/stats';
import { generateVault, MemoryVault } from './generateVault';

const arg = (name: string, fallback: string): string => {
  const at = process.argv.indexOf(`--${name}`);
  return at > 0 ? process.argv[at + 1] : fallback;
};

const cpuMs = (since: ReturnType<typeof process.cpuUsage>): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function main(): Promise<void> {
  const count = Number(process.argv[2]);
  const rounds = Number(arg('rounds', '5'));
  const k = Number(arg('k', '10'));
  const cache = arg('cache', '');
  const generated = generateVault(count);
  const index = new VaultIndex(new MemoryVault(generated.notes));
  if (cache && existsSync(cache) && index.restore(readFileSync(cache, 'utf8'))) {
    // Restored: nothing to build.
  } else {
    await index.build({ pause: () => Promise.resolve() });
    if (cache) writeFileSync(cache, await index.serialize());
  }
  const wall: number[] = [];
  const cpu: number[] = [];
  const perQuery = new Map<string, number[]>();
  for (let round = 0; round < rounds; round++) {
    for (const query of generated.queries) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      await index.search(query, { k });
      const c = cpuMs(c0);
      const w = performance.now() - t0;
      cpu.push(c);
      wall.push(w);
      const list = perQuery.get(query) ?? [];
      list.push(w);
      perQuery.set(query, list);
    }
  }
  const slowest = [...perQuery].map(([query, times]) => ({ query, medianMs: +median(times).toFixed(2) })).sort((a, b) => b.medianMs - a.medianMs).slice(0, 5);
  const out = { notes: count, chunks: index.chunkCount, queries: wall.length, medianMs: median(wall), p95Ms: p95(wall), medianCpuMs: median(cpu), p95CpuMs: p95(cpu), load: loadavg()[0], slowest };
  process.stdout.write(`${JSON.stringify(out)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

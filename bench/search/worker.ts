/**
 * One target indexing a generated vault, in a fresh Node process started with --expose-gc (so heap
 * figures are this target's alone). argv: <target name> <notes> ; prints one JSON GeneratedRun.
 */
import { EVAL_TARGETS } from '../../src/core/search/evalTargets';
import type { VaultReader } from '../../src/core/ports/vault';
import { median, p95 } from '../lib/stats';
import { generateVault, MemoryVault } from './generateVault';

export interface GeneratedRun {
  readonly target: string;
  readonly notes: number;
  readonly bytes: number;
  readonly buildMs: number;
  /** Heap in use before the build (the generated vault's text included), after a full GC. */
  readonly heapBeforeMiB: number;
  /** Highest heap in use seen during the build (sampled on every 50th read and every 5 ms), vault included. */
  readonly peakHeapMiB: number;
  /** What the built search keeps: heap after the build and a full GC, minus heapBefore. */
  readonly retainedHeapMiB: number;
  /** Peak resident set size of the whole process (generation included). */
  readonly maxRssMiB: number;
  readonly queries: number;
  readonly queryMedianMs: number;
  readonly queryP95Ms: number;
}

const MiB = 1024 * 1024;

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('the search bench worker needs node --expose-gc');
  collect();
}

/** The vault, sampling the heap as the search reads it. */
class SampledVault implements VaultReader {
  peak = 0;
  private reads = 0;
  constructor(private readonly inner: VaultReader) {}
  sample(): void {
    this.peak = Math.max(this.peak, process.memoryUsage().heapUsed);
  }
  read(notePath: string): Promise<string | null> {
    if (++this.reads % 50 === 0) this.sample();
    return this.inner.read(notePath);
  }
  listMarkdown(): Promise<string[]> {
    return this.inner.listMarkdown();
  }
}

async function main(): Promise<void> {
  const [name, countText] = process.argv.slice(2);
  const target = EVAL_TARGETS.find((t) => t.name === name);
  if (!target) throw new Error(`unknown target ${name}`);
  const count = Number(countText);
  const generated = generateVault(count);
  const vault = new SampledVault(new MemoryVault(generated.notes));
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  vault.sample();
  const timer = setInterval(() => vault.sample(), 5);
  const started = performance.now();
  const search = await target.create(vault);
  const buildMs = performance.now() - started;
  clearInterval(timer);
  vault.sample();
  gc();
  const retained = process.memoryUsage().heapUsed - heapBefore;
  const times: number[] = [];
  for (const query of generated.queries) {
    const t0 = performance.now();
    await search.search(query, { k: 10 });
    times.push(performance.now() - t0);
  }
  const run: GeneratedRun = {
    target: name,
    notes: generated.notes.size,
    bytes: generated.bytes,
    buildMs,
    heapBeforeMiB: heapBefore / MiB,
    peakHeapMiB: vault.peak / MiB,
    retainedHeapMiB: retained / MiB,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    queries: times.length,
    queryMedianMs: median(times),
    queryP95Ms: p95(times),
  };
  process.stdout.write(`${JSON.stringify(run)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

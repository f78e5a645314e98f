/**
 * The related-notes figure (issue 33): a generated vault indexed by VaultIndex, then the related
 * notes of many of its notes in turn, as the view asks on each note switch (relatedNotes.ts: the
 * note's query, the index, its links; no embeddings). The note's text is given, as the view has it
 * from Obsidian's cache. Runs in its own process:
 *   node --import tsx bench/search/related.ts [notes] [switches]   → one JSON RelatedRun
 */
import { relatedNotes } from '../../src/core/search/relatedNotes';
import { VaultIndex } from '../../src/core/search/vaultIndex';
import { median, p95 } from '../lib/stats';
import { generateVault, MemoryVault } from './generateVault';

export interface RelatedRun {
  readonly notes: number;
  readonly buildMs: number;
  readonly switches: number;
  readonly medianMs: number;
  readonly p95Ms: number;
  readonly maxMs: number;
  /** CPU time of the process per switch (user + system), median: what a switch costs on a busy machine, where wall time waits for other processes. */
  readonly cpuMedianMs: number;
  readonly cpuP95Ms: number;
  /** Mean notes listed per switch, and mean of them found through links. */
  readonly listed: number;
  readonly linked: number;
  /** The target per switch (issue 33). */
  readonly targetMs: 20;
}

export async function measureRelated(count: number, switches: number): Promise<RelatedRun> {
  const generated = generateVault(count);
  const started = performance.now();
  const index = await VaultIndex.create(new MemoryVault(generated.notes), {}, { pause: () => Promise.resolve(), yieldEvery: 1000 });
  const buildMs = performance.now() - started;
  const paths = index.paths();
  const step = Math.max(1, Math.floor(paths.length / switches));
  const times: number[] = [];
  const cpu: number[] = [];
  let listed = 0;
  let linked = 0;
  // A few switches first, so the timed ones see a warm index (the view's first one is not a switch).
  for (const path of paths.slice(0, 5)) await relatedNotes(index, path, generated.notes.get(path) ?? '');
  for (let i = 0; i < paths.length && times.length < switches; i += step) {
    const path = paths[i];
    const text = generated.notes.get(path) ?? '';
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const related = await relatedNotes(index, path, text);
    times.push(performance.now() - t0);
    const c = process.cpuUsage(c0);
    cpu.push((c.user + c.system) / 1000);
    listed += related.length;
    linked += related.filter((r) => r.link !== null).length;
  }
  return {
    notes: paths.length,
    buildMs,
    switches: times.length,
    medianMs: median(times),
    p95Ms: p95(times),
    maxMs: Math.max(...times),
    cpuMedianMs: median(cpu),
    cpuP95Ms: p95(cpu),
    listed: listed / times.length,
    linked: linked / times.length,
    targetMs: 20,
  };
}

if (require.main === module) {
  const [notes = '25000', switches = '200'] = process.argv.slice(2);
  measureRelated(Number(notes), Number(switches))
    .then((run) => process.stdout.write(`${JSON.stringify(run)}\n`))
    .catch((error: unknown) => {
      process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    });
}

/**
 * The vault index at scale, as the plugin runs it (src/obsidian/searchIndex.ts): the same slices
 * (12 ms by the monotonic clock, a pause every 50 notes) and a macrotask pause between them, over a
 * generated vault of N notes. Runs in its own Node process (node --expose-gc); argv: <notes>.
 * Prints one JSON ScaleRun. Long tasks are the gaps between two pauses: the longest is the longest
 * time the index held the main thread.
 */
import { loadavg } from 'node:os';
import type { NoteStat, VaultReader } from '../../src/core/ports/vault';
import { VaultIndex } from '../../src/core/search/vaultIndex';
import { median, p95 } from '../lib/stats';
import { generateVault } from './generateVault';

export interface Slices {
  /** Longest run between two pauses, ms (wall: other processes' load lengthens it). */
  readonly longestMs: number;
  /** The same run's CPU time (this process, all threads): what the slice cost without other load. */
  readonly longestCpuMs: number;
  /** Runs over 50 ms. */
  readonly over50: number;
  readonly pauses: number;
}

export interface ScaleRun {
  readonly notes: number;
  readonly bytes: number;
  readonly chunks: number;
  /** Full build from nothing: wall time, and this process's CPU time (other load on the machine shows in the first only). */
  readonly buildMs: number;
  readonly buildCpuMs: number;
  readonly buildSlices: Slices;
  readonly savedMB: number;
  readonly saveMs: number;
  readonly saveCpuMs: number;
  readonly saveSlices: Slices;
  /** A restart: restore the saved index, then a build that catches up on `changed` notes changed while closed. */
  readonly changed: number;
  readonly catchUpMs: number;
  readonly catchUpCpuMs: number;
  readonly catchUpSlices: Slices;
  /** Of the restart: the restore alone (searches answer from here on), wall and CPU. Absent in older results, as the memory figures below. */
  readonly restoreMs?: number;
  readonly restoreCpuMs?: number;
  /** One edited note re-indexed (update()), over `edits` notes of median size or above. */
  readonly edits: number;
  readonly editMedianMs: number;
  readonly editMaxMs: number;
  readonly editMaxCpuMs: number;
  readonly queries: number;
  readonly queryMedianMs: number;
  readonly queryP95Ms: number;
  readonly queryMedianCpuMs: number;
  readonly queryP95CpuMs: number;
  /** The machine's 1-minute load average when the run ended (2 cores: above 2, wall times are stretched). */
  readonly load: number;
  /** Heap in use after the build and a full GC, the generated vault's text excluded. */
  readonly retainedHeapMiB: number;
  /** Highest heap in use seen at the pauses of the build, vault text included. */
  readonly peakHeapMiB: number;
  readonly maxRssMiB: number;
  /** Typed arrays' buffers (outside the heap: the postings) after the build and a full GC. */
  readonly retainedArrayBuffersMiB?: number;
  /** What the restarted index holds after its catch-up and a full GC: heap, typed arrays' buffers (a difference, as retainedHeapMiB). */
  readonly restartHeapMiB?: number;
  readonly restartArrayBuffersMiB?: number;
}

const MiB = 1024 * 1024;
const SLICE_MS = 12;
const BATCH = 50;

function gc(): void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) throw new Error('the scale bench needs node --expose-gc');
  collect();
}

/** A full GC, then another once V8 has freed the dead typed arrays' buffers (it does so after the GC, off the main thread). */
async function settle(): Promise<void> {
  gc();
  await new Promise((resolve) => setTimeout(resolve, 100));
  gc();
}

/** A vault in memory with stats, whose notes can change while "the app is closed". */
class StatVault implements VaultReader {
  private readonly stats = new Map<string, NoteStat>();
  constructor(readonly notes: Map<string, string>) {
    for (const [path, text] of notes) this.stats.set(path, { mtime: 1_700_000_000_000, size: text.length });
  }
  read(path: string): Promise<string | null> {
    return Promise.resolve(this.notes.get(path) ?? null);
  }
  listMarkdown(): Promise<string[]> {
    return Promise.resolve([...this.notes.keys()].sort());
  }
  stat(path: string): Promise<NoteStat | null> {
    return Promise.resolve(this.stats.get(path) ?? null);
  }
  /** As Obsidian's reader answers it, from the TFile in memory. */
  statNow(path: string): NoteStat | null {
    return this.stats.get(path) ?? null;
  }
  change(path: string, text: string, mtime: number): void {
    this.notes.set(path, text);
    this.stats.set(path, { mtime, size: text.length });
  }
}

const cpuMs = (since: ReturnType<typeof process.cpuUsage>): number => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

/** A pause like the plugin's (a macrotask), recording the time between pauses. */
class PauseRecorder {
  private last = performance.now();
  private lastCpu = process.cpuUsage();
  private longest = 0;
  private longestCpu = 0;
  private over = 0;
  private count = 0;
  onPause: () => void = () => undefined;

  readonly pause = (): Promise<void> => {
    const ran = performance.now() - this.last;
    this.longest = Math.max(this.longest, ran);
    this.longestCpu = Math.max(this.longestCpu, cpuMs(this.lastCpu));
    if (ran > 50) this.over++;
    this.count++;
    this.onPause();
    return new Promise<void>((resolve) =>
      setImmediate(() => {
        this.last = performance.now();
        this.lastCpu = process.cpuUsage();
        resolve();
      }),
    );
  };

  /** The figures since the last start(), counting the run up to now as a last slice. */
  finish(): Slices {
    const ran = performance.now() - this.last;
    this.longest = Math.max(this.longest, ran);
    this.longestCpu = Math.max(this.longestCpu, cpuMs(this.lastCpu));
    if (ran > 50) this.over++;
    return { longestMs: this.longest, longestCpuMs: this.longestCpu, over50: this.over, pauses: this.count };
  }

  start(): void {
    this.last = performance.now();
    this.lastCpu = process.cpuUsage();
    this.longest = 0;
    this.longestCpu = 0;
    this.over = 0;
    this.count = 0;
  }
}

async function main(): Promise<void> {
  const count = Number(process.argv[2]);
  const generated = generateVault(count);
  const vault = new StatVault(new Map(generated.notes));
  const recorder = new PauseRecorder();
  const options = { sliceMs: SLICE_MS, yieldEvery: BATCH, now: () => performance.now(), pause: recorder.pause };
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  let peak = heapBefore;
  recorder.onPause = () => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
  };

  // A first start: everything is built.
  const index = new VaultIndex(vault);
  recorder.start();
  const cpu = process.cpuUsage();
  const started = performance.now();
  await index.build(options);
  const buildMs = performance.now() - started;
  const buildCpuMs = cpuMs(cpu);
  const buildSlices = recorder.finish();
  recorder.onPause = () => undefined;
  gc();
  const retainedHeapMiB = (process.memoryUsage().heapUsed - heapBefore) / MiB;
  const retainedArrayBuffersMiB = process.memoryUsage().arrayBuffers / MiB;

  const queryTimes: number[] = [];
  const queryCpu: number[] = [];
  for (let round = 0; round < 2; round++) {
    for (const query of generated.queries) {
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      await index.search(query, { k: 10 });
      queryCpu.push(cpuMs(c0));
      queryTimes.push(performance.now() - t0);
    }
  }

  // Edits: notes of median size or more, each re-indexed as the plugin does on 'modify'.
  const paths = [...vault.notes.keys()].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const sizes = paths.map((p) => vault.notes.get(p)!.length).sort((a, b) => a - b);
  const medianSize = sizes[Math.floor(sizes.length / 2)];
  const editable = paths.filter((p) => vault.notes.get(p)!.length >= medianSize);
  const editTimes: number[] = [];
  const editCpu: number[] = [];
  for (let i = 0; i < 20; i++) {
    const path = editable[Math.floor((i * editable.length) / 20)];
    const text = `${vault.notes.get(path)!}\nAn edit: the greenhouse vents open at noon (${i}).\n`;
    vault.change(path, text, 1_700_000_100_000 + i);
    const t0 = performance.now();
    const c0 = process.cpuUsage();
    await index.update(path, text, await vault.stat(path), options);
    editCpu.push(cpuMs(c0));
    editTimes.push(performance.now() - t0);
  }

  recorder.start();
  const saveStarted = performance.now();
  const saveCpu = process.cpuUsage();
  const saved = await index.serialize(options);
  const saveMs = performance.now() - saveStarted;
  const saveCpuMs = cpuMs(saveCpu);
  const saveSlices = recorder.finish();

  // Closed, 100 notes changed meanwhile; the next start restores and catches up.
  const changed = 100;
  for (let i = 0; i < changed; i++) {
    const path = paths[Math.floor((i * paths.length) / changed) + 1];
    vault.change(path, `${vault.notes.get(path)!}\nChanged while Obsidian was closed (${i}).\n`, 1_700_000_200_000 + i);
  }
  await settle();
  const beforeRestart = process.memoryUsage();
  const restarted = new VaultIndex(vault);
  recorder.start();
  const catchUpStarted = performance.now();
  const catchUpCpu = process.cpuUsage();
  const report = await restarted.restoreReportAsync(saved, options);
  if (report !== 'restored') throw new Error(`the saved index was not restored: ${report}`);
  const restoreMs = performance.now() - catchUpStarted;
  const restoreCpuMs = cpuMs(catchUpCpu);
  const caught = await restarted.build(options);
  const catchUpMs = performance.now() - catchUpStarted;
  const catchUpCpuMs = cpuMs(catchUpCpu);
  const catchUpSlices = recorder.finish();
  if (caught.indexed !== changed) throw new Error(`catch-up re-indexed ${caught.indexed} notes, not ${changed}`);
  await settle();
  const memory = process.memoryUsage();

  const run: ScaleRun = {
    notes: vault.notes.size,
    bytes: generated.bytes,
    chunks: index.chunkCount,
    buildMs,
    buildCpuMs,
    buildSlices,
    savedMB: Buffer.byteLength(saved) / 1e6,
    saveMs,
    saveCpuMs,
    saveSlices,
    changed,
    catchUpMs,
    catchUpCpuMs,
    catchUpSlices,
    restoreMs,
    restoreCpuMs,
    edits: editTimes.length,
    editMedianMs: median(editTimes),
    editMaxMs: Math.max(...editTimes),
    editMaxCpuMs: Math.max(...editCpu),
    queries: queryTimes.length,
    queryMedianMs: median(queryTimes),
    queryP95Ms: p95(queryTimes),
    queryMedianCpuMs: median(queryCpu),
    queryP95CpuMs: p95(queryCpu),
    load: loadavg()[0],
    retainedHeapMiB,
    peakHeapMiB: peak / MiB,
    maxRssMiB: process.resourceUsage().maxRSS / 1024,
    retainedArrayBuffersMiB,
    restartHeapMiB: (memory.heapUsed - beforeRestart.heapUsed) / MiB,
    restartArrayBuffersMiB: (memory.arrayBuffers - beforeRestart.arrayBuffers) / MiB,
  };
  process.stdout.write(`${JSON.stringify(run)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

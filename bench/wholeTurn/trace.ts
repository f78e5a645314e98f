/**
 * Where a fresh chat's early turns go, against its late ones (issue 30's turn 10 against turn 50):
 *   node --expose-gc --import tsx bench/wholeTurn/trace.ts [chats=20] [--profile] [--interval=100]
 *        [--early=4-10] [--calls] [--turns] [--each]
 * Plays the warm-up chat, then `chats` short chats of 50 turns as the whole-turn section does (its own
 * notes each, from a collected heap, no checkpoint), and prints the figures the report prints.
 *   --profile  the V8 CPU profiler samples the short chats; only the samples inside the timed windows
 *              (Enter → provider call) of the early band (--early, default turns 4–10) and of turns
 *              44–50 count: self and total time per function per turn in each, largest differences first.
 *   --calls    the vault's and the chat store's calls that start inside those windows, per turn.
 *   --turns    each turn's median over the chats; --each: each chat's medians.
 */
import { Session } from 'node:inspector/promises';
import { FsChatStore } from '../../src/node/fsChatStore';
import { FsVault } from '../../src/node/fsVault';
import { median } from '../lib/stats';
import { shortChatsLine } from '../report/wholeTurn';
import { shortChatsOf } from './section';
import { CachedVault } from './vault';
import { runWholeTurn, shortChatTurns, type ShortChatTurns, type WholeTurnOptions, type WholeTurnRun } from './worker';

type Band = 'early' | 'late';
interface Window {
  readonly band: Band;
  /** performance.now(), ms. */
  readonly from: number;
  readonly to: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;
const [earlyFrom, earlyTo] = option('early', '4-10').split('-').map(Number);
const bandOf = (turn: number): Band | null => (turn >= earlyFrom && turn <= earlyTo ? 'early' : turn >= 44 && turn <= 50 ? 'late' : null);
const gc = (globalThis as { gc?: () => void }).gc;
const out = (line: string) => process.stdout.write(`${line}\n`);

/** Calls of the probed methods: when each started and settled (performance.now()). */
const calls: { label: string; from: number; to: number }[] = [];

/** Wraps a prototype's method so its calls (and how long their promises take to settle) are recorded. */
function probe(proto: object, name: string, label: string): void {
  const target = proto as Record<string, (...a: unknown[]) => unknown>;
  const inner = target[name];
  target[name] = function (this: unknown, ...a: unknown[]) {
    const from = performance.now();
    const result = inner.apply(this, a);
    const done = () => void calls.push({ label, from, to: performance.now() });
    if (result instanceof Promise) void result.then(done, done);
    else done();
    return result;
  };
}

function frameName(node: ProfileNode): string {
  const { functionName, url } = node.callFrame;
  const file = url ? url.split('/').slice(-2).join('/') : '(native)';
  const name = functionName || '(anonymous)';
  return `${name.length > 60 ? `${name.slice(0, 59)}…` : name} ${file}`;
}

const perTurn = (windows: readonly Window[], band: Band) => Math.max(1, windows.filter((w) => w.band === band).length);

/** Self and total (inclusive) time per function inside each band's windows, per turn. */
function profileReport(p: Profile, windows: readonly Window[], offsetMs: number): void {
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  // The profile's clock is CLOCK_MONOTONIC in µs, performance.now()'s the same clock from another origin.
  const ws = windows.map((w) => ({ band: w.band, from: (w.from + offsetMs) * 1000, to: (w.to + offsetMs) * 1000 })).sort((a, b) => a.from - b.from);
  const self = new Map<string, Record<Band, number>>();
  const total = new Map<string, Record<Band, number>>();
  const sampled: Record<Band, number> = { early: 0, late: 0 };
  const add = (map: Map<string, Record<Band, number>>, key: string, band: Band, us: number) => {
    const row = map.get(key) ?? { early: 0, late: 0 };
    row[band] += us;
    map.set(key, row);
  };
  let t = p.startTime;
  let w = 0;
  p.samples.forEach((id, i) => {
    t += p.timeDeltas[i];
    while (w < ws.length && ws[w].to < t) w++;
    const leaf = byId.get(id);
    if (w >= ws.length || ws[w].from > t || !leaf) return;
    const { band } = ws[w];
    // A sample stands for the time since the one before.
    const us = p.timeDeltas[i];
    sampled[band] += us;
    add(self, frameName(leaf), band, us);
    const seen = new Set<string>();
    for (let n: number | undefined = id; n !== undefined; n = parent.get(n)) {
      const name = frameName(byId.get(n) as ProfileNode);
      if (!seen.has(name)) add(total, name, band, us);
      seen.add(name);
    }
  });
  const ms = (us: number, band: Band) => us / perTurn(windows, band) / 1000;
  const span = (band: Band) => windows.filter((x) => x.band === band).reduce((sum, x) => sum + x.to - x.from, 0) / perTurn(windows, band);
  out(`\nper turn: turns ${earlyFrom}–${earlyTo} ${span('early').toFixed(3)} ms (${ms(sampled.early, 'early').toFixed(3)} ms sampled), 44–50 ${span('late').toFixed(3)} ms (${ms(sampled.late, 'late').toFixed(3)} ms sampled)`);
  for (const [title, map, top, byDifference] of [
    ['self', self, 30, true],
    ['total', total, 40, true],
    ['total', total, 40, false],
  ] as const) {
    out(`\n${title} ms per turn: turns ${earlyFrom}–${earlyTo}, 44–50, difference (${byDifference ? 'largest differences' : `most time at ${earlyFrom}–${earlyTo}`} first)`);
    const rows = [...map.entries()].map(([name, row]) => ({ name, early: ms(row.early, 'early'), late: ms(row.late, 'late') }));
    rows.sort((a, b) => (byDifference ? Math.abs(b.early - b.late) - Math.abs(a.early - a.late) : b.early - a.early));
    for (const r of rows.slice(0, top)) out(`${r.early.toFixed(4).padStart(8)} ${r.late.toFixed(4).padStart(8)} ${(r.early - r.late).toFixed(4).padStart(8)}  ${r.name}`);
  }
}

/** The probed calls that start inside a window, per turn: how many, and how long until they settled. */
function callsReport(windows: readonly Window[]): void {
  const rows = new Map<string, Record<Band, { n: number; ms: number }>>();
  for (const c of calls) {
    const w = windows.find((x) => c.from >= x.from && c.from <= x.to);
    if (!w) continue;
    const row = rows.get(c.label) ?? { early: { n: 0, ms: 0 }, late: { n: 0, ms: 0 } };
    row[w.band].n++;
    row[w.band].ms += c.to - c.from;
    rows.set(c.label, row);
  }
  out(`calls per turn inside the windows (count, ms each until settled): turns ${earlyFrom}–${earlyTo} | 44–50`);
  const cell = (r: { n: number; ms: number }, band: Band) => `${(r.n / perTurn(windows, band)).toFixed(2)} ${(r.ms / Math.max(1, r.n)).toFixed(3)}`;
  for (const [label, row] of [...rows].sort()) out(`  ${label}: ${cell(row.early, 'early')} | ${cell(row.late, 'late')}`);
}

async function main(): Promise<void> {
  const chats = Number(args.find((a) => /^\d+$/.test(a)) ?? 20);
  const profile = args.includes('--profile');
  if (args.includes('--calls')) {
    probe(FsVault.prototype, 'stat', 'FsVault.stat (disk)');
    probe(FsVault.prototype, 'read', 'FsVault.read (disk)');
    for (const m of ['stat', 'statNow', 'read']) probe(CachedVault.prototype, m, `CachedVault.${m}`);
    for (const m of ['read', 'process', 'list', 'rename', 'exists', 'create', 'trash']) probe(FsChatStore.prototype, m, `FsChatStore.${m}`);
  }
  // The section's warm-up chat (bench/run.ts: 60 turns, a checkpoint at its end), then its short chats.
  const base: WholeTurnOptions = { vault: 'cached', notes: 60, firstNote: 1000, turns: 60, checkpoints: [60], window: 7, retries: 3, warmupTurns: 0 };
  await runWholeTurn(base);
  calls.length = 0;
  const offsetMs = Number(process.hrtime.bigint()) / 1e6 - performance.now();
  const session = new Session();
  if (profile) {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: Number(option('interval', '100')) });
    await session.post('Profiler.start');
  }
  const windows: Window[] = [];
  const runs: WholeTurnRun[] = [];
  const perChat: ShortChatTurns[] = [];
  for (let k = 0; k < chats; k++) {
    gc?.();
    const run = await runWholeTurn({ ...base, notes: 50, firstNote: 1060 + 50 * k, turns: 50, checkpoints: [], retries: 0 }, (turn, from, to) => {
      const band = bandOf(turn);
      if (band) windows.push({ band, from, to });
    });
    runs.push(run);
    perChat.push(shortChatTurns(run));
    const c = perChat[k];
    if (args.includes('--each')) out(`chat ${k + 1}: ${median(c.tenMs).toFixed(3)} / ${median(c.fiftyMs).toFixed(3)} ms, CPU ${median(c.tenCpuMs).toFixed(3)} / ${median(c.fiftyCpuMs).toFixed(3)} ms`);
  }
  const profiled = profile ? ((await session.post('Profiler.stop')) as { profile: Profile }).profile : null;
  if (profile) session.disconnect();
  const pooled = (pick: (c: ShortChatTurns) => readonly number[]) => perChat.flatMap(pick);
  const sc = shortChatsOf({ chats, perChat, tenMs: pooled((c) => c.tenMs), fiftyMs: pooled((c) => c.fiftyMs), tenCpuMs: pooled((c) => c.tenCpuMs), fiftyCpuMs: pooled((c) => c.fiftyCpuMs) });
  if (sc) out(shortChatsLine('cached', sc));
  if (args.includes('--turns')) {
    out('turn: median over the chats, wall and CPU (ms)');
    for (let i = 0; i < 50; i++) out(`  ${i + 1}: ${median(runs.map((r) => r.perTurnNextMs[i])).toFixed(3)} ${median(runs.map((r) => r.perTurnNextCpuMs?.[i] ?? NaN)).toFixed(3)}`);
  }
  if (args.includes('--calls')) callsReport(windows);
  if (profiled) profileReport(profiled, windows, offsetMs);
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});

/**
 * CPU time of the bench and everything it started (ms): this process, its children already waited for
 * (spawnSync workers, a closed Chromium with its renderers) and those still alive (esbuild's service,
 * an open browser). Wall time on a shared machine moves with the other users' load; CPU time much less,
 * so each section reports both. Linux reads /proc; elsewhere only this process is counted.
 */
import { readdirSync, readFileSync } from 'node:fs';

const TICK_MS = 10; // USER_HZ is 100 on Linux (getconf CLK_TCK)

export interface ProcStat {
  readonly ppid: number;
  /** utime + stime, in ticks. */
  readonly own: number;
  /** cutime + cstime: children it has waited for, in ticks. */
  readonly reaped: number;
}

/** Pure: the fields of a /proc/<pid>/stat line that matter here (the command name may hold spaces and parentheses). */
export function parseStat(line: string): ProcStat | null {
  const close = line.lastIndexOf(')');
  if (close < 0) return null;
  const f = line.slice(close + 2).split(' ');
  // After the name: state(0) ppid(1) … utime(11) stime(12) cutime(13) cstime(14).
  const n = (i: number) => Number(f[i]);
  const stat = { ppid: n(1), own: n(11) + n(12), reaped: n(13) + n(14) };
  return Number.isFinite(stat.own) && Number.isFinite(stat.reaped) ? stat : null;
}

function readStat(pid: number | 'self'): ProcStat | null {
  try {
    return parseStat(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return null; // gone, or not Linux
  }
}

/** Ticks of the live descendants of `root` (their own and their reaped children's). */
function liveDescendantTicks(root: number): number {
  let entries: string[];
  try {
    entries = readdirSync('/proc').filter((e) => /^\d+$/.test(e));
  } catch {
    return 0;
  }
  const children = new Map<number, { pid: number; ticks: number }[]>();
  for (const e of entries) {
    const s = readStat(Number(e));
    if (!s) continue;
    const list = children.get(s.ppid) ?? [];
    list.push({ pid: Number(e), ticks: s.own + s.reaped });
    children.set(s.ppid, list);
  }
  let total = 0;
  const queue = [root];
  while (queue.length > 0) {
    for (const c of children.get(queue.pop() as number) ?? []) {
      total += c.ticks;
      queue.push(c.pid);
    }
  }
  return total;
}

/** CPU milliseconds so far: this process (µs precision) plus its children, waited for and alive (10 ms ticks). */
export function cpuMsSoFar(): number {
  const own = process.cpuUsage();
  const reaped = readStat('self')?.reaped ?? 0;
  return (own.user + own.system) / 1000 + (reaped + liveDescendantTicks(process.pid)) * TICK_MS;
}

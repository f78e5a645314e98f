import { Session } from 'node:inspector/promises';

/** Self time of one function over a profiled section. */
export interface HotFunction {
  readonly name: string;
  /** file:line (1-based), file trimmed to its last two path parts. */
  readonly where: string;
  readonly selfMs: number;
  readonly share: number;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
export interface CpuProfile {
  nodes: ProfileNode[];
  samples?: number[];
  timeDeltas?: number[];
}

/** Long frame names (the tokenizer's RegExp) are cut so a report row stays readable. */
function shorten(name: string, max = 48): string {
  return name.length <= max ? name : `${name.slice(0, max - 1)}…`;
}

/** Pure: self time per function (summed over call sites), most expensive first. */
export function hotFunctions(profile: CpuProfile, top = 12): HotFunction[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<string, { name: string; where: string; us: number }>();
  let total = 0;
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  samples.forEach((id, i) => {
    const node = byNode.get(id);
    const us = deltas[i] ?? 0;
    if (!node) return;
    const { functionName, url, lineNumber } = node.callFrame;
    // Idle time, and the inspector's own protocol frame (where Profiler.stop builds the profile), are not the engine.
    if (functionName === '(idle)' || (functionName === 'dispatch' && url === '')) return;
    total += us;
    const file = url ? url.split('/').slice(-2).join('/') : '';
    // TypeScript runs transpiled (tsx), so its line numbers would not match the source: name the file only.
    const where = !file ? '(native)' : file.endsWith('.ts') ? file : `${file}:${lineNumber + 1}`;
    const name = shorten(functionName || '(anonymous)');
    const key = `${name}\u0000${where}`;
    const entry = selfUs.get(key) ?? { name, where, us: 0 };
    entry.us += us;
    selfUs.set(key, entry);
  });
  return [...selfUs.values()]
    .sort((a, b) => b.us - a.us || (a.where < b.where ? -1 : 1))
    .slice(0, top)
    .map((e) => ({ name: e.name, where: e.where, selfMs: e.us / 1000, share: total === 0 ? 0 : e.us / total }));
}

/** Runs `fn` under the V8 CPU profiler (as node --cpu-prof would) and returns its hottest functions. */
export async function profileSection(fn: () => void, top = 12): Promise<HotFunction[]> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: 100 });
    await session.post('Profiler.start');
    fn();
    const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
    return hotFunctions(profile, top);
  } finally {
    session.disconnect();
  }
}

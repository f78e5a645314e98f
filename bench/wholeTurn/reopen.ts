/**
 * Reopen alone, to profile and compare it (issue 30): plays one chat of `turns` turns once (as the
 * whole-turn worker does, cached vault), then reopens it `reopens` times on fresh controllers, each
 * followed by one send; prints the medians of wall and CPU time (process.cpuUsage, this thread and
 * the GC's) for open() and the first send, and the next request's before reopening.
 *   node --expose-gc --import tsx bench/wholeTurn/reopen.ts [turns=1000] [reopens=9] [--fresh]
 * As the plugin reopens (main.ts): a view's new controller over the plugin's one hub and archive,
 * after the view showing the chat closed (the chat left memory). `--fresh`: each reopen on a new hub
 * and archive as well (nothing of the session's reads known: the first open after a restart, in a
 * warm process).
 * Add `--cpu-prof --cpu-prof-dir=DIR` to node for a profile (the turns played before are in it too);
 * REOPEN_WINDOWS=<file> writes the open() calls' times in the profile's clock (to keep only their
 * samples), REOPEN_SEND_WINDOWS=<file> the first sends' (Enter → provider call), REOPEN_NEXT_WINDOWS=<file>
 * the last 20 played turns', REOPEN_KEEP=<dir> a copy of the vault and the chat note (a fresh process can open it).
 */
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatController } from '../../src/core/chat/chatController';
import { ChatHub } from '../../src/core/chat/chatHub';
import { ChatArchive } from '../../src/core/conversation/archive';
import { FsChatStore } from '../../src/node/fsChatStore';
import { FsVault } from '../../src/node/fsVault';
import { median } from '../lib/stats';
import { benchSettings, InstantProvider } from './provider';
import { CachedVault, writeVault } from './vault';

const gc = (globalThis as { gc?: () => void }).gc;
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const turns = Number(process.argv[2] ?? 1000);
  const reopens = Number(process.argv[3] ?? 9);
  const fresh = process.argv.includes('--fresh');
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-reopen-'));
  try {
    const paths = writeVault(path.join(dir, 'vault'), 1000);
    const vault = new CachedVault(new FsVault(path.join(dir, 'vault')));
    const provider = new InstantProvider();
    const settings = benchSettings();
    let clock = Date.UTC(2026, 0, 1, 9);
    const now = () => (clock += 1000);
    // Each new chat its own id: a view's fresh chat must not be taken for the one reopened.
    let ids = 0;
    const depsOf = () => ({ vault, archive: new ChatArchive(new FsChatStore(path.join(dir, 'chats')), { now }, settings.chatFolder), providers: () => provider, settings: () => settings, now, newId: () => `reopen-${++ids}` });
    const plugin = depsOf();
    const hub = new ChatHub(plugin);
    const controllerOf = () => {
      const c = fresh ? new ChatController(depsOf()) : new ChatController(plugin, hub);
      // As the view does (and the whole-turn worker): the state is read on every change.
      c.subscribe((change) => {
        if (change === 'state') void c.state;
      });
      return c;
    };
    const settle = async (c: ChatController) => {
      await c.flush();
      for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
      await c.flush();
    };
    const attached: number[] = [];
    let freshNote = 0;
    const send = async (c: ChatController, t: number): Promise<number> => {
      const index = t % 3 === 0 && attached.length > 0 ? attached[(t * 7) % attached.length] : freshNote++ % paths.length;
      if (!attached.includes(index)) attached.push(index);
      const start = performance.now();
      await c.send(`Question ${t}: what does ${paths[index]} say about the plan, and what should I do next?`, [{ kind: 'note', path: paths[index] }]);
      const ms = provider.calledAt - start;
      await settle(c);
      return ms;
    };
    let chat = controllerOf();
    const next: number[] = [];
    // The last 20 played turns' windows (Enter → provider call), as the first sends'.
    const nextWindows: [number, number][] = [];
    for (let t = 1; t <= turns; t++) {
      const sendStart = process.hrtime.bigint();
      const ms = await send(chat, t);
      if (t > turns - 7) next.push(ms);
      if (t > turns - 20) nextWindows.push([Number(sendStart / 1000n), Number(provider.calledAtNs / 1000n)]);
    }
    const id = chat.chatId;
    const open: number[] = [];
    const openCpu: number[] = [];
    const first: number[] = [];
    // The open() windows in the profile's clock (microseconds, monotonic): a profile reader keeps the samples inside them.
    const windows: [number, number][] = [];
    // The first sends' windows (Enter → provider call), the same way.
    const sendWindows: [number, number][] = [];
    let t = turns;
    for (let k = 0; k < reopens; k++) {
      // The view showing the chat closes: the chat leaves memory (the hub holds what views show).
      chat.detach();
      gc?.();
      chat = controllerOf();
      const [wall, cpu, mono] = [performance.now(), cpuMs(), process.hrtime.bigint()];
      await chat.open(id);
      windows.push([Number(mono / 1000n), Number(process.hrtime.bigint() / 1000n)]);
      open.push(performance.now() - wall);
      openCpu.push(cpuMs() - cpu);
      await settle(chat);
      const sendStart = process.hrtime.bigint();
      first.push(await send(chat, ++t));
      sendWindows.push([Number(sendStart / 1000n), Number(provider.calledAtNs / 1000n)]);
    }
    const f = (xs: number[]) => median(xs).toFixed(1);
    process.stdout.write(
      `${JSON.stringify({ turns, next: f(next), openWall: f(open), openCpu: f(openCpu), firstSend: f(first), ratio: ((median(open) + median(first)) / median(next)).toFixed(1), fresh, load: os.loadavg()[0].toFixed(1), open: open.map((x) => Math.round(x)) })}\n`,
    );
    if (process.env.REOPEN_KEEP) cpSync(dir, process.env.REOPEN_KEEP, { recursive: true });
    if (process.env.REOPEN_WINDOWS) writeFileSync(process.env.REOPEN_WINDOWS, JSON.stringify(windows));
    if (process.env.REOPEN_NEXT_WINDOWS) writeFileSync(process.env.REOPEN_NEXT_WINDOWS, JSON.stringify(nextWindows));
    if (process.env.REOPEN_SEND_WINDOWS) writeFileSync(process.env.REOPEN_SEND_WINDOWS, JSON.stringify(sendWindows));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

void main();

/**
 * Reopen in a fresh process (issue 30): opens the chat that reopen.ts kept (REOPEN_KEEP=<dir>) once,
 * through ChatArchive and openSavedChat as the controller does, on the kept vault; prints the wall
 * and CPU time (process.cpuUsage: this thread, the GC's and libuv's) of the module imports and of
 * the open, and the load average.
 *   REOPEN_KEEP=/tmp/keep node --expose-gc --import tsx bench/wholeTurn/reopen.ts 1000 9
 *   node --import tsx bench/wholeTurn/reopenFresh.ts /tmp/keep
 * Add `--cpu-prof --cpu-prof-interval 100` for a profile; REOPEN_WINDOW=<file> writes the open's
 * window in the profile's clock (microseconds), as reopen.ts's REOPEN_WINDOWS does.
 */
import { writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

async function main(): Promise<void> {
  const keep = process.argv[2];
  if (!keep) throw new Error('usage: reopenFresh.ts <the REOPEN_KEEP folder of a reopen.ts run>');
  const [w0, c0] = [performance.now(), cpuMs()];
  const { ChatArchive } = await import('../../src/core/conversation/archive');
  const { openSavedChat } = await import('../../src/core/chat/chatOpening');
  const { ChipResolver } = await import('../../src/core/context/resolver');
  const { FsChatStore } = await import('../../src/node/fsChatStore');
  const { FsVault } = await import('../../src/node/fsVault');
  const { benchSettings } = await import('./provider');
  const settings = benchSettings();
  const [w1, c1, m1] = [performance.now(), cpuMs(), process.hrtime.bigint()];
  const vault = new FsVault(path.join(keep, 'vault'));
  const archive = new ChatArchive(new FsChatStore(path.join(keep, 'chats')), { now: () => Date.UTC(2026, 0, 2) }, settings.chatFolder);
  // reopen.ts names its chat 'reopen'.
  const opened = await openSavedChat('reopen', { archive, vault, resolver: new ChipResolver(vault), settings });
  const [w2, c2, m2] = [performance.now(), cpuMs(), process.hrtime.bigint()];
  if (process.env.REOPEN_WINDOW) writeFileSync(process.env.REOPEN_WINDOW, JSON.stringify([[Number(m1 / 1000n), Number(m2 / 1000n)]]));
  const f = (ms: number) => Number(ms.toFixed(1));
  process.stdout.write(
    `${JSON.stringify({ importWall: f(w1 - w0), importCpu: f(c1 - c0), openWall: f(w2 - w1), openCpu: f(c2 - c1), turns: opened.chat.conversation.turns.length, warnings: opened.warnings.length, load: os.loadavg()[0].toFixed(1) })}\n`,
  );
}

void main();

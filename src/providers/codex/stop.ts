import type { CliSpawnOptions } from '../cli/process';

/** process.kill: a negative pid signals the whole process group. */
export type ProcessKill = (pid: number, signal: 'SIGTERM') => unknown;

interface Stoppable {
  readonly pid?: number;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: 'SIGTERM'): boolean;
}

interface StopDeps {
  readonly platform: string;
  /** Starts taskkill on Windows. */
  readonly spawn: (command: string, args: string[], options: CliSpawnOptions) => { on(event: 'error', listener: (error: Error) => void): unknown };
  readonly processKill?: ProcessKill;
}

/**
 * Stops a run and everything it started (Codex runs commands and helpers as child processes):
 * on Windows `taskkill /T` ends the tree; elsewhere the run leads its own process group (spawned
 * detached) and the group gets SIGTERM. Falls back to the process alone.
 */
export function killTree(child: Stoppable, deps: StopDeps): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const pid = child.pid;
  if (pid !== undefined) {
    try {
      if (deps.platform === 'win32') {
        deps.spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true }).on('error', () => child.kill('SIGTERM'));
        return;
      }
      // eslint-disable-next-line no-undef -- desktop only (a spawn exists): Node's process.kill
      const kill: ProcessKill = deps.processKill ?? ((id, signal) => process.kill(id, signal));
      kill(-pid, 'SIGTERM');
      return;
    } catch {
      // No group (not spawned detached, or already gone): stop the process itself.
    }
  }
  child.kill('SIGTERM');
}

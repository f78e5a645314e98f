import { addUsage, ZERO_USAGE, type Usage } from '../../core/usage';
import { parseCodexUsage } from './events';

/** The file operations the provider needs (node:fs/promises has them; injected: desktop only). */
export interface CodexFiles {
  readdir(path: string): Promise<string[]>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  stat(path: string): Promise<{ size: number }>;
  truncate(path: string, length: number): Promise<void>;
}

/** A thread id as `codex exec` prints it (a UUID). Anything else `resume` would take as a thread name. */
export const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Day folders looked at, newest first, before giving up (about five years of daily use). */
const MAX_DAY_FOLDERS = 2000;

const join = (...parts: string[]) => parts.join('/');

async function entries(files: CodexFiles, path: string): Promise<string[]> {
  try {
    return (await files.readdir(path)).sort().reverse();
  } catch {
    return [];
  }
}

/**
 * The rollout file of a thread: Codex keeps each thread in
 * `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl`, under the day it started.
 * Searched newest day first (a chat's thread is usually recent); null when not found.
 */
export async function findRollout(files: CodexFiles, home: string, threadId: string): Promise<string | null> {
  if (!THREAD_ID.test(threadId)) return null;
  const suffix = `-${threadId.toLowerCase()}.jsonl`;
  const root = join(home, 'sessions');
  let days = 0;
  for (const year of await entries(files, root)) {
    for (const month of await entries(files, join(root, year))) {
      for (const day of await entries(files, join(root, year, month))) {
        if (++days > MAX_DAY_FOLDERS) return null;
        const folder = join(root, year, month, day);
        const name = (await entries(files, folder)).find((n) => n.toLowerCase().endsWith(suffix));
        if (name) return join(folder, name);
      }
    }
  }
  return null;
}

/**
 * This run's usage from a rollout: the `last_token_usage` of every token_count event after the
 * last task_started (one per model request of the last turn), added up. `codex exec --json`
 * reports the thread's running total instead, which on a resumed thread counts earlier turns again.
 * Null when the rollout has no such turn.
 */
export function lastTurnUsage(rollout: string): Usage | null {
  let usage: Usage | null = null;
  for (const line of rollout.split('\n')) {
    // Only the two event kinds matter: skip the (large) history lines without parsing them.
    if (!line.includes('"task_started"') && !line.includes('"token_count"')) continue;
    let event: { type?: unknown; payload?: { type?: unknown; info?: { last_token_usage?: unknown } | null } };
    try {
      event = JSON.parse(line) as typeof event;
    } catch {
      continue;
    }
    if (event.type !== 'event_msg') continue;
    if (event.payload?.type === 'task_started') usage = ZERO_USAGE;
    else if (event.payload?.type === 'token_count' && usage && event.payload.info?.last_token_usage) {
      usage = addUsage(usage, parseCodexUsage(event.payload.info.last_token_usage));
    }
  }
  return usage;
}

/** This run's usage, read from the thread's rollout; null when it cannot be read. */
export async function runUsage(files: CodexFiles, home: string, threadId: string): Promise<Usage | null> {
  try {
    const path = await findRollout(files, home, threadId);
    return path ? lastTurnUsage(await files.readFile(path, 'utf8')) : null;
  } catch {
    return null;
  }
}

/** A thread's rollout as it was before a run: what a stopped or failed run is rolled back to. */
export interface RolloutMark {
  readonly path: string;
  readonly size: number;
}

/** Where a thread's rollout ends now; null when it cannot be found. */
export async function markRollout(files: CodexFiles, home: string, threadId: string): Promise<RolloutMark | null> {
  try {
    const path = await findRollout(files, home, threadId);
    return path ? { path, size: (await files.stat(path)).size } : null;
  } catch {
    return null;
  }
}

/**
 * Undo what a stopped or failed run appended to its thread. Codex writes the user's message to the
 * rollout as the turn starts, so without this a retry would put the same message in the thread a
 * second time (once unanswered); the rollout is append-only JSONL, so cutting it back restores the
 * thread as it was. Called only once the run's process has exited.
 */
export async function rollBack(files: CodexFiles, mark: RolloutMark): Promise<boolean> {
  try {
    if ((await files.stat(mark.path)).size > mark.size) await files.truncate(mark.path, mark.size);
    return true;
  } catch {
    return false;
  }
}

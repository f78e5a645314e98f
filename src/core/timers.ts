/**
 * Timer functions for plugin code that also runs under Node (tests, scripts). In Obsidian they are
 * the window's (popout-safe); under Node, the global ones.
 */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

function defaultTimers(): Timers {
  const host: { setTimeout: typeof setTimeout; clearTimeout: typeof clearTimeout } =
    typeof window !== 'undefined' ? window : { setTimeout, clearTimeout };
  return {
    setTimeout: (fn, ms) => host.setTimeout(fn, ms),
    clearTimeout: (handle) => host.clearTimeout(handle as ReturnType<typeof setTimeout>),
  };
}

export const DEFAULT_TIMERS: Timers = defaultTimers();

/** Waits `ms`, or rejects with the signal's reason as soon as the signal aborts. */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export function makeSleep(timers: Timers = DEFAULT_TIMERS): Sleep {
  return (ms, signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason as Error);
        return;
      }
      const onAbort = (): void => {
        timers.clearTimeout(handle);
        reject(signal?.reason as Error);
      };
      const handle = timers.setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}

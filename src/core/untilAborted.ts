/**
 * `work`, or a rejection with `reason()` as soon as `signal` aborts: for work that cannot be
 * cancelled itself (Obsidian's requestUrl, a host's slow search), so a stop never waits on it.
 */
export function untilAborted<T>(work: Promise<T>, signal: AbortSignal, reason: () => Error): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = (): void => reject(reason());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

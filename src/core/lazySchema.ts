/**
 * A schema built on first use instead of when its module is evaluated. zod builds every schema
 * object, with its checks and closures, as soon as it is declared: the chat note's and the plan
 * records' schemas took tens of milliseconds of every plugin load, though a chat note is read only
 * when one is opened. The thunk builds once and gives back the same object every time (the strict
 * reader and zod key their caches by the schema object).
 */
export function lazySchema<T>(build: () => T): () => T {
  let built: T | undefined;
  return () => (built ??= build());
}

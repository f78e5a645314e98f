/**
 * The value made for `key` on first use, then found: the engine's and the codec's memo for things
 * derived from immutable objects (a turn's record, an item's entry, a library's notes).
 */
export function madeOnce<K extends object, V>(cache: WeakMap<K, V>, key: K, make: (key: K) => V): V {
  let value = cache.get(key);
  if (value === undefined) {
    value = make(key);
    cache.set(key, value);
  }
  return value;
}

/**
 * Values by a string key (a chat id) for the few keys used lately: made on first use, the least
 * recently used dropped past `max`, so what a chat keeps between saves does not outlive it.
 */
export class RecentByKey<T> {
  private readonly byKey = new Map<string, T>();

  constructor(
    private readonly make: () => T,
    private readonly max = 4,
  ) {}

  for(key: string): T {
    let entry = this.byKey.get(key);
    if (entry) this.byKey.delete(key);
    else entry = this.make();
    this.byKey.set(key, entry);
    if (this.byKey.size > this.max) this.byKey.delete(this.byKey.keys().next().value as string);
    return entry;
  }
}

/**
 * A Map filled on its first read: js-tiktoken's own maps (comma-joined keys, and rank → bytes) are
 * read only by js-tiktoken's encode and decode, which counting does not call (linearBpe.ts reads
 * the byte table), so the first count does not build 200,000 more keys and arrays.
 */
export class LazyMap<K, V> extends Map<K, V> {
  private pending: (() => void) | null;
  constructor(fill: (map: Map<K, V>) => void) {
    super();
    this.pending = () => fill(this);
  }
  private ready(): void {
    const fill = this.pending;
    this.pending = null;
    fill?.();
  }
  override get(key: K): V | undefined {
    this.ready();
    return super.get(key);
  }
  override has(key: K): boolean {
    this.ready();
    return super.has(key);
  }
  override get size(): number {
    this.ready();
    return super.size;
  }
  override forEach(callback: (value: V, key: K, map: Map<K, V>) => void): void {
    this.ready();
    super.forEach(callback);
  }
  override entries(): MapIterator<[K, V]> {
    this.ready();
    return super.entries();
  }
  override keys(): MapIterator<K> {
    this.ready();
    return super.keys();
  }
  override values(): MapIterator<V> {
    this.ready();
    return super.values();
  }
  override [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries();
  }
}

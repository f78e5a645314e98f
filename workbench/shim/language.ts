/**
 * The additions Obsidian makes to JavaScript's own objects (Array#remove, Array#first, Math.clamp,
 * String#contains…). No DOM here, so the shim's Vault and file tree, which use them, also run in Node
 * (workbench/shim/node.ts); dom.ts installs them with the DOM helpers in the page.
 */

/** Defines a non-enumerable method (like Obsidian does) unless the platform already has one. */
export function def(target: object, name: string, value: unknown, override = true): void {
  if (!override && name in target) return;
  Object.defineProperty(target, name, { value, configurable: true, writable: true, enumerable: false });
}

let installed = false;

export function installLanguageHelpers(): void {
  if (installed) return;
  installed = true;
  const A = Array.prototype as unknown as Record<string, unknown>;
  def(A, 'first', function (this: unknown[]) { return this[0]; });
  def(A, 'last', function (this: unknown[]) { return this[this.length - 1]; });
  def(A, 'contains', function (this: unknown[], target: unknown) { return this.includes(target); });
  def(A, 'remove', function (this: unknown[], target: unknown) {
    const i = this.indexOf(target);
    if (i >= 0) this.splice(i, 1);
  });
  def(A, 'unique', function (this: unknown[]) { return Array.from(new Set(this)); });
  def(A, 'shuffle', function (this: unknown[]) { return this; });
  def(Array, 'combine', function (arrays: unknown[][]) { return ([] as unknown[]).concat(...arrays); });
  def(Math, 'clamp', function (value: number, min: number, max: number) { return Math.min(max, Math.max(min, value)); });
  def(Math, 'square', function (value: number) { return value * value; });
  def(String, 'isString', function (obj: unknown) { return typeof obj === 'string'; });
  def(String.prototype, 'contains', function (this: string, target: string) { return this.includes(target); });
  def(String.prototype, 'format', function (this: string, ...args: string[]) {
    return this.replace(/\{(\d+)\}/g, (m, i: string) => args[Number(i)] ?? m);
  });
  def(Number, 'isNumber', function (obj: unknown) { return typeof obj === 'number'; });
  def(Object, 'isEmpty', function (obj: Record<string, unknown>) { return Object.keys(obj).length === 0; });
  def(Object, 'each', function (obj: Record<string, unknown>, cb: (value: unknown, key?: string) => boolean | void) {
    for (const [k, v] of Object.entries(obj)) if (cb(v, k) === false) return false;
    return true;
  });
}

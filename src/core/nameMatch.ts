/**
 * Model-name lookups shared by the context-window and price tables: the longest table key that
 * occurs in the (lower-cased) name wins, so "gpt-4o-mini" beats "gpt-4o" whatever the table order.
 */
export function longestSubstringMatch<T>(name: string, table: Readonly<Record<string, T>>): T | undefined {
  let best: string | undefined;
  for (const key of Object.keys(table)) {
    if (name.includes(key) && (best === undefined || key.length > best.length)) best = key;
  }
  return best === undefined ? undefined : table[best];
}

/** A copy with lower-cased keys (user overrides are matched case-insensitively), in sorted key order. */
export function lowerKeys<T>(record: Readonly<Record<string, T>>): Record<string, T> {
  const out: Record<string, T> = {};
  for (const key of Object.keys(record).sort()) out[key.toLowerCase()] = record[key];
  return out;
}

/**
 * The index terms a query term reaches by prefix or by a few typos (MiniSearch's atPrefix and
 * fuzzyGet, without its radix tree). Terms are looked up in buckets by their first and last three
 * letters: a longer term that starts with the query term shares its first three, and a term one
 * edit away from a query term of 6 letters or more shares its first three (the edit is later) or its
 * last three (the edit is earlier). Other cases scan every term.
 */

/**
 * [term id, edits] pairs: prefix matches (longer terms that start with `term`) first with edits -1,
 * then terms within `distance` edits (not already prefix matches), with their edit distance. The
 * term itself is never included.
 */
export function similarTerms(
  term: string,
  prefix: boolean,
  distance: number,
  heads: ReadonlyMap<string, readonly number[]>,
  tails: ReadonlyMap<string, readonly number[]>,
  texts: readonly string[],
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  const prefixed = new Set<number>();
  if (prefix) {
    const scan = (id: number): void => {
      const text = texts[id];
      if (text.length > term.length && text.startsWith(term)) {
        out.push([id, -1]);
        prefixed.add(id);
      }
    };
    if (term.length >= 3) for (const id of heads.get(term.slice(0, 3)) ?? []) scan(id);
    else for (let id = 0; id < texts.length; id++) scan(id);
  }
  if (distance > 0) {
    const check = (id: number): void => {
      if (prefixed.has(id)) return;
      const text = texts[id];
      if (Math.abs(text.length - term.length) > distance || text === term) return;
      const edits = editDistance(term, text, distance);
      if (edits <= distance) out.push([id, edits]);
    };
    if (distance === 1 && term.length >= 6) {
      const seen = new Set<number>();
      for (const list of [heads.get(term.slice(0, 3)), tails.get(term.slice(-3))]) {
        for (const id of list ?? []) {
          if (seen.has(id)) continue;
          seen.add(id);
          check(id);
        }
      }
    } else for (let id = 0; id < texts.length; id++) check(id);
  }
  return out;
}

/** Levenshtein distance of a and b, or max + 1 as soon as it is known to be over `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (max === 1) return withinOne(a, b) ? (a === b ? 0 : 1) : 2;
  const m = a.length;
  const n = b.length;
  if (Math.abs(m - n) > max) return max + 1;
  let previous = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const row = [i];
    let best = i;
    for (let j = 1; j <= n; j++) {
      const cost = a.charCodeAt(i - 1) === b.charCodeAt(j - 1) ? 0 : 1;
      const value = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost);
      row.push(value);
      if (value < best) best = value;
    }
    if (best > max) return max + 1;
    previous = row;
  }
  return previous[n] > max ? max + 1 : previous[n];
}

/** One insertion, deletion or substitution at most. */
function withinOne(a: string, b: string): boolean {
  if (a.length < b.length) [a, b] = [b, a];
  if (a.length - b.length > 1) return false;
  let i = 0;
  while (i < b.length && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  if (i === b.length) return true;
  // a and b differ at i: skip one character of a (deletion) or of both (substitution).
  return a.length === b.length ? a.slice(i + 1) === b.slice(i + 1) : a.slice(i + 1) === b.slice(i);
}

/** Obsidian's fuzzy and simple search, with results as [start, end) match ranges. */
export interface SearchResult {
  score: number;
  matches: [number, number][];
}

export interface FuzzyMatch<T> {
  item: T;
  match: SearchResult;
}

export function prepareFuzzySearch(query: string): (text: string) => SearchResult | null {
  const q = query.toLowerCase().replace(/\s+/g, '');
  return (text: string) => {
    if (!q) return { score: 0, matches: [] };
    const t = text.toLowerCase();
    const matches: [number, number][] = [];
    let qi = 0;
    let score = 0;
    let last = -1;
    for (let i = 0; i < t.length && qi < q.length; i++) {
      if (t[i] !== q[qi]) continue;
      // Contiguous runs and matches at word starts score higher, gaps cost.
      if (last === i - 1 && matches.length) matches[matches.length - 1][1] = i + 1;
      else matches.push([i, i + 1]);
      score -= last < 0 ? i * 0.1 : (i - last - 1) * 0.5;
      if (i === 0 || /[\s/_\-.]/.test(t[i - 1])) score += 1;
      last = i;
      qi++;
    }
    return qi === q.length ? { score, matches } : null;
  };
}

export function prepareSimpleSearch(query: string): (text: string) => SearchResult | null {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean);
  return (text: string) => {
    const t = text.toLowerCase();
    const matches: [number, number][] = [];
    for (const w of words) {
      const i = t.indexOf(w);
      if (i < 0) return null;
      matches.push([i, i + w.length]);
    }
    matches.sort((a, b) => a[0] - b[0]);
    return { score: -matches.length, matches };
  };
}

export function renderMatches(el: HTMLElement | DocumentFragment, text: string, matches: [number, number][] | null, offset = 0): void {
  let at = 0;
  for (const [s0, e0] of matches ?? []) {
    const s = s0 + offset;
    const e = e0 + offset;
    if (s < at || s >= text.length) continue;
    if (s > at) el.appendChild(document.createTextNode(text.slice(at, s)));
    el.appendChild(createSpan({ cls: 'suggestion-highlight', text: text.slice(s, e) }));
    at = e;
  }
  if (at < text.length) el.appendChild(document.createTextNode(text.slice(at)));
}

export function renderResults(el: HTMLElement, text: string, result: SearchResult, offset?: number): void {
  renderMatches(el, text, result.matches, offset);
}

export function sortSearchResults(results: { match: SearchResult }[]): void {
  results.sort((a, b) => b.match.score - a.match.score);
}

export function fuzzySearch(q: (text: string) => SearchResult | null, text: string): SearchResult | null {
  return q(text);
}

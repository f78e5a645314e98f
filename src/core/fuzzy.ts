/**
 * Subsequence fuzzy match, case-insensitive. Higher is better; null when the query is not a
 * subsequence. A query of several words ("Lesson 4", "green plan") matches a target holding each
 * word, in order: a name with spaces is found whole (a contiguous match ranks first), and words
 * typed on after a mention rarely match by accident as scattered letters would.
 */
export function fuzzyScore(query: string, target: string): number | null {
  const q = query.toLowerCase().trim();
  if (!q) return 0;
  const t = target.toLowerCase();
  const direct = t.indexOf(q);
  if (direct >= 0) {
    // Contiguous matches win; a match at a word start or at the file name beats one in the middle.
    const atStart = direct === 0 || /[\s/_\-.#]/.test(t[direct - 1]);
    return 1000 - direct + (atStart ? 500 : 0) - t.length / 100;
  }
  const words = q.split(/\s+/);
  if (words.length > 1) return wordsInOrder(words, t);
  let score = 0;
  let ti = 0;
  let run = 0;
  for (const ch of q) {
    const found = t.indexOf(ch, ti);
    if (found < 0) return null;
    run = found === ti ? run + 1 : 0;
    score += 10 + run * 5 - Math.min(found - ti, 10);
    ti = found + 1;
  }
  return score - t.length / 100;
}

function wordsInOrder(words: readonly string[], t: string): number | null {
  let score = 0;
  let ti = 0;
  for (const word of words) {
    const found = t.indexOf(word, ti);
    if (found < 0) return null;
    const atStart = found === 0 || /[\s/_\-.#]/.test(t[found - 1]);
    score += 10 * word.length + (atStart ? 20 : 0) - Math.min(found - ti, 10);
    ti = found + word.length;
  }
  return score - t.length / 100;
}

export interface Candidate<T> {
  readonly item: T;
  /** Text matched against (e.g. a path). */
  readonly text: string;
}

/** The best matches, best first; ties keep the input order (deterministic). */
export function fuzzyFilter<T>(query: string, candidates: readonly Candidate<T>[], limit = 20): T[] {
  const scored: { item: T; score: number; index: number }[] = [];
  candidates.forEach((c, index) => {
    const score = fuzzyScore(query, c.text);
    if (score !== null) scored.push({ item: c.item, score, index });
  });
  scored.sort((a, b) => b.score - a.score || a.index - b.index);
  return scored.slice(0, limit).map((s) => s.item);
}

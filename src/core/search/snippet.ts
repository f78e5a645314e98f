import { processTerm, tokenizeWithOffsets } from './text';

/**
 * A short extract of `text` around the densest spot of matched terms: the window of about `width`
 * characters that holds the most distinct matched terms (the first such window on a tie), cut at
 * word boundaries, whitespace collapsed, '…' where text was left out.
 */
export function makeSnippet(text: string, matched: ReadonlySet<string>, width = 180): string {
  const words = tokenizeWithOffsets(text);
  const hits: typeof words = [];
  const hitTerms: string[] = [];
  for (const w of words) {
    const term = processTerm(w.word);
    if (term === null || !matched.has(term)) continue;
    hits.push(w);
    hitTerms.push(term);
  }
  let from = 0;
  if (hits.length > 0) {
    let best = -1;
    for (let i = 0; i < hits.length; i++) {
      const seen = new Set<string>();
      for (let j = i; j < hits.length && hits[j].end - hits[i].start <= width; j++) seen.add(hitTerms[j]);
      if (seen.size > best) {
        best = seen.size;
        from = hits[i].start;
      }
    }
    // A little context before the first match, from a word start.
    const lead = Math.max(0, from - Math.floor(width / 4));
    const before = words.find((w) => w.start >= lead);
    from = before && before.start < from ? before.start : from;
  }
  let to = Math.min(text.length, from + width);
  if (to < text.length) {
    const last = words.filter((w) => w.end <= to).pop();
    if (last && last.end > from) to = last.end;
  }
  const extract = text.slice(from, to).replace(/\s+/g, ' ').trim();
  return `${from > 0 ? '…' : ''}${extract}${to < text.length ? '…' : ''}`;
}

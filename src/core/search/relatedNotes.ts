import { chunkNote } from './chunk';
import { processTerm, tokenize } from './text';

/**
 * The notes most related to one note (the related-notes view): the search index queried with what
 * the note is about (its name, aliases, headings, tags and most frequent words, not its whole body,
 * which would make every query as long as the note), links weighed in (a note linked either way is
 * related even with no word in common), and the semantic ranking when one is configured.
 */

/** What related notes are found from: the vault index (VaultIndex), or a stand-in in tests. */
export interface RelatedSource {
  /** Notes for a query, best first, `exclude` left out (VaultIndex.rankNotes). */
  rankNotes(query: string, n: number, exclude?: string): Array<{ path: string; score: number }>;
  readonly links: { outgoing(path: string): string[]; incoming(path: string): string[] };
  /** Chunk ids by meaning, and the note of a chunk id (VaultIndex's semantic ranker), when configured. */
  readonly semanticRanker?: { rank(query: string, n: number, accept: (id: number) => boolean, signal?: AbortSignal): Promise<number[]> } | null;
  pathOf?(id: number): string | null;
  /** Chunks an index term occurs in (VaultIndex.chunkFrequency), to prefer a note's rarer words; null when unknown. */
  chunkFrequency?(term: string): number | null;
  readonly chunkCount?: number;
}

export interface RelatedNote {
  readonly path: string;
  /** Higher is more related; comparable within one list only. */
  readonly score: number;
  /** 'to': the note links to it; 'from': it links to the note; 'both'; null: found by its words or meaning. */
  readonly link: 'to' | 'from' | 'both' | null;
}

export interface RelatedOptions {
  /** How many notes (default 15). */
  readonly k?: number;
  /** Words in the query (default 10). */
  readonly words?: number;
  readonly signal?: AbortSignal;
}

/** A linked note's share, against 1 for the note with the most words in common. */
export const LINK_WEIGHT = 0.5;
/** The semantic ranking's share for its first note (falling linearly down its list). */
export const SEMANTIC_WEIGHT = 0.5;
/** Headings taken at most (a long note's table of contents would drown its words). */
const MAX_HEADINGS = 8;
/**
 * The query's words together may be in at most this many chunks: a query's cost is the chunks its
 * words are in, so the note switch stays cheap on a big vault, where common words are in thousands.
 */
const CHUNK_BUDGET = 1000;
/** In a small vault a tenth of the chunks is a handful: a word is common only past this many. */
const COMMON_FLOOR = 20;
/** Words (most used first) whose rarity is looked up. */
const CANDIDATE_WORDS = 60;
/** A word of the name, aliases, headings or tags counts as this many uses in the body. */
const NAME_WEIGHT = 3;

/**
 * The query a note stands for: its most telling words. A word counts once per use in the body and
 * NAME_WEIGHT times in the name, aliases, headings and tags (what the note says it is about); when
 * `rarity` is given (chunks per term), a word also weighs by how rare it is in the vault (tf × idf),
 * one in more than a tenth of the chunks (and more than COMMON_FLOOR) is left out (so "see" or
 * "use" do not pull in half the vault), and words are taken best first while the chunks they are in fit CHUNK_BUDGET. At most
 * `words` words.
 */
export function relatedQuery(path: string, text: string, words = 10, rarity?: { frequency(term: string): number | null; chunks: number }): string {
  const note = chunkNote(path, text);
  const headings = [...new Set(note.chunks.flatMap((c) => c.headings))].slice(0, MAX_HEADINGS);
  // Count stems, keep the first word seen for each (the index processes the query's words itself).
  const counts = new Map<string, { word: string; count: number; first: number }>();
  let order = 0;
  const count = (source: string, weight: number): void => {
    for (const word of tokenize(source)) {
      if (word.length < 3 || /^\d+$/.test(word)) continue;
      const term = processTerm(word);
      if (term === null) continue;
      const entry = counts.get(term);
      if (entry) entry.count += weight;
      else counts.set(term, { word, count: weight, first: order++ });
    }
  };
  count([note.title, ...note.aliases, ...headings, ...note.tags].join('\n'), NAME_WEIGHT);
  let lastEnd = 0;
  for (const chunk of note.chunks) {
    if (chunk.startLine <= lastEnd) continue; // An overlapping piece repeats lines: counted once.
    lastEnd = chunk.endLine;
    count(chunk.body, 1);
  }
  // Rarity is looked up for the most used words only: a note's hundreds of one-off words cost lookups and rarely make the cut.
  const candidates = [...counts].sort(([, a], [, b]) => b.count - a.count || a.first - b.first).slice(0, CANDIDATE_WORDS);
  const weighted = candidates.map(([term, e]) => {
    const df = rarity ? rarity.frequency(term) : null;
    const idf = df === null || rarity === undefined ? 1 : df > Math.max(rarity.chunks / 10, COMMON_FLOOR) ? 0 : Math.log(1 + rarity.chunks / (1 + df));
    return { ...e, df: df ?? 0, weight: e.count * idf };
  });
  const picked: string[] = [];
  let spent = 0;
  for (const e of weighted.filter((w) => w.weight > 0).sort((a, b) => b.weight - a.weight || a.first - b.first)) {
    if (picked.length >= words) break;
    if (spent + e.df > CHUNK_BUDGET) continue;
    spent += e.df;
    picked.push(e.word);
  }
  return picked.join(' ');
}

/** The notes related to `path` (whose text is `text`), most related first; ties by path. */
export async function relatedNotes(source: RelatedSource, path: string, text: string, options: RelatedOptions = {}): Promise<RelatedNote[]> {
  const k = options.k ?? 15;
  if (k <= 0) return [];
  const frequency = source.chunkFrequency?.bind(source);
  const rarity = frequency && source.chunkCount ? { frequency, chunks: source.chunkCount } : undefined;
  const query = relatedQuery(path, text, options.words, rarity);
  const scores = new Map<string, number>();
  const lexical = source.rankNotes(query, 2 * k, path);
  const top = lexical[0]?.score ?? 0;
  for (const hit of lexical) scores.set(hit.path, top > 0 ? hit.score / top : 0);
  const to = new Set(source.links.outgoing(path));
  const from = new Set(source.links.incoming(path));
  for (const linked of new Set([...to, ...from])) if (linked !== path) scores.set(linked, (scores.get(linked) ?? 0) + LINK_WEIGHT);
  const ranker = source.semanticRanker;
  if (ranker && source.pathOf) {
    const ids = await ranker.rank(query, 4 * k, () => true, options.signal);
    const notes = [...new Set(ids.map((id) => source.pathOf?.(id) ?? null).filter((p): p is string => p !== null && p !== path))];
    notes.forEach((p, i) => scores.set(p, (scores.get(p) ?? 0) + SEMANTIC_WEIGHT * (1 - i / notes.length)));
  }
  return [...scores]
    .sort(([pa, a], [pb, b]) => b - a || (pa < pb ? -1 : pa > pb ? 1 : 0))
    .slice(0, k)
    .map(([p, score]) => ({ path: p, score: Math.round(score * 1e6) / 1e6, link: to.has(p) ? (from.has(p) ? 'both' : 'to') : from.has(p) ? 'from' : null }));
}

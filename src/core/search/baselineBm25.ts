import { UnreadableNoteError } from '../context/vaultReader';
import type { VaultReader } from '../ports/vault';
import type { SearchHit, SearchOptions, VaultSearch } from './types';

/**
 * The evaluation's baseline (issue 13): a plain BM25 over whole notes, one hit per note. It is what
 * the real search is measured against, so it stays deliberately plain: the note's file name and
 * its whole text (frontmatter included) as one field, lower-cased, split on anything that is not a
 * letter or a digit, a short English stop-word list, no stemming, no diacritic folding, no
 * segmenter for Thai/CJK, no chunks. Deterministic: ties are broken by path.
 */

export interface Bm25Params {
  /** Term-frequency saturation. */
  readonly k1: number;
  /** Length normalisation (0: none, 1: full). */
  readonly b: number;
}

export const DEFAULT_BM25: Bm25Params = { k1: 1.2, b: 0.75 };

const STOP_WORDS = new Set(
  ('a an and are as at be but by can do does for from how i if in into is it its me my of on or so ' +
    'that the their them then there these they this to was what when where which who why will with ' +
    'you your').split(' '),
);

const SNIPPET_CHARS = 160;

/** The baseline's tokens: lower-cased runs of letters and digits, stop words dropped. */
export function bm25Tokens(text: string): string[] {
  const out: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
    if (!STOP_WORDS.has(match[0])) out.push(match[0]);
  }
  return out;
}

interface Doc {
  readonly path: string;
  readonly text: string;
  readonly length: number;
  readonly lines: number;
}

interface Posting {
  readonly doc: number;
  readonly tf: number;
}

export class BaselineBm25 implements VaultSearch {
  private constructor(
    private readonly docs: readonly Doc[],
    private readonly postings: ReadonlyMap<string, readonly Posting[]>,
    private readonly averageLength: number,
    private readonly params: Bm25Params,
  ) {}

  /** Reads every note of the vault once; notes the reader refuses (binary, too large) are left out. */
  static async build(vault: VaultReader, params: Bm25Params = DEFAULT_BM25): Promise<BaselineBm25> {
    const docs: Doc[] = [];
    const postings = new Map<string, Posting[]>();
    let totalLength = 0;
    for (const path of await vault.listMarkdown()) {
      let text: string | null;
      try {
        text = await vault.read(path);
      } catch (error) {
        if (error instanceof UnreadableNoteError) continue;
        throw error;
      }
      if (text === null) continue;
      const tokens = bm25Tokens(`${noteName(path)}\n${text}`);
      const counts = new Map<string, number>();
      for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
      const doc = docs.length;
      for (const [term, tf] of counts) {
        let list = postings.get(term);
        if (!list) postings.set(term, (list = []));
        list.push({ doc, tf });
      }
      docs.push({ path, text, length: tokens.length, lines: text.split('\n').length });
      totalLength += tokens.length;
    }
    return new BaselineBm25(docs, postings, docs.length > 0 ? totalLength / docs.length : 0, params);
  }

  /** Notes indexed. */
  get size(): number {
    return this.docs.length;
  }

  search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    try {
      options.signal?.throwIfAborted();
      return Promise.resolve(this.rank(query, options));
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private rank(query: string, options: SearchOptions): SearchHit[] {
    const k = options.k ?? 10;
    const terms = [...new Set(bm25Tokens(query))];
    const n = this.docs.length;
    const scores = new Map<number, number>();
    const { k1, b } = this.params;
    for (const term of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const { doc, tf } of list) {
        const norm = 1 - b + (b * this.docs[doc].length) / (this.averageLength || 1);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (k1 + 1)) / (tf + k1 * norm));
      }
    }
    const ranked = [...scores]
      .sort(([da, sa], [db, sb]) => sb - sa || compareCodePoints(this.docs[da].path, this.docs[db].path))
      .slice(0, Math.max(0, k));
    return ranked.map(([doc, score]) => this.hit(this.docs[doc], score, terms));
  }

  private hit(doc: Doc, score: number, terms: readonly string[]): SearchHit {
    return {
      path: doc.path,
      headings: [],
      heading: '',
      startLine: 1,
      endLine: doc.lines,
      text: doc.text,
      snippet: snippetOf(doc.text, terms),
      score,
    };
  }
}

/** The first line that holds a query term, cut to a short extract around the term. */
function snippetOf(text: string, terms: readonly string[]): string {
  const wanted = new Set(terms);
  for (const line of text.split('\n')) {
    for (const match of line.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)) {
      if (!wanted.has(match[0])) continue;
      const start = Math.max(0, (match.index ?? 0) - SNIPPET_CHARS / 4);
      const cut = line.slice(start, start + SNIPPET_CHARS).trim();
      return `${start > 0 ? '…' : ''}${cut}${start + SNIPPET_CHARS < line.length ? '…' : ''}`;
    }
  }
  return text.slice(0, SNIPPET_CHARS).trim();
}

function noteName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1).replace(/\.md$/i, '');
}

function compareCodePoints(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

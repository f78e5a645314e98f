/**
 * The vault search's contract (issue 13): what the search core gives, and what Vault QA, the
 * evaluation and the `search` CLI consume. Results are chunks: a note split by headings.
 */

/** One ranked chunk of a note. */
export interface SearchHit {
  /** Vault-relative path of the note. */
  readonly path: string;
  /** The chunk's heading path, outermost first (empty for text before the first heading). */
  readonly headings: readonly string[];
  /** The innermost heading ('' for text before the first heading): what a citation links to. */
  readonly heading: string;
  /** 1-based line range of the chunk in the note. */
  readonly startLine: number;
  readonly endLine: number;
  /** The chunk's text as it is in the note (what Vault QA sends). */
  readonly text: string;
  /** A short extract around the best match, for lists. */
  readonly snippet: string;
  /** Higher is better; comparable within one result list only. */
  readonly score: number;
}

export interface SearchOptions {
  /** How many hits to return (default 10). */
  readonly k?: number;
  /** At most this many hits from one note (default: no limit). */
  readonly perNote?: number;
  readonly signal?: AbortSignal;
}

/** A search over one vault. Deterministic: the same index and query give the same list, ties broken by path then line. */
export interface VaultSearch {
  search(query: string, options?: SearchOptions): Promise<SearchHit[]>;
}

import type { Usage } from '../../usage';

/* A Vault QA turn's search as the chat keeps it, beside the chat model which holds it; src/core/vaultQa makes it. */

/** One numbered source of a localSearch block: what a citation `[n]` points to (n = index + 1). */
export interface SearchSource {
  readonly path: string;
  /** The innermost heading ('' for text before the first heading). */
  readonly heading: string;
}

/**
 * How the turn's search query was made. 'rewritten': the summary model wrote a standalone query;
 * 'cached': the same message after the same conversation was rewritten before (no new call);
 * 'failed': the call failed or timed out and the user's message was searched as it is.
 */
export const REWRITE_STATUSES = ['rewritten', 'cached', 'failed'] as const;
export type RewriteStatus = (typeof REWRITE_STATUSES)[number];

export interface QueryRewrite {
  readonly status: RewriteStatus;
  /** Cache key: a hash of the message and the conversation before it (a reopened chat's cache is seeded from it). */
  readonly key: string;
  /** Why it failed ('failed' only). */
  readonly detail?: string;
  /** The call ('rewritten', and 'failed' when the provider answered): who made it, what it used, what it cost. */
  readonly provider?: string;
  readonly model?: string;
  readonly usage?: Usage;
  /** USD; null when the model has no known price. */
  readonly cost?: number | null;
}

/** A Vault QA turn's search: the query run, the sources the block numbered, and the rewrite (from the second turn). */
export interface TurnSearch {
  readonly query: string;
  readonly sources: readonly SearchSource[];
  readonly rewrite?: QueryRewrite;
}

import type { VaultReader } from '../ports/vault';
import { BaselineBm25 } from './baselineBm25';
import type { VaultSearch } from './types';
import { VaultIndex } from './vaultIndex';

/**
 * The searches the evaluation (`npm run search-eval`), the corpus test and the bench measure, in
 * report order. The real search registers here as `strata` (one line); the corpus test holds it
 * to the quality target.
 */
export interface EvalTarget {
  readonly name: string;
  readonly description: string;
  /** Builds the target's search over one vault (reads what it needs through the port). */
  create(vault: VaultReader): Promise<VaultSearch>;
}

/** The name the corpus test holds to the quality target. */
export const STRATA_TARGET = 'strata';

export const EVAL_TARGETS: readonly EvalTarget[] = [
  { name: 'bm25-baseline', description: 'plain BM25 over whole notes (one hit per note)', create: (vault) => BaselineBm25.build(vault) },
  { name: STRATA_TARGET, description: 'chunked term index (VaultIndex)', create: (vault) => VaultIndex.create(vault) },
];

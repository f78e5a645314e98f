import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { EvalTarget } from '../core/search/evalTargets';
import type { TargetEvaluation } from '../core/search/evalFormat';
import { evaluateSearch, parseEvalSet, type EvalQuestion } from '../core/search/evaluate';
import type { VaultSearch } from '../core/search/types';
import { FsVault } from './fsVault';

/** The evaluation set in the repository (questions over ../shared/corpus). */
export const QUESTIONS_FILE = path.resolve(__dirname, '..', '..', 'bench', 'search-eval', 'questions.json');
/** Questions written without running any search, to check that ranking changes tuned on the main set generalise. */
export const HELD_OUT_FILE = path.resolve(__dirname, '..', '..', 'bench', 'search-eval', 'heldout.json');
/** The shared corpus beside the checkout. */
export const CORPUS_DIR = path.resolve(__dirname, '..', '..', '..', 'shared', 'corpus');

export function loadEvalSet(file: string = QUESTIONS_FILE): EvalQuestion[] {
  return parseEvalSet(JSON.parse(readFileSync(file, 'utf8')) as unknown);
}

/**
 * Builds each target's search over every vault the questions name (folders of `corpus`), timing
 * each build, and evaluates it. Targets run one after the other so build times do not overlap.
 */
export async function runSearchEval(questions: readonly EvalQuestion[], targets: readonly EvalTarget[], corpus: string = CORPUS_DIR): Promise<TargetEvaluation[]> {
  const vaults = [...new Set(questions.map((q) => q.vault))];
  const runs: TargetEvaluation[] = [];
  for (const target of targets) {
    const searches = new Map<string, VaultSearch>();
    const buildMs: Record<string, number> = {};
    for (const vault of vaults) {
      const started = performance.now();
      searches.set(vault, await target.create(new FsVault(path.join(corpus, vault))));
      buildMs[vault] = performance.now() - started;
    }
    runs.push({ target: target.name, report: await evaluateSearch(questions, searches), buildMs });
  }
  return runs;
}

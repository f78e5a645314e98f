/**
 * The search evaluation (issue 13): every target of src/core/search/evalTargets.ts over the shared
 * corpus, on the questions of bench/search-eval/questions.json. Prints recall@1, recall@5 and MRR
 * per target and vault, and the misses.
 * Usage: npm run --silent search-eval [-- --format table|json] [--target NAME] [--corpus DIR] [--questions FILE]
 */
import { existsSync } from 'node:fs';
import { EVAL_TARGETS } from '../src/core/search/evalTargets';
import { formatEvalTable } from '../src/core/search/evalFormat';
import { CORPUS_DIR, QUESTIONS_FILE, loadEvalSet, runSearchEval } from '../src/node/searchEval';
import { SEMANTIC_OPTIONS, SEMANTIC_USAGE, semanticOptions, semanticTarget } from '../src/node/semanticOptions';
import { parseArgs } from './args';

const USAGE = `usage: search-eval [--format table|json] [--target NAME] [--corpus DIR] [--questions FILE] ${SEMANTIC_USAGE}`;

class UsageError extends Error {}

async function main(argv: string[]): Promise<void> {
  let args;
  let semantic;
  try {
    args = parseArgs(argv, ['format', 'target', 'corpus', 'questions', ...SEMANTIC_OPTIONS], []);
    semantic = semanticOptions(args.options);
  } catch (error) {
    throw new UsageError(`${error instanceof Error ? error.message : String(error)}\n${USAGE}`);
  }
  if (args.positional.length > 0) throw new UsageError(USAGE);
  const format = args.options.format ?? 'table';
  if (format !== 'table' && format !== 'json') throw new UsageError(`--format must be table or json\n${USAGE}`);
  const corpus = args.options.corpus ?? CORPUS_DIR;
  if (!existsSync(corpus)) throw new UsageError(`no corpus at ${corpus} (the shared corpus beside the checkout, or --corpus DIR)`);
  const wanted = args.options.target;
  // With an embedding endpoint, the index with semantic search is measured too.
  const all = semantic ? [...EVAL_TARGETS, semanticTarget(semantic)] : EVAL_TARGETS;
  const targets = wanted === undefined ? all : all.filter((t) => t.name === wanted);
  if (targets.length === 0) throw new UsageError(`unknown target "${wanted}"; known: ${all.map((t) => t.name).join(', ')}`);
  const runs = await runSearchEval(loadEvalSet(args.options.questions ?? QUESTIONS_FILE), targets, corpus);
  if (format === 'json') {
    const json = runs.map((r) => ({ target: r.target, buildMs: r.buildMs, overall: r.report.overall, vaults: r.report.vaults, misses: r.report.misses }));
    process.stdout.write(`${JSON.stringify(json, null, 2)}\n`);
  } else process.stdout.write(formatEvalTable(runs));
}

main(process.argv.slice(2)).catch((error: unknown) => {
  process.stderr.write(`search-eval: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = error instanceof UsageError ? 2 : 1;
});

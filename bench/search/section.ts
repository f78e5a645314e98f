import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { EVAL_TARGETS } from '../../src/core/search/evalTargets';
import type { EvalFigures } from '../../src/core/search/evaluate';
import { FsVault } from '../../src/node/fsVault';
import { loadEvalSet, runSearchEval } from '../../src/node/searchEval';
import type { ScaleRun } from './scale';
import type { GeneratedRun } from './worker';
import type { RelatedRun } from './related';

export interface SearchQuality {
  readonly target: string;
  readonly description: string;
  readonly overall: EvalFigures;
  readonly buildMs: number;
  readonly vaults: readonly { readonly vault: string; readonly notes: number; readonly figures: EvalFigures; readonly buildMs: number }[];
}

export interface SearchBench {
  readonly questions: number;
  readonly quality: readonly SearchQuality[];
  /** One generated vault indexed by each target, each in its own process. */
  readonly generated: readonly GeneratedRun[];
  /** The held-out questions (bench/search-eval/heldout.json), checked after every ranking change. */
  readonly heldOut?: { readonly questions: number; readonly quality: readonly SearchQuality[] };
  /** Related notes: the time of a note switch on a generated vault (related.ts). */
  readonly related?: RelatedRun;
  /** The vault index as the plugin runs it (slices, saved index, catch-up, edits), per vault size. Absent in older results. */
  readonly scale?: readonly ScaleRun[];
}

/**
 * The search section: every target of src/core/search/evalTargets.ts on the evaluation set over
 * the shared corpus (recall, MRR, build time per vault), then a generated vault of `notes` notes
 * per target (build time, heap, query time). Reported, not asserted.
 */
export async function measureSearch(root: string, notes: number, progress: (message: string) => void, scaleSizes: readonly number[] = [notes]): Promise<SearchBench> {
  const corpus = path.resolve(root, '..', 'shared', 'corpus');
  const questions = loadEvalSet(path.join(root, 'bench', 'search-eval', 'questions.json'));
  const runs = await runSearchEval(questions, EVAL_TARGETS, corpus);
  const counts = new Map<string, number>();
  for (const vault of new Set(questions.map((q) => q.vault))) {
    counts.set(vault, (await new FsVault(path.join(corpus, vault)).listMarkdown()).length);
  }
  const quality = qualityOf(runs, counts);
  const heldOutQuestions = loadEvalSet(path.join(root, 'bench', 'search-eval', 'heldout.json'));
  const heldOut = { questions: heldOutQuestions.length, quality: qualityOf(await runSearchEval(heldOutQuestions, EVAL_TARGETS, corpus), counts) };
  const { generated, related, scale } = await measureSearchGenerated(root, notes, progress, scaleSizes);
  return { questions: questions.length, quality, generated, heldOut, related, scale };
}

function qualityOf(runs: Awaited<ReturnType<typeof runSearchEval>>, counts: ReadonlyMap<string, number>): SearchQuality[] {
  return runs.map((run) => ({
    target: run.target,
    description: EVAL_TARGETS.find((t) => t.name === run.target)?.description ?? '',
    overall: run.report.overall,
    buildMs: Object.values(run.buildMs).reduce((a, b) => a + b, 0),
    vaults: run.report.vaults.map((v) => ({ vault: v.vault, notes: counts.get(v.vault) ?? 0, figures: v.figures, buildMs: run.buildMs[v.vault] ?? 0 })),
  }));
}

async function measureSearchGenerated(root: string, notes: number, progress: (message: string) => void, scaleSizes: readonly number[]): Promise<{ generated: GeneratedRun[]; related: RelatedRun; scale: ScaleRun[] }> {
  const generated: GeneratedRun[] = [];
  for (const target of EVAL_TARGETS) {
    progress(`search: ${target.name} indexing a generated ${notes.toLocaleString('en-US')}-note vault, in a child process…`);
    const worker = path.join(root, 'bench', 'search', 'worker.ts');
    const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', worker, target.name, String(notes)], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`search worker for ${target.name} failed (${result.status}): ${result.stderr.trim()}`);
    generated.push(JSON.parse(result.stdout) as GeneratedRun);
  }
  // Related notes at the scale on a long run (25,000 notes), else on the run's vault size.
  const relatedCount = Math.max(notes, ...scaleSizes) >= 10_000 ? 25_000 : notes;
  progress(`search: related notes on a generated ${relatedCount.toLocaleString('en-US')}-note vault, in a child process…`);
  const related = spawnSync(process.execPath, ['--import', 'tsx', path.join(root, 'bench', 'search', 'related.ts'), String(relatedCount), '200'], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
  if (related.status !== 0) throw new Error(`related-notes bench failed (${related.status}): ${related.stderr.trim()}`);
  const scale: ScaleRun[] = [];
  for (const size of scaleSizes) {
    progress(`search: the plugin's index at scale, a generated ${size.toLocaleString('en-US')}-note vault, in a child process…`);
    const script = path.join(root, 'bench', 'search', 'scale.ts');
    const result = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', script, String(size)], { cwd: root, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 });
    if (result.status !== 0) throw new Error(`search scale run at ${size} notes failed (${result.status}): ${result.stderr.trim()}`);
    scale.push(JSON.parse(result.stdout) as ScaleRun);
  }
  return { generated, related: JSON.parse(related.stdout) as RelatedRun, scale };
}

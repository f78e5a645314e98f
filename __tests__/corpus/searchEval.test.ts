import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { EVAL_TARGETS, STRATA_TARGET } from '../../src/core/search/evalTargets';
import type { TargetEvaluation } from '../../src/core/search/evalFormat';
import type { EvalFigures } from '../../src/core/search/evaluate';
import { HELD_OUT_FILE, loadEvalSet, runSearchEval } from '../../src/node/searchEval';
import { CORPUS } from '../helpers/paths';

/**
 * The search evaluation in CI (issue 13): every target of evalTargets.ts over the shared corpus.
 * The real search ('strata') must find the expected note in its top 5 for at least 85 % of the
 * questions; the baseline is deterministic, so its figures are held exactly (a change to the set,
 * the runner or the baseline shows here).
 */

const QUALITY_TARGET = 0.85;
const questions = loadEvalSet();
const strata = EVAL_TARGETS.find((t) => t.name === STRATA_TARGET);

let runs: TargetEvaluation[] = [];
beforeAll(async () => {
  runs = await runSearchEval(questions, EVAL_TARGETS, CORPUS);
}, 300_000);

const run = (name: string) => {
  const found = runs.find((r) => r.target === name);
  if (!found) throw new Error(`no evaluation for ${name}`);
  return found;
};
const counts = (f: EvalFigures) => [f.questions, f.foundAt1, f.foundAt5, Number(f.mrr.toFixed(4))];

describe('the search evaluation set', () => {
  it('labels notes that exist, and headings that the first expected note has', () => {
    for (const q of questions) {
      for (const p of q.expected) expect([q.id, existsSync(path.join(CORPUS, q.vault, p))]).toEqual([q.id, true]);
      if (q.heading === undefined) continue;
      const headings = readFileSync(path.join(CORPUS, q.vault, q.expected[0]), 'utf8')
        .split('\n')
        .filter((l) => /^#{1,6} /.test(l))
        .map((l) => l.replace(/^#{1,6} /, '').trim());
      expect([q.id, headings.includes(q.heading)]).toEqual([q.id, true]);
    }
  });
});

describe('the whole-note BM25 baseline', () => {
  it('scores exactly its recorded figures (questions, found at 1, found at 5, MRR), overall and per vault', () => {
    const { report } = run('bm25-baseline');
    expect(counts(report.overall)).toEqual([84, 46, 68, 0.6674]);
    expect(report.vaults.map((v) => [v.vault, ...counts(v.figures)])).toEqual([
      ['kepano', 20, 15, 18, 0.8333],
      ['tasks-docs', 42, 17, 32, 0.5696],
      ['tasks-demo', 22, 14, 18, 0.7033],
    ]);
    // One hit per whole note: it never lands on a heading.
    expect(report.overall.headingAt5).toBe(0);
  });
});

describe(`the ${STRATA_TARGET} search`, () => {
  const name = `finds the expected note in its top 5 for at least ${QUALITY_TARGET * 100} % of the questions`;
  it(`is registered in src/core/search/evalTargets.ts as "${STRATA_TARGET}"`, () => expect(strata).toBeDefined());
  const meetsTarget = () => {
    const { report } = run(STRATA_TARGET);
    const misses = report.misses.map((m) => `${m.id} (rank ${m.rank ?? '>10'})`).join(', ');
    const recall = report.overall.recallAt5;
    // On failure the message names the figure and every question not in the top 5.
    expect(recall >= QUALITY_TARGET ? 'met' : `recall@5 ${(recall * 100).toFixed(1)} % is below ${QUALITY_TARGET * 100} %; not in the top 5: ${misses}`).toBe('met');
  };
  // Met since issue 33's length discount of coverage (88.1 %); it was a `test.failing` marker before.
  test(name, meetsTarget);

  it('scores exactly its recorded figures (a ranking change shows here, for better or worse)', () => {
    const { report } = run(STRATA_TARGET);
    // Issue 33: each note's coverage of the query's terms and the note graph weighed in (0.6905 → 0.7451 MRR),
    // then coverage discounted for long notes (found at 5: 71 → 74).
    expect(counts(report.overall)).toEqual([84, 56, 74, 0.742]);
    expect(report.vaults.map((v) => [v.vault, ...counts(v.figures)])).toEqual([
      ['kepano', 20, 18, 19, 0.9167],
      ['tasks-docs', 42, 22, 36, 0.6423],
      ['tasks-demo', 22, 16, 19, 0.7736],
    ]);
    expect(report.overall.headingAt5).toBe(13);
  });
});

/**
 * The held-out set (bench/search-eval/heldout.json): 36 more questions written without running any
 * search, so ranking changes tuned on the main set are checked on questions they never saw.
 */
describe('the held-out questions', () => {
  const heldOut = loadEvalSet(HELD_OUT_FILE);
  let held: TargetEvaluation[] = [];
  beforeAll(async () => {
    held = await runSearchEval(heldOut, EVAL_TARGETS, CORPUS);
  }, 300_000);

  it('label notes that exist and ask nothing the main set asks', () => {
    const ids = new Set(questions.map((q) => q.id));
    for (const q of heldOut) {
      expect([q.id, ids.has(q.id)]).toEqual([q.id, false]);
      for (const p of q.expected) expect([q.id, existsSync(path.join(CORPUS, q.vault, p))]).toEqual([q.id, true]);
    }
  });

  it('score exactly their recorded figures, baseline and strata', () => {
    const figures = (name: string) => {
      const found = held.find((r) => r.target === name);
      if (!found) throw new Error(`no evaluation for ${name}`);
      return [counts(found.report.overall), ...found.report.vaults.map((v) => [v.vault, ...counts(v.figures)])];
    };
    // 48 questions since issue 33 added 12 (notes picked by a fixed stride through each vault's files, questions written before any search).
    expect(figures('bm25-baseline')).toEqual([[48, 22, 38, 0.5967], ['kepano', 12, 7, 12, 0.7319], ['tasks-docs', 24, 9, 16, 0.5115], ['tasks-demo', 12, 6, 10, 0.6319]]);
    expect(figures(STRATA_TARGET)).toEqual([[48, 31, 39, 0.722], ['kepano', 12, 11, 12, 0.9583], ['tasks-docs', 24, 11, 17, 0.5795], ['tasks-demo', 12, 9, 10, 0.7708]]);
  });
});

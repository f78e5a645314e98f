import type { EvalFigures, EvalReport } from './evaluate';

/** One target's evaluation as the script and the bench print it. */
export interface TargetEvaluation {
  readonly target: string;
  readonly report: EvalReport;
  /** Index build time per vault, in milliseconds (measured by the caller). */
  readonly buildMs: Readonly<Record<string, number>>;
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

function row(target: string, vault: string, f: EvalFigures, buildMs: number | null): string[] {
  return [
    target,
    vault,
    String(f.questions),
    `${pct(f.recallAt1)} (${f.foundAt1})`,
    `${pct(f.recallAt5)} (${f.foundAt5})`,
    f.mrr.toFixed(3),
    f.headingQuestions > 0 ? `${f.headingAt5}/${f.headingQuestions}` : '-',
    buildMs === null ? '' : `${buildMs.toFixed(0)} ms`,
  ];
}

/** Rows of figures per target and vault, then the overall line of each target. */
export function figureRows(runs: readonly TargetEvaluation[]): string[][] {
  const rows: string[][] = [];
  for (const run of runs) {
    for (const { vault, figures } of run.report.vaults) rows.push(row(run.target, vault, figures, run.buildMs[vault] ?? null));
    const total = Object.values(run.buildMs).reduce((a, b) => a + b, 0);
    rows.push(row(run.target, 'all', run.report.overall, total));
  }
  return rows;
}

export const FIGURE_HEADER = ['target', 'vault', 'questions', 'recall@1', 'recall@5', 'MRR', 'heading@5', 'build'];

export const RECALL_KS = [1, 3, 5, 10] as const;
export const RECALL_HEADER = ['target', 'vault', ...RECALL_KS.map((k) => `found@${k}`)];

const foundAt = (f: EvalFigures, k: (typeof RECALL_KS)[number]) => (k === 1 ? f.foundAt1 : k === 3 ? f.foundAt3 : k === 5 ? f.foundAt5 : f.foundAt10);

/**
 * Questions found at each k per target and vault; after the first target (the baseline), each
 * count is marked against the first's: + above, = tied, - below (issue 33: above at every k).
 */
export function recallRows(runs: readonly TargetEvaluation[]): string[][] {
  const rows: string[][] = [];
  const base = runs[0];
  const baseFigures = (vault: string) => (vault === 'all' ? base.report.overall : base.report.vaults.find((v) => v.vault === vault)?.figures);
  for (const [i, run] of runs.entries()) {
    for (const { vault, figures } of [...run.report.vaults, { vault: 'all', figures: run.report.overall }]) {
      const against = i === 0 ? undefined : baseFigures(vault);
      const cells = RECALL_KS.map((k) => {
        const n = foundAt(figures, k);
        if (!against) return String(n);
        const b = foundAt(against, k);
        return `${n}${n > b ? '+' : n === b ? '=' : '-'}`;
      });
      rows.push([run.target, vault, ...cells]);
    }
  }
  return rows;
}

function padded(header: readonly string[], body: readonly string[][]): string[] {
  const rows = [header, ...body];
  const widths = header.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: readonly string[]) => r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd();
  return [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line)];
}

/**
 * A plain-text table (columns padded), the questions found at 1, 3, 5 and 10 against the first
 * target's, then each target's misses: the expected note and what came first instead.
 */
export function formatEvalTable(runs: readonly TargetEvaluation[]): string {
  const out = [...padded(FIGURE_HEADER, figureRows(runs)), ''];
  if (runs.length > 0) out.push(`questions found at k (+ above, = tied, - below ${runs[0].target})`, ...padded(RECALL_HEADER, recallRows(runs)), '');
  for (const run of runs) {
    out.push(`${run.target}: ${run.report.misses.length} of ${run.report.overall.questions} not in the top 5`);
    for (const miss of run.report.misses) {
      out.push(`  ${miss.vault} ${miss.id} (rank ${miss.rank ?? '>10'}): "${miss.question}"`);
      out.push(`    expected ${miss.expected.join(' | ')}`);
      out.push(`    got      ${miss.top.slice(0, 3).join(' | ') || '(nothing)'}`);
    }
    out.push('');
  }
  return `${out.join('\n').trimEnd()}\n`;
}

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

/** A plain-text table (columns padded), then each target's misses: the expected note and what came first instead. */
export function formatEvalTable(runs: readonly TargetEvaluation[]): string {
  const rows = [FIGURE_HEADER, ...figureRows(runs)];
  const widths = FIGURE_HEADER.map((_, c) => Math.max(...rows.map((r) => r[c].length)));
  const line = (r: readonly string[]) => r.map((cell, c) => (c < 2 ? cell.padEnd(widths[c]) : cell.padStart(widths[c]))).join('  ').trimEnd();
  const out = [line(rows[0]), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.slice(1).map(line), ''];
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

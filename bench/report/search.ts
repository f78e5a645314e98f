import type { ScaleRun } from '../search/scale';
import type { SearchBench } from '../search/section';
import { int, mib, ms, pct, table } from './format';
import { relatedSection } from './related';

/** The search section of the report: quality on the evaluation set, then the generated vault. */
export function searchSection(s: SearchBench): string {
  const out: string[] = ['## Vault search', ''];
  out.push(
    `Quality: the ${s.questions} questions of \`bench/search-eval/questions.json\` (written in the user's words, each labelled with the note(s) that answer it) ` +
      'run through each search target over the shared corpus; hits are collapsed to distinct notes, and a question is found at rank r when the r-th note is an expected one. ' +
      'recall@k: share found in the first k notes; MRR: mean of 1/rank over the first 10 notes; heading@5: questions naming a section whose note came back in the top 5 with a hit under that heading. ' +
      'Build: reading and indexing the vault from disk. Target (issue 13): recall@5 ≥ 85 % for `strata` (checked by `npm run test:corpus`).',
    '',
    table(
      ['target', 'vault', 'notes', 'questions', 'recall@1', 'recall@5', 'MRR', 'heading@5', 'build'],
      s.quality.flatMap((q) => [
        ...q.vaults.map((v) => [q.target, v.vault, int(v.notes), int(v.figures.questions), pct(v.figures.recallAt1), pct(v.figures.recallAt5), v.figures.mrr.toFixed(3), heading(v.figures), ms(v.buildMs)]),
        [`**${q.target}**`, '**all**', int(q.vaults.reduce((a, v) => a + v.notes, 0)), int(q.overall.questions), `**${pct(q.overall.recallAt1)}**`, `**${pct(q.overall.recallAt5)}**`, `**${q.overall.mrr.toFixed(3)}**`, heading(q.overall), ms(q.buildMs)],
      ]),
      ['l', 'l'],
    ),
    '',
    ...s.quality.map((q) => `- \`${q.target}\`: ${q.description}.`),
    '',
  );
  if (s.heldOut) {
    out.push(
      `Held out: the ${s.heldOut.questions} questions of \`bench/search-eval/heldout.json\`, written without running any search and never tuned on, checked after every ranking change.`,
      '',
      table(
        ['target', 'vault', 'questions', 'recall@1', 'recall@5', 'MRR'],
        s.heldOut.quality.flatMap((q) => [
          ...q.vaults.map((v) => [q.target, v.vault, int(v.figures.questions), pct(v.figures.recallAt1), pct(v.figures.recallAt5), v.figures.mrr.toFixed(3)]),
          [`**${q.target}**`, '**all**', int(q.overall.questions), `**${pct(q.overall.recallAt1)}**`, `**${pct(q.overall.recallAt5)}**`, `**${q.overall.mrr.toFixed(3)}**`],
        ]),
        ['l', 'l'],
      ),
      '',
    );
  }
  if (s.generated.length > 0) {
    const g = s.generated[0];
    out.push(
      `Scale: a generated vault of ${int(g.notes)} notes (${mib(g.bytes / 1024 / 1024)} of text; log-normal sizes, median ~1.3 KB, up to 80 KB; folders, frontmatter, headings, lists, tasks, links), ` +
        'in memory through the VaultReader port, indexed by each target in its own process. Heap before: the generated text already in memory. ' +
        'Peak heap: sampled during the build (text included). Retained: heap after the build and a full GC, minus heap before. Query: 50 queries of 2 to 5 words, k 10. Reported, not asserted.',
      '',
      table(
        ['target', 'notes', 'build', 'heap before', 'peak heap', 'retained', 'peak RSS', 'query median', 'query p95'],
        s.generated.map((r) => [r.target, int(r.notes), ms(r.buildMs), mib(r.heapBeforeMiB), mib(r.peakHeapMiB), mib(r.retainedHeapMiB), mib(r.maxRssMiB), ms(r.queryMedianMs), ms(r.queryP95Ms)]),
        ['l'],
      ),
      '',
    );
  }
  if (s.related) out.push(relatedSection(s.related));
  if (s.scale && s.scale.length > 0) out.push(scaleTable(s.scale));
  return out.join('\n');
}

/** The index as the plugin runs it, beside issue 33's targets. */
function scaleTable(runs: readonly ScaleRun[]): string {
  const both = (wall: number, cpu: number): string => `${ms(wall)} (CPU ${ms(cpu)})`;
  const rows: Array<[string, string, (r: ScaleRun) => string]> = [
    ['full build', '≤ 30 s', (r) => both(r.buildMs, r.buildCpuMs)],
    ['longest main-thread task while it builds', '≤ 50 ms', (r) => `${ms(r.buildSlices.longestMs)} (CPU ${ms(r.buildSlices.longestCpuMs)}); ${int(r.buildSlices.over50)} of ${int(r.buildSlices.pauses)} over 50 ms`],
    ['saved index', '≤ 60 MB', (r) => `${r.savedMB.toFixed(1)} MB`],
    ['save (longest task)', '–', (r) => `${both(r.saveMs, r.saveCpuMs)}; ${ms(r.saveSlices.longestMs)} (CPU ${ms(r.saveSlices.longestCpuMs)})`],
    ['restart: restore + catch up on 100 changed notes (longest task)', '≤ 1 s', (r) => `${both(r.catchUpMs, r.catchUpCpuMs)}; ${ms(r.catchUpSlices.longestMs)} (CPU ${ms(r.catchUpSlices.longestCpuMs)})`],
    ['of which the restore (searches answer from its end)', '–', (r) => (r.restoreMs === undefined ? '–' : both(r.restoreMs, r.restoreCpuMs ?? 0))],
    ['one edited note re-indexed (median / max)', '≤ 20 ms', (r) => `${ms(r.editMedianMs)} / ${ms(r.editMaxMs)} (CPU max ${ms(r.editMaxCpuMs)})`],
    ['query median / p95', 'p95 ≤ 30 ms', (r) => `${ms(r.queryMedianMs)} / ${ms(r.queryP95Ms)} (CPU ${ms(r.queryMedianCpuMs)} / ${ms(r.queryP95CpuMs)})`],
    ['heap retained / peak', '≤ 300 MB', (r) => `${mib(r.retainedHeapMiB)} / ${mib(r.peakHeapMiB)}`],
    ['the index after the build / after a restart: heap + typed arrays', '≤ 300 MB', (r) => (r.restartHeapMiB === undefined ? '–' : `${mib(r.retainedHeapMiB)} + ${mib(r.retainedArrayBuffersMiB ?? 0)} / ${mib(r.restartHeapMiB)} + ${mib(r.restartArrayBuffersMiB ?? 0)}`)],
    ['peak RSS (whole process)', '–', (r) => mib(r.maxRssMiB)],
    ['load average at the end', '–', (r) => r.load.toFixed(1)],
  ];
  return [
    "Scale (issue 33): the vault index as the plugin runs it (src/obsidian/searchIndex.ts's slices: 12 ms by the monotonic clock, a pause every 50 notes, a macrotask between) " +
      'over a generated vault, in its own process. A task is the time between two pauses. Wall times beside this process\'s CPU time: on a 2-core machine whose load average is above 2 ' +
      'the wall times are stretched by other processes, the CPU times are not. Edits: 20 notes of median size or more, each re-indexed as on a modify event. Heap: the generated text excluded (retained) or included (peak).',
    '',
    table(['', 'target', ...runs.map((r) => `${int(r.notes)} notes (${int(r.chunks)} chunks, ${mib(r.bytes / 1024 / 1024)})`)], rows.map(([name, target, cell]) => [name, target, ...runs.map(cell)]), ['l', 'l']),
    '',
  ].join('\n');
}

function heading(f: { headingQuestions: number; headingAt5: number }): string {
  return f.headingQuestions > 0 ? `${f.headingAt5}/${f.headingQuestions}` : '–';
}

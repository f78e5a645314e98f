import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { diffArrays } from 'diff';
import DiffMatchPatch from 'diff-match-patch';
import { applyReviewed } from '../../src/core/edits/applyProposal';
import { joinLines, LINE_DIFF_TIMEOUT_MS, lineHunks, proposalOf, splitLines, wordMarks } from '../../src/core/edits/lineDiff';
import { median } from '../lib/stats';
import { int, kib } from '../report/format';

/**
 * Edit proposals (issue 28): the diff library chosen (jsdiff) against diff-match-patch: bundle size,
 * a line diff of a 1 MB note with scattered edits, and word-level output; then proposal and apply on
 * that note (the note unchanged, and changed by the user meanwhile), and a whole rewrite, which must
 * give up in time (one hunk) rather than hold Obsidian's main thread.
 */

export interface EditsBench {
  readonly noteChars: number;
  readonly noteLines: number;
  readonly edits: number;
  readonly bundle: { readonly jsdiff: { min: number; gzip: number }; readonly dmp: { min: number; gzip: number } };
  readonly lineDiffMs: { readonly jsdiff: number; readonly dmp: number };
  readonly hunks: { readonly jsdiff: number; readonly dmp: number };
  readonly words: { readonly old: string; readonly new: string; readonly jsdiff: string; readonly dmp: string; readonly dmpSemantic: string };
  readonly proposalMs: number;
  readonly applyMs: number;
  readonly applyUserChangedMs: number;
  readonly userChangedConflicts: number;
  readonly rewrite: { readonly proposalMs: number; readonly hunks: number };
}

/** A deterministic note of about `chars` characters: markdown lines of words (an LCG, no randomness). */
function note(chars: number): string {
  const words = ['garden', 'tomato', 'the', 'greenhouse', 'water', 'barrel', 'vent', 'and', 'plan', 'budget', 'seed', 'soil', 'light', 'frost'];
  let seed = 12345;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
  const lines: string[] = [];
  let size = 0;
  for (let i = 0; size < chars; i++) {
    const line = i % 40 === 0 ? `## Section ${i / 40}` : Array.from({ length: 4 + (next() % 14) }, () => words[next() % words.length]).join(' ');
    lines.push(line);
    size += line.length + 1;
  }
  return joinLines(lines);
}

/** Every `every`-th line changed (a word replaced), every `every * 3`-th line gets one inserted after it. */
function scattered(text: string, every: number, tag: string): string {
  const out: string[] = [];
  splitLines(text).forEach((line, i) => {
    out.push(i % every === 7 ? line.replace(/\b\w+$/, tag) : line);
    if (i % (every * 3) === 11) out.push(`${tag} added line ${i}`);
  });
  return joinLines(out);
}

function timed<T>(run: () => T, runs: number): { ms: number; value: T } {
  let value = run();
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    value = run();
    samples.push(performance.now() - t);
  }
  return { ms: median(samples), value };
}

async function bundleSize(contents: string, root: string): Promise<{ min: number; gzip: number }> {
  const result = await build({ stdin: { contents, resolveDir: root, loader: 'ts' }, bundle: true, minify: true, write: false, format: 'cjs', platform: 'browser', logLevel: 'silent' });
  const bytes = result.outputFiles[0].contents;
  return { min: bytes.length, gzip: gzipSync(bytes).length };
}

/** diff-match-patch's line mode: lines mapped to characters, diffed, mapped back; hunks counted like ours. */
function dmpLineDiff(dmp: DiffMatchPatch, a: string, b: string): number {
  const { chars1, chars2, lineArray } = dmp.diff_linesToChars_(a, b);
  const diffs = dmp.diff_main(chars1, chars2, false);
  dmp.diff_charsToLines_(diffs, lineArray);
  let hunks = 0;
  let inHunk = false;
  for (const [op] of diffs) {
    if (op === 0) inHunk = false;
    else if (!inHunk) {
      hunks++;
      inHunk = true;
    }
  }
  return hunks;
}

export async function measureEdits(root: string, runs = 7): Promise<EditsBench> {
  const base = note(1_000_000);
  const proposed = scattered(base, 200, 'MODEL');
  const baseLines = splitLines(base);
  const proposedLines = splitLines(proposed);
  const dmp = new DiffMatchPatch();
  dmp.Diff_Timeout = 0;

  const jsdiff = timed(() => diffArrays(baseLines, proposedLines), runs);
  const ours = lineHunks(baseLines, proposedLines, 10_000);
  const dmpRun = timed(() => dmpLineDiff(dmp, base, proposed), runs);

  const oldLine = 'Keep the night temperature above 8 °C without a heater until November.';
  const newLine = 'Keep the night temperature above 10 °C with a small heater until late November.';
  const marks = wordMarks(oldLine, newLine);
  const show = (parts: { text: string; changed: boolean }[]) => parts.map((p) => (p.changed ? `[${p.text}]` : p.text)).join('');
  const dmpWords = dmp.diff_main(oldLine, newLine);
  const dmpSemantic = dmp.diff_main(oldLine, newLine);
  dmp.diff_cleanupSemantic(dmpSemantic);
  const showDmp = (diffs: [number, string][]) => diffs.map(([op, text]) => (op === -1 ? `{-${text}-}` : op === 1 ? `{+${text}+}` : text)).join('');

  const proposal = timed(() => proposalOf({ id: 'p', kind: 'edit', path: 'Big.md', baseText: base, proposedText: proposed }), runs);
  const p = proposal.value;
  const all = { decisions: p.hunks.map((h) => ({ hunkId: h.id, action: 'accept' as const })) };
  const apply = timed(() => applyReviewed(base, p, all), runs);
  // The user changed the note meanwhile: lines of their own scattered through it (some on the model's lines).
  const userChanged = scattered(base, 170, 'USER');
  const applyUser = timed(() => applyReviewed(userChanged, p, all), runs);

  const rewritten = joinLines(baseLines.map((l) => `${l} (rewritten)`));
  const rewrite = timed(() => proposalOf({ id: 'r', kind: 'edit', path: 'Big.md', baseText: base, proposedText: rewritten }), 3);

  return {
    noteChars: base.length,
    noteLines: baseLines.length,
    edits: ours.length,
    bundle: {
      jsdiff: await bundleSize("import { diffArrays, diffWordsWithSpace } from 'diff'; console.log(diffArrays, diffWordsWithSpace);", root),
      dmp: await bundleSize("import DMP from 'diff-match-patch'; console.log(DMP);", root),
    },
    lineDiffMs: { jsdiff: jsdiff.ms, dmp: dmpRun.ms },
    hunks: { jsdiff: ours.length, dmp: dmpRun.value },
    words: { old: oldLine, new: newLine, jsdiff: `${show(marks.old)} → ${show(marks.new)}`, dmp: showDmp(dmpWords), dmpSemantic: showDmp(dmpSemantic) },
    proposalMs: proposal.ms,
    applyMs: apply.ms,
    applyUserChangedMs: applyUser.ms,
    userChangedConflicts: applyUser.value.result.conflicts.length,
    rewrite: { proposalMs: rewrite.ms, hunks: rewrite.value.hunks.length },
  };
}

export function editsSection(b: EditsBench): string {
  const t = (n: number) => n.toFixed(1);
  return [
    '## Edit proposals (issue 28)',
    '',
    `A ${kib(b.noteChars)} note of ${int(b.noteLines)} lines with ${int(b.edits)} scattered edits (a word changed every 200 lines, a line added every 600). ` +
      'jsdiff is the library Strata uses; diff-match-patch (line mode: lines mapped to characters, no timeout) is the comparison.',
    '',
    '| | jsdiff | diff-match-patch |',
    '| --- | ---: | ---: |',
    `| bundle, minified (gzip) | ${kib(b.bundle.jsdiff.min)} (${kib(b.bundle.jsdiff.gzip)}) | ${kib(b.bundle.dmp.min)} (${kib(b.bundle.dmp.gzip)}) |`,
    `| line diff of the 1 MB note | ${t(b.lineDiffMs.jsdiff)} ms | ${t(b.lineDiffMs.dmp)} ms |`,
    `| hunks found | ${int(b.hunks.jsdiff)} | ${int(b.hunks.dmp)} |`,
    '',
    `Word level, one changed line: jsdiff's diffWordsWithSpace marks whole words: \`${b.words.jsdiff}\`. ` +
      `diff-match-patch works on characters: \`${b.words.dmp}\`, and after its semantic clean-up \`${b.words.dmpSemantic}\`.`,
    '',
    `On the 1 MB note: the proposal (line diff and the base hash) takes ${t(b.proposalMs)} ms; applying every hunk ${t(b.applyMs)} ms; ` +
      `applying when the user changed the note meanwhile (their own lines every 170 lines: the diff base → current places each hunk) ${t(b.applyUserChangedMs)} ms, ` +
      `${int(b.userChangedConflicts)} hunks coming back as conflicts (the user changed those very lines). ` +
      `A whole rewrite (every line changed) stops the line diff at its ${LINE_DIFF_TIMEOUT_MS} ms limit: ${t(b.rewrite.proposalMs)} ms, ${int(b.rewrite.hunks)} hunk over the changed middle, never a freeze.`,
    '',
  ].join('\n');
}

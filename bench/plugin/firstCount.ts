/**
 * The first token count after loading, through the bundle's own code: tokenCounter.ts bundled with
 * the same build plugins as main.js (the packed rank tables, rankCodec.ts), then run in fresh Node
 * processes (V8, as in Obsidian): the module's evaluation, the table's unpacking and one count.
 * The tables are range coded (src/core/tokens/rangeDecoder.ts), decoded the same on a desktop and a
 * phone: no separate phone figure.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import { median } from '../lib/stats';

// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { bundlePlugins } = require('../../scripts/bundlePlugins.cjs') as { bundlePlugins: () => Plugin[] };

export interface FirstCount {
  /** gpt-4o's o200k_base and gpt-4's cl100k_base: evaluation + unpacking + one count, median of `runs` fresh processes (wall time). */
  readonly o200kMs: number;
  readonly cl100kMs: number;
  /** The same in the process's CPU time (user + system): what a loaded machine's waiting leaves out. */
  readonly o200kCpuMs: number;
  readonly cl100kCpuMs: number;
  /** gpt-4o's in CPU time on a phone, when it differed (the tables were DEFLATEd: fflate there, zlib on a desktop). */
  readonly o200kPhoneCpuMs?: number;
  /**
   * The table unpacked ahead by warmTokenizer (as the plugin does before a turn's counts), a timer's
   * pause between slices, then the count: the longest stretch holding the thread (median of `runs`).
   * The count alone, unwarmed, holds it for all of o200kMs / cl100kMs.
   */
  readonly o200kLongestMs?: number;
  readonly cl100kLongestMs?: number;
  readonly runs: number;
}

const PROBE = `
const started = performance.now();
const cpu = process.cpuUsage();
const { tokenCounterFor, warmTokenizer } = require('./counter.js');
const text = 'Obsidian vaults hold Markdown notes; Strata counts them.';
const report = (longestMs) => {
  const used = process.cpuUsage(cpu);
  process.stdout.write(JSON.stringify({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, longestMs }));
};
if (process.argv[3] !== 'warm') {
  tokenCounterFor(process.argv[2]).count(text);
  report(performance.now() - started);
} else {
  // From after the module's evaluation (the plugin's load, not the count's).
  let longest = 0;
  let from = performance.now();
  const pause = () => new Promise((resolve) => {
    longest = Math.max(longest, performance.now() - from);
    setTimeout(() => { from = performance.now(); resolve(); }, 0);
  });
  warmTokenizer(process.argv[2] === 'gpt-4o' ? 'o200k_base' : 'cl100k_base', pause).then(() => {
    tokenCounterFor(process.argv[2]).count(text);
    report(Math.max(longest, performance.now() - from));
  });
}
`;

export async function measureFirstCount(root: string, runs: number): Promise<FirstCount> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-firstcount-'));
  try {
    await build({
      absWorkingDir: root,
      stdin: {
        contents: "export { tokenCounterFor, warmTokenizer } from './src/core/tokens/tokenCounter';",
        resolveDir: root,
        loader: 'ts',
      },
      bundle: true,
      format: 'cjs',
      target: 'es2022',
      minify: true,
      logLevel: 'silent',
      outfile: path.join(dir, 'counter.js'),
      plugins: bundlePlugins(),
    });
    writeFileSync(path.join(dir, 'probe.js'), PROBE);
    type Sample = { ms: number; cpuMs: number; longestMs: number };
    const time = (model: string, mode: 'cold' | 'warm'): Sample => {
      const samples: Sample[] = [];
      for (let i = 0; i < runs; i++) {
        const result = spawnSync(process.execPath, ['probe.js', model, mode], { cwd: dir, encoding: 'utf8' });
        if (result.status !== 0) throw new Error(`first count failed: ${result.stderr}`);
        samples.push(JSON.parse(result.stdout) as Sample);
      }
      return { ms: median(samples.map((s) => s.ms)), cpuMs: median(samples.map((s) => s.cpuMs)), longestMs: median(samples.map((s) => s.longestMs)) };
    };
    const o200k = time('gpt-4o', 'cold');
    const cl100k = time('gpt-4', 'cold');
    const o200kLongestMs = time('gpt-4o', 'warm').longestMs;
    const cl100kLongestMs = time('gpt-4', 'warm').longestMs;
    return { o200kMs: o200k.ms, cl100kMs: cl100k.ms, o200kCpuMs: o200k.cpuMs, cl100kCpuMs: cl100k.cpuMs, o200kLongestMs, cl100kLongestMs, runs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

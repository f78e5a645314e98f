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
  readonly runs: number;
}

const PROBE = `
const started = performance.now();
const cpu = process.cpuUsage();
const { tokenCounterFor } = require('./counter.js');
const n = tokenCounterFor(process.argv[2]).count('Obsidian vaults hold Markdown notes; Strata counts them.');
const used = process.cpuUsage(cpu);
process.stdout.write(JSON.stringify({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1000, n }));
`;

export async function measureFirstCount(root: string, runs: number): Promise<FirstCount> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-firstcount-'));
  try {
    await build({
      absWorkingDir: root,
      stdin: {
        contents: "export { tokenCounterFor } from './src/core/tokens/tokenCounter';",
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
    const time = (model: string): { ms: number; cpuMs: number } => {
      const samples: { ms: number; cpuMs: number }[] = [];
      for (let i = 0; i < runs; i++) {
        const result = spawnSync(process.execPath, ['probe.js', model], { cwd: dir, encoding: 'utf8' });
        if (result.status !== 0) throw new Error(`first count failed: ${result.stderr}`);
        samples.push(JSON.parse(result.stdout) as { ms: number; cpuMs: number });
      }
      return { ms: median(samples.map((s) => s.ms)), cpuMs: median(samples.map((s) => s.cpuMs)) };
    };
    const o200k = time('gpt-4o');
    const cl100k = time('gpt-4');
    return { o200kMs: o200k.ms, cl100kMs: cl100k.ms, o200kCpuMs: o200k.cpuMs, cl100kCpuMs: cl100k.cpuMs, runs };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';
import { median, p95 } from '../lib/stats';
import type { LoadSample } from './loadChild';

export interface PluginCost {
  readonly bundle: { readonly bytes: number; readonly gzipBytes: number; readonly rebuilt: boolean; readonly note: string | null };
  readonly runs: number;
  readonly requireMs: { readonly median: number; readonly p95: number };
  readonly onloadMs: { readonly median: number; readonly p95: number };
  readonly totalMs: { readonly median: number; readonly p95: number };
  readonly registered: { readonly commands: number; readonly views: number; readonly settingTabs: number; readonly ribbonIcons: number };
  readonly unknownShimAccesses: readonly string[];
  readonly errors: readonly string[];
  readonly samples: readonly LoadSample[];
}

function newestMtime(dir: string): number {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(full) : statSync(full).mtimeMs);
  }
  return newest;
}

/** main.js as `npm run build` makes it; rebuilt (esbuild production, no typecheck) when missing or older than src/. */
function ensureBundle(root: string): { rebuilt: boolean; note: string | null } {
  const bundle = path.join(root, 'main.js');
  const stale = !existsSync(bundle) || statSync(bundle).mtimeMs < newestMtime(path.join(root, 'src'));
  if (!stale) return { rebuilt: false, note: null };
  const result = spawnSync(process.execPath, ['esbuild.config.mjs', 'production'], { cwd: root, encoding: 'utf8' });
  if (result.status === 0) return { rebuilt: true, note: null };
  const why = (result.stderr || result.stdout || '').trim().split('\n').slice(-3).join(' ');
  if (!existsSync(bundle)) throw new Error(`main.js is missing and the build failed: ${why}`);
  return { rebuilt: false, note: `the build failed (${why}); measured the existing, older main.js` };
}

export async function measurePluginCost(root: string, outDir: string, runs: number): Promise<PluginCost> {
  const { rebuilt, note } = ensureBundle(root);
  const bundlePath = path.join(root, 'main.js');
  const bytes = readFileSync(bundlePath);
  mkdirSync(outDir, { recursive: true });
  const child = path.join(outDir, 'plugin-load-child.cjs');
  await build({
    entryPoints: [path.join(root, 'bench', 'plugin', 'loadChild.ts')],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    outfile: child,
    logLevel: 'silent',
  });
  const samples: LoadSample[] = [];
  for (let i = 0; i < runs; i++) {
    const result = spawnSync(process.execPath, [child, bundlePath, path.join(root, 'manifest.json')], { encoding: 'utf8' });
    if (result.status !== 0) throw new Error(`plugin load child failed: ${result.stderr.trim()}`);
    samples.push(JSON.parse(result.stdout) as LoadSample);
  }
  const ok = samples.filter((s) => s.error === null);
  const stat = (pick: (s: LoadSample) => number) => (ok.length === 0 ? { median: NaN, p95: NaN } : { median: median(ok.map(pick)), p95: p95(ok.map(pick)) });
  const first = samples[0];
  return {
    bundle: { bytes: bytes.length, gzipBytes: gzipSync(bytes).length, rebuilt, note },
    runs,
    requireMs: stat((s) => s.requireMs),
    onloadMs: stat((s) => s.onloadMs),
    totalMs: stat((s) => s.totalMs),
    registered: { commands: first.commands, views: first.views, settingTabs: first.settingTabs, ribbonIcons: first.ribbonIcons },
    unknownShimAccesses: first.unknownAccesses,
    errors: [...new Set(samples.flatMap((s) => (s.error ? [s.error] : [])))],
    samples,
  };
}

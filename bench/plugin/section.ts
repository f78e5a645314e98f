import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../workbench/chromium';
import { startWorkbenchServer } from '../../workbench/server';
import { copyVault } from '../../workbench/vaultCopy';
import { median, p95 } from '../lib/stats';
import { loadOnce, type LoadSample } from './pageLoad';

export interface PluginCost {
  readonly bundle: { readonly bytes: number; readonly gzipBytes: number; readonly rebuilt: boolean; readonly note: string | null };
  readonly runs: number;
  readonly loadMs: { readonly median: number; readonly p95: number };
  readonly fetchMs: { readonly median: number; readonly p95: number };
  readonly onloadMs: { readonly median: number; readonly p95: number };
  readonly totalMs: { readonly median: number; readonly p95: number };
  readonly registered: { readonly commands: number; readonly views: number; readonly settingTabs: number; readonly ribbonIcons: number };
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

/** main.js as built, then `runs` loads of it in the workbench page (Chromium and the workbench's obsidian shim). */
export async function measurePluginCost(root: string, runs: number): Promise<PluginCost> {
  const { rebuilt, note } = ensureBundle(root);
  const bundlePath = path.join(root, 'main.js');
  const bytes = readFileSync(bundlePath);
  const vaultDir = copyVault();
  const server = await startWorkbenchServer({ vaultDir, providerUrl: null, pluginBundle: bundlePath });
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  const samples: LoadSample[] = [];
  try {
    for (let i = 0; i < runs; i++) samples.push(await loadOnce(browser, server.url));
  } finally {
    await browser.close();
    await server.close();
    rmSync(path.dirname(vaultDir), { recursive: true, force: true });
  }
  const ok = samples.filter((s) => s.error === null);
  const stat = (pick: (s: LoadSample) => number) => (ok.length === 0 ? { median: NaN, p95: NaN } : { median: median(ok.map(pick)), p95: p95(ok.map(pick)) });
  const first = samples[0];
  return {
    bundle: { bytes: bytes.length, gzipBytes: gzipSync(bytes).length, rebuilt, note },
    runs,
    loadMs: stat((s) => s.loadMs),
    fetchMs: stat((s) => s.fetchMs),
    onloadMs: stat((s) => s.onloadMs),
    totalMs: stat((s) => s.totalMs),
    registered: { commands: first.commands, views: first.views, settingTabs: first.settingTabs, ribbonIcons: first.ribbonIcons },
    errors: [...new Set(samples.flatMap((s) => (s.error ? [s.error] : [])))],
    samples,
  };
}

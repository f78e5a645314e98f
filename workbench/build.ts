/**
 * Bundles for the workbench page: the shim + page script (IIFE) and the REAL plugin bundle (the
 * same entry, externals and format as esbuild.config.mjs, unminified, with a linked source map).
 * Both are cached on disk by the modification times of their inputs, so a test run builds once.
 */
import esbuild from 'esbuild';
import { builtinModules } from 'node:module';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

import appExternals from '../esbuild.externals.json';

// The build steps main.js has (rank tables packed, zod's locales trimmed; plain CommonJS).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { bundlePlugins } = require('../scripts/bundlePlugins.cjs') as { bundlePlugins: () => esbuild.Plugin[] };

export const PROJECT_ROOT = resolve(__dirname, '..');
export const CACHE_DIR = join(PROJECT_ROOT, 'node_modules', '.cache', 'strata-workbench');

/** Same externals as esbuild.config.mjs (esbuild.externals.json): Obsidian provides these at run time. */
export const PLUGIN_EXTERNALS = [...appExternals, ...builtinModules, ...builtinModules.map((m) => `node:${m}`)];

export interface BundleResult {
  /** Absolute path of the bundle on disk (absent when the build failed). */
  path?: string;
  /** esbuild's messages when the build failed. */
  error?: string;
  /** True when the cached bundle was reused. */
  cached: boolean;
}

interface Stamp {
  inputs: Record<string, number>;
}

function mtime(path: string): number | null {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

/** Project inputs are checked one by one; node_modules only through package-lock.json. */
function stampOf(metafileInputs: string[]): Stamp {
  const inputs: Record<string, number> = {};
  for (const rel of [...metafileInputs.filter((p) => !p.includes('node_modules/')), 'package-lock.json']) {
    const m = mtime(join(PROJECT_ROOT, rel));
    if (m !== null) inputs[rel] = m;
  }
  return { inputs };
}

function isFresh(stampPath: string, outPath: string): boolean {
  if (mtime(outPath) === null) return false;
  try {
    const stamp = JSON.parse(readFileSync(stampPath, 'utf8')) as Stamp;
    return Object.entries(stamp.inputs).every(([rel, m]) => mtime(join(PROJECT_ROOT, rel)) === m);
  } catch {
    return false;
  }
}

function atomicWrite(path: string, data: string | Uint8Array): void {
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
}

async function bundle(name: string, options: esbuild.BuildOptions, force: boolean): Promise<BundleResult> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const outPath = join(CACHE_DIR, `${name}.js`);
  const stampPath = join(CACHE_DIR, `${name}.stamp.json`);
  if (!force && isFresh(stampPath, outPath)) return { path: outPath, cached: true };
  try {
    const result = await esbuild.build({ ...options, absWorkingDir: PROJECT_ROOT, bundle: true, write: false, metafile: true, logLevel: 'silent', outfile: outPath });
    const out = result.outputFiles?.find((f) => f.path === outPath);
    if (!out) throw new Error('esbuild produced no output');
    // The source map is a separate file: browsers fetch it only when devtools are open.
    const map = result.outputFiles?.find((f) => f.path === `${outPath}.map`);
    if (map) atomicWrite(map.path, map.contents);
    atomicWrite(outPath, out.contents);
    atomicWrite(stampPath, JSON.stringify(stampOf(Object.keys(result.metafile?.inputs ?? {}))));
    return { path: outPath, cached: false };
  } catch (e) {
    const failure = e as { errors?: esbuild.Message[] };
    const text = failure.errors?.length
      ? (await esbuild.formatMessages(failure.errors, { kind: 'error' })).join('\n')
      : e instanceof Error ? e.message : String(e);
    return { error: text, cached: false };
  }
}

/** The shim and page script, for the browser. */
export function buildPage(force = false): Promise<BundleResult> {
  return bundle('workbench-page', {
    entryPoints: [join(PROJECT_ROOT, 'workbench/page/main.ts')],
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    sourcemap: 'linked',
  }, force);
}

/** The plugin as Obsidian would load it: src/main.ts, CommonJS, Obsidian's modules external. */
export function buildPlugin(force = false): Promise<BundleResult> {
  return bundle('plugin-main', {
    entryPoints: [join(PROJECT_ROOT, 'src/main.ts')],
    external: PLUGIN_EXTERNALS,
    format: 'cjs',
    target: 'es2022',
    sourcemap: 'linked',
    treeShaking: true,
    // As in main.js: the page counts through the bundle's own rank-table decoder.
    plugins: bundlePlugins(),
  }, force);
}

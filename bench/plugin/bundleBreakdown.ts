import { builtinModules } from 'node:module';
import path from 'node:path';
import { build, type Plugin } from 'esbuild';
import appExternals from '../../esbuild.externals.json';

// The same build steps as main.js (rank tables packed, zod's locales trimmed).
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a .cjs script, required as it is
const { bundlePlugins } = require('../../scripts/bundlePlugins.cjs') as { bundlePlugins: () => Plugin[] };

export interface BundlePart {
  readonly name: string;
  readonly bytes: number;
}

/** Package (or `src`) a bundled input path belongs to. */
export function packageOf(input: string): string {
  const parts = input.split('/');
  const at = parts.lastIndexOf('node_modules');
  if (at < 0) {
    if (input.endsWith('src/core/tokens/packedRanks.ts')) return 'token rank tables (packed)';
    if (input.endsWith('scripts/shims/langsmith.cjs')) return 'langsmith (its shim)';
    return parts[0] === 'src' ? 'src (Strata)' : parts[0];
  }
  const scope = parts[at + 1] ?? '';
  return scope.startsWith('@') ? `${scope}/${parts[at + 2] ?? ''}` : scope;
}

/**
 * Which packages the production bundle's bytes come from: an in-memory esbuild build of src/main.ts
 * with the same externals, build steps and minification as esbuild.config.mjs.
 */
export async function bundleBreakdown(root: string, top = 8): Promise<BundlePart[]> {
  const result = await build({
    absWorkingDir: root,
    entryPoints: [path.join('src', 'main.ts')],
    bundle: true,
    write: false,
    metafile: true,
    format: 'cjs',
    target: 'es2022',
    minify: true,
    treeShaking: true,
    logLevel: 'silent',
    outfile: 'breakdown.js',
    external: [...appExternals, ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
    plugins: bundlePlugins(),
  });
  const byPackage = new Map<string, number>();
  for (const output of Object.values(result.metafile.outputs)) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = packageOf(input);
      byPackage.set(name, (byPackage.get(name) ?? 0) + bytesInOutput);
    }
  }
  return [...byPackage.entries()]
    .map(([name, bytes]) => ({ name, bytes }))
    .sort((a, b) => b.bytes - a.bytes || (a.name < b.name ? -1 : 1))
    .slice(0, top);
}

import esbuild from 'esbuild';
import { builtinModules, createRequire } from 'node:module';
import process from 'node:process';
import { readFileSync } from 'node:fs';

// The token rank tables packed, zod's locales trimmed (scripts/bundlePlugins.cjs).
const { bundlePlugins } = createRequire(import.meta.url)('./scripts/bundlePlugins.cjs');

const appExternals = JSON.parse(readFileSync(new URL('./esbuild.externals.json', import.meta.url), 'utf8'));

const banner = `/*
Strata: bundled by esbuild. Source: src/ (MIT licence).
*/`;

const production = process.argv[2] === 'production';

const context = await esbuild.context({
  banner: { js: banner },
  entryPoints: ['src/main.ts'],
  bundle: true,
  // Provided by Obsidian at run time (the list is shared with the browser workbench's build).
  external: [...appExternals, ...builtinModules, ...builtinModules.map((m) => `node:${m}`)],
  format: 'cjs',
  target: 'es2022',
  logLevel: 'info',
  sourcemap: production ? false : 'inline',
  treeShaking: true,
  minify: production,
  outfile: 'main.js',
  metafile: true,
  plugins: bundlePlugins(),
});

if (production) {
  const result = await context.rebuild();
  const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
  console.log(`main.js: ${(bytes / 1024).toFixed(1)} KiB`);
  await context.dispose();
} else {
  await context.watch();
}

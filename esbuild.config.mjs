import esbuild from 'esbuild';
import { builtinModules } from 'node:module';
import process from 'node:process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

// The token rank tables, packed at build time (a third of js-tiktoken's text; see the script).
const { packedRanksPlugin } = createRequire(import.meta.url)('./scripts/packRanks.cjs');

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
  plugins: [packedRanksPlugin()],
});

if (production) {
  const result = await context.rebuild();
  const bytes = Object.values(result.metafile.outputs).reduce((sum, o) => sum + o.bytes, 0);
  console.log(`main.js: ${(bytes / 1024).toFixed(1)} KiB`);
  await context.dispose();
} else {
  await context.watch();
}

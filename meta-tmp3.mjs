import esbuild from 'esbuild';
import { builtinModules, createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
const { bundlePlugins } = createRequire(import.meta.url)('/work/main/scripts/bundlePlugins.cjs');
const appExternals = JSON.parse(readFileSync('/work/main/esbuild.externals.json', 'utf8'));
const r = await esbuild.build({ entryPoints: ['src/main.ts'], bundle: true, external: [...appExternals, ...builtinModules, ...builtinModules.map((m) => `node:${m}`)], format: 'cjs', target: 'es2022', minify: true, write: false, outfile: '/tmp/x.js', metafile: true, plugins: bundlePlugins(), logLevel: 'silent' });
const re = new RegExp(process.argv[2]);
for (const [f, v] of Object.entries(r.metafile.inputs)) for (const i of v.imports) if (re.test(i.path)) console.log(f.replace(/.*node_modules\//, ''), '->', i.path.replace(/.*node_modules\//, ''), i.kind);

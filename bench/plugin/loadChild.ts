/**
 * One fresh load of the plugin bundle, in its own process (bundled to CommonJS by the benchmark and
 * run with plain node, so no TypeScript loader sits between require() and main.js):
 *   node plugin-load-child.cjs <main.js> <manifest.json>
 * Prints JSON: time to require the bundle, time for onload(), and what onload registered.
 */
import { readFileSync } from 'node:fs';
import Module from 'node:module';
import { makeApp, makeObsidianModule, newStats } from './obsidianShim';

export interface LoadSample {
  readonly requireMs: number;
  readonly onloadMs: number;
  readonly totalMs: number;
  readonly commands: number;
  readonly views: number;
  readonly settingTabs: number;
  readonly ribbonIcons: number;
  readonly notices: number;
  readonly unknownAccesses: string[];
  readonly heapUsedMiB: number;
  readonly error: string | null;
}

type Loader = (request: string, parent: unknown, isMain: boolean) => unknown;

async function main(mainJs: string, manifestFile: string): Promise<LoadSample> {
  const stats = newStats();
  const obsidian = makeObsidianModule(stats);
  const moduleWithLoad = Module as unknown as { _load: Loader };
  const original = moduleWithLoad._load;
  moduleWithLoad._load = function load(request, parent, isMain) {
    if (request === 'obsidian') return obsidian;
    return original.call(this, request, parent, isMain);
  };
  const manifest: unknown = JSON.parse(readFileSync(manifestFile, 'utf8'));
  let requireMs = 0;
  let onloadMs = 0;
  let error: string | null = null;
  const t0 = performance.now();
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- loading the CommonJS bundle as Obsidian does
    const exported = require(mainJs) as { default?: unknown };
    const t1 = performance.now();
    requireMs = t1 - t0;
    const PluginClass = (exported.default ?? exported) as new (app: unknown, manifest: unknown) => { onload(): unknown; onunload?(): unknown };
    const plugin = new PluginClass(makeApp(stats), manifest);
    await plugin.onload();
    onloadMs = performance.now() - t1;
    plugin.onunload?.();
  } catch (e) {
    error = e instanceof Error ? (e.stack ?? e.message) : String(e);
  }
  return {
    requireMs,
    onloadMs,
    totalMs: requireMs + onloadMs,
    commands: stats.commands,
    views: stats.views,
    settingTabs: stats.settingTabs,
    ribbonIcons: stats.ribbonIcons,
    notices: stats.notices,
    unknownAccesses: [...stats.unknownAccesses].sort(),
    heapUsedMiB: process.memoryUsage().heapUsed / 1024 / 1024,
    error,
  };
}

const [mainJs, manifestFile] = process.argv.slice(2);
if (!mainJs || !manifestFile) {
  process.stderr.write('usage: plugin-load-child.cjs <main.js> <manifest.json>\n');
  process.exit(2);
}
main(mainJs, manifestFile).then(
  (sample) => process.stdout.write(`${JSON.stringify(sample)}\n`),
  (e: unknown) => {
    process.stderr.write(`plugin load child: ${String(e)}\n`);
    process.exitCode = 1;
  },
);

/**
 * Two or more plugin bundles loaded alternately in one Chromium (the bench's page load, pageLoad.ts),
 * so the machine's load falls on all of them alike: `npx tsx bench/plugin/compareLoad.ts old.js new.js
 * [--runs 15] [--profile dir]`. Besides the page's own wall times it reads the renderer's main-thread
 * time from Chromium (Performance.getMetrics: script, compile and task durations of the page), which a
 * loaded machine stretches less; `--profile` writes one CPU profile of each bundle's load.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../workbench/chromium';
import { startWorkbenchServer, type WorkbenchServer } from '../../workbench/server';
import { copyVault } from '../../workbench/vaultCopy';
import { median } from '../lib/stats';
import { loadOnce, type LoadSample } from './pageLoad';

interface Sample extends LoadSample {
  /** The page's main-thread durations (ms) from navigation to the plugin's onload done. */
  readonly scriptMs: number;
  readonly compileMs: number;
  readonly taskMs: number;
  /** CPU time of Chromium's renderer processes over the load (SystemInfo.getProcessInfo): the page's own scripts included, the same for every bundle. */
  readonly rendererCpuMs: number;
}

async function rendererCpu(browser: Browser): Promise<Map<number, number>> {
  const session = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = await session.send('SystemInfo.getProcessInfo');
    return new Map(processInfo.filter((p) => p.type === 'renderer').map((p) => [p.id, p.cpuTime * 1000]));
  } finally {
    await session.detach();
  }
}

async function loadWithMetrics(browser: Browser, url: string, profileTo: string | null): Promise<Sample> {
  // loadOnce makes its own context; the metrics need a CDP session on the page, so the page is opened here
  // the same way (fresh context, no-store server) and the figures read as loadOnce reads them.
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const cpuBefore = await rendererCpu(browser);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Performance.enable');
    if (profileTo) {
      await cdp.send('Profiler.enable');
      await cdp.send('Profiler.setSamplingInterval', { interval: 100 });
      await cdp.send('Profiler.start');
    }
    await page.goto(`${url}/`);
    await page.waitForFunction(() => (window as unknown as { workbench?: { ready: boolean } }).workbench?.ready === true, null, { timeout: 60_000 });
    const cpuAfter = await rendererCpu(browser);
    let rendererCpuMs = 0;
    for (const [id, ms] of cpuAfter) rendererCpuMs += ms - (cpuBefore.get(id) ?? 0);
    if (profileTo) {
      const { profile } = await cdp.send('Profiler.stop');
      writeFileSync(profileTo, JSON.stringify(profile));
    }
    const { metrics } = await cdp.send('Performance.getMetrics');
    const metric = (name: string): number => (metrics.find((m) => m.name === name)?.value ?? NaN) * 1000;
    const load = await page.evaluate(() => (window as unknown as { workbench: { pluginLoad: { fetchMs: number | null; loadMs: number; onloadMs: number } | null; bootError: string | null } }).workbench);
    const pl = load.pluginLoad;
    return {
      loadMs: pl?.loadMs ?? NaN,
      fetchMs: pl?.fetchMs ?? NaN,
      onloadMs: pl?.onloadMs ?? NaN,
      totalMs: pl ? pl.loadMs + pl.onloadMs : NaN,
      commands: 0,
      views: 0,
      settingTabs: 0,
      ribbonIcons: 0,
      notices: 0,
      heapUsedMiB: null,
      error: load.bootError,
      scriptMs: metric('ScriptDuration'),
      compileMs: metric('V8CompileDuration'),
      taskMs: metric('TaskDuration'),
      rendererCpuMs,
    };
  } finally {
    await context.close();
  }
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const runsAt = args.indexOf('--runs');
  const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 15;
  const profileAt = args.indexOf('--profile');
  const profileDir = profileAt >= 0 ? args[profileAt + 1] : null;
  const bundles = args.filter((a, i) => !a.startsWith('--') && (runsAt < 0 || i !== runsAt + 1) && (profileAt < 0 || i !== profileAt + 1)).map((b) => path.resolve(b));
  if (bundles.length === 0) throw new Error('usage: compareLoad.ts a.js [b.js ...] [--runs N] [--profile dir]');
  if (profileDir) mkdirSync(profileDir, { recursive: true });
  const vaultDir = copyVault();
  const servers: WorkbenchServer[] = [];
  for (const bundle of bundles) servers.push(await startWorkbenchServer({ vaultDir, providerUrl: null, pluginBundle: bundle }));
  const browser = await chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
  const samples: Sample[][] = bundles.map(() => []);
  try {
    // One unmeasured load each: Chromium's own first-start costs fall on none of them.
    for (const server of servers) await loadOnce(browser, server.url);
    for (let i = 0; i < runs; i++) {
      // ABBA: the order flips every round, so no bundle always follows the other's teardown.
      const order = bundles.map((_, b) => b);
      if (i % 2 === 1) order.reverse();
      for (const b of order) {
        const profileTo = profileDir && i === 0 ? path.join(profileDir, `${path.basename(bundles[b], '.js')}-${b}.cpuprofile`) : null;
        samples[b].push(await loadWithMetrics(browser, servers[b].url, profileTo));
      }
    }
  } finally {
    await browser.close();
    for (const server of servers) await server.close();
    rmSync(path.dirname(vaultDir), { recursive: true, force: true });
  }
  const f = (n: number): string => n.toFixed(1);
  const lines: string[] = [];
  lines.push('| bundle | load (fetch+parse+eval) | of it fetch | onload | total | page script | page tasks | renderer CPU | errors |');
  lines.push('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
  bundles.forEach((bundle, b) => {
    const ok = samples[b].filter((s) => s.error === null);
    const med = (pick: (s: Sample) => number): string => (ok.length ? f(median(ok.map(pick))) : 'n/a');
    const errors = samples[b].length - ok.length;
    lines.push(`| ${bundle} | ${med((s) => s.loadMs)} | ${med((s) => s.fetchMs)} | ${med((s) => s.onloadMs)} | ${med((s) => s.totalMs)} | ${med((s) => s.scriptMs)} | ${med((s) => s.taskMs)} | ${med((s) => s.rendererCpuMs)} | ${errors} |`);
  });
  lines.push(`${runs} alternating loads each, medians (ms)`);
  process.stdout.write(`${lines.join('\n')}\n`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});

/**
 * One load of the plugin bundle in the workbench page (Chromium, the workbench's obsidian shim, a
 * copy of the one vault): the page fetches, parses and evaluates main.js as Obsidian does, then
 * runs new Plugin + onload(). Each load is a fresh browser context; the server sends no-store, so
 * nothing compiled is reused from the previous load.
 */
import type { Browser } from 'playwright-core';
import type { WorkbenchApi } from '../../workbench/page/api';

export interface LoadSample {
  /** main.js fetched from the local server, parsed and evaluated (Node's require). */
  readonly loadMs: number;
  /** Of loadMs, the download from the local server (NaN when Resource Timing had no entry). */
  readonly fetchMs: number;
  readonly onloadMs: number;
  readonly totalMs: number;
  readonly commands: number;
  readonly views: number;
  readonly settingTabs: number;
  readonly ribbonIcons: number;
  readonly notices: number;
  readonly heapUsedMiB: number | null;
  readonly error: string | null;
}

type PageWindow = { workbench?: WorkbenchApi };
interface Probe {
  ready: boolean;
  bootError: string | null;
  errors: string[];
  pluginLoad: { fetchMs: number | null; loadMs: number; onloadMs: number } | null;
  commands: number;
  views: number;
  settingTabs: number;
  ribbonIcons: number;
  notices: number;
  heapBytes: number | null;
}

export async function loadOnce(browser: Browser, baseUrl: string): Promise<LoadSample> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    await page.goto(`${baseUrl}/`);
    await page.waitForFunction(() => (window as unknown as PageWindow).workbench?.ready === true, null, { timeout: 60_000 });
    const probe = await page.evaluate((): Probe => {
      const wb = (window as unknown as Required<PageWindow>).workbench;
      const plugin = wb.plugin;
      const id = plugin?.manifest.id ?? '';
      const memory = (performance as unknown as { memory?: { usedJSHeapSize: number } }).memory;
      return {
        ready: wb.ready,
        bootError: wb.bootError,
        errors: [...wb.errors],
        pluginLoad: wb.pluginLoad,
        commands: wb.listCommands().filter((c) => c.id.startsWith(`${id}:`)).length,
        views: plugin?.viewTypes.length ?? 0,
        settingTabs: plugin?.settingTabs.length ?? 0,
        ribbonIcons: document.querySelectorAll('.side-dock-ribbon-action').length,
        notices: wb.notices.length,
        heapBytes: memory ? memory.usedJSHeapSize : null,
      };
    });
    const load = probe.pluginLoad;
    const error = probe.bootError ?? (probe.errors.length > 0 ? probe.errors.join('\n') : null) ?? (load ? null : 'the page recorded no plugin load');
    return {
      loadMs: load?.loadMs ?? NaN,
      fetchMs: load?.fetchMs ?? NaN,
      onloadMs: load?.onloadMs ?? NaN,
      totalMs: load ? load.loadMs + load.onloadMs : NaN,
      commands: probe.commands,
      views: probe.views,
      settingTabs: probe.settingTabs,
      ribbonIcons: probe.ribbonIcons,
      notices: probe.notices,
      heapUsedMiB: probe.heapBytes === null ? null : probe.heapBytes / 1024 / 1024,
      error,
    };
  } finally {
    await context.close();
  }
}

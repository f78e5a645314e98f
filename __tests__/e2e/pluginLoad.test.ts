/**
 * The plugin-load measurement of the benchmark (bench/plugin/pageLoad.ts): the plugin bundle loads
 * in the workbench page through the workbench's obsidian shim, and the page reports what the
 * benchmark reads (load and onload times, what onload registered) without errors.
 */
import { rmSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Browser } from 'playwright-core';
import { loadOnce } from '../../bench/plugin/pageLoad';
import { startWorkbenchServer, type WorkbenchServer } from '../../workbench/server';
import { copyVault } from '../../workbench/vaultCopy';
import { openBrowser } from './browser';
import { ensureBundles } from './harness';

let browser: Browser;
let server: WorkbenchServer;
let vaultDir: string;

beforeAll(async () => {
  await ensureBundles();
  vaultDir = copyVault();
  server = await startWorkbenchServer({ vaultDir, providerUrl: null });
  browser = await openBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (vaultDir) rmSync(dirname(vaultDir), { recursive: true, force: true });
});

test('a fresh page loads the plugin and reports its load times and registrations', async () => {
  const sample = await loadOnce(browser, server.url);
  expect(sample.error).toBeNull();
  for (const ms of [sample.loadMs, sample.onloadMs, sample.totalMs]) {
    expect(Number.isFinite(ms)).toBe(true);
    expect(ms).toBeGreaterThanOrEqual(0);
  }
  expect(sample.totalMs).toBeCloseTo(sample.loadMs + sample.onloadMs, 6);
  expect(sample.fetchMs).toBeGreaterThanOrEqual(0);
  expect(sample.fetchMs).toBeLessThanOrEqual(sample.loadMs);
  expect(sample.commands).toBeGreaterThan(0);
  expect(sample).toMatchObject({ views: 2 /* the chat and related notes */, settingTabs: 1, ribbonIcons: 1 });
});

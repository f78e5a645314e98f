/**
 * Before the browser suites (jest.config.cjs, project "browser"): build the workbench page and the
 * plugin once, and launch the one Chromium every suite connects to (./browser.ts).
 */
import type { BrowserServer } from 'playwright-core';
import { BROWSER_WS_ENV, launchBrowserServer } from './browser';
import { ensureBundles } from './harness';

export default async function globalSetup(): Promise<void> {
  // Every test waits for this set-up: the build and the browser start side by side.
  const launching = launchBrowserServer();
  try {
    await ensureBundles();
  } catch (e) {
    await (await launching.catch(() => null))?.close();
    throw e;
  }
  const server = await launching;
  // Workers start after this and inherit the environment.
  process.env[BROWSER_WS_ENV] = server.wsEndpoint();
  (globalThis as { strataBrowser?: BrowserServer }).strataBrowser = server;
}

/**
 * One Chromium for the whole browser run: jest's globalSetup for the browser suites
 * (__tests__/e2e/globalSetup.ts) launches it once and each test file connects to it, so no file pays
 * for starting a browser. A file run outside that set-up launches its own.
 */
import { chromium, type Browser, type BrowserServer } from 'playwright-core';
import { CHROMIUM_ARGS, chromiumPath } from '../../workbench/chromium';

/** The shared browser's WebSocket endpoint, handed from globalSetup to the workers through the environment. */
export const BROWSER_WS_ENV = 'STRATA_BROWSER_WS';

export function launchBrowserServer(): Promise<BrowserServer> {
  return chromium.launchServer({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}

/** The run's shared browser when there is one, else a browser of this file's own; close() either way. */
export function openBrowser(): Promise<Browser> {
  const ws = process.env[BROWSER_WS_ENV];
  if (ws) return chromium.connect(ws);
  return chromium.launch({ executablePath: chromiumPath(), headless: true, args: CHROMIUM_ARGS });
}

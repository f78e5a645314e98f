/** After the browser suites: close the shared Chromium that globalSetup launched. */
import type { BrowserServer } from 'playwright-core';
import { BROWSER_WS_ENV } from './browser';

export default async function globalTeardown(): Promise<void> {
  const holder = globalThis as { strataBrowser?: BrowserServer };
  await holder.strataBrowser?.close();
  holder.strataBrowser = undefined;
  delete process.env[BROWSER_WS_ENV];
}

/** Debian's Chromium for the workbench in a headless browser: the e2e tests and the plugin-load benchmark. */
import { existsSync } from 'node:fs';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export function chromiumPath(): string {
  const path = process.env.STRATA_CHROMIUM ?? '/usr/bin/chromium';
  if (!existsSync(path)) throw new Error(`Chromium not found at ${path}: install Debian's chromium (apt-get install chromium) or set STRATA_CHROMIUM`);
  return path;
}

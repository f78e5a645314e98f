/**
 * The headless browser for the workbench: the e2e tests, the plugin-load benchmark and `npm test`'s
 * pretest step (scripts/ensure-chromium.ts) all find it here, so they agree on what "no browser" means.
 */
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';

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

/** Debian's package puts it here; looked at before PATH so a machine with several browsers is predictable. */
export const DEBIAN_CHROMIUM = '/usr/bin/chromium';
/** Names looked up on PATH, in order (Debian/Arch, Ubuntu's older name, Google's build). */
export const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome'] as const;

/** What to do when no browser is found: the one message the pretest step and the harness both give. */
export const CHROMIUM_HELP = [
  `The browser tests need Chromium or Chrome, and none was found (looked at STRATA_CHROMIUM, ${DEBIAN_CHROMIUM}, then ${CHROMIUM_NAMES.join(' / ')} on PATH).`,
  'Install it: on Debian or Ubuntu run `sudo apt-get update && sudo apt-get install chromium` (or run `npm test` as root, which installs it),',
  'or point STRATA_CHROMIUM at an existing Chromium or Chrome, e.g. `STRATA_CHROMIUM=/opt/google/chrome/chrome npm test`.',
].join('\n');

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The browser to drive: STRATA_CHROMIUM when set (it must exist: a wrong pointer is an error, not a
 * reason to pick another browser), else /usr/bin/chromium, else the first of CHROMIUM_NAMES on PATH.
 * null when none.
 */
export function findChromium(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  const pinned = env.STRATA_CHROMIUM;
  if (pinned) {
    if (!existsSync(pinned)) throw new Error(`STRATA_CHROMIUM points at ${pinned}, which does not exist: point it at an existing Chromium or Chrome, or unset it to use ${DEBIAN_CHROMIUM} or PATH.`);
    return pinned;
  }
  if (executable(DEBIAN_CHROMIUM)) return DEBIAN_CHROMIUM;
  const dirs = (env.PATH ?? '').split(delimiter).filter(Boolean);
  for (const name of CHROMIUM_NAMES) {
    for (const dir of dirs) {
      const candidate = join(dir, name);
      if (executable(candidate)) return candidate;
    }
  }
  return null;
}

/** The browser to drive, or an error saying what to install (no test runs without its browser). */
export function chromiumPath(): string {
  const path = findChromium();
  if (!path) throw new Error(CHROMIUM_HELP);
  return path;
}

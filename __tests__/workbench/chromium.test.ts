/**
 * How the browser is found (workbench/chromium.ts), the one lookup of npm test's pretest step and the
 * e2e harness: STRATA_CHROMIUM first (and only: a wrong pointer is an error), then
 * /usr/bin/chromium, then chromium / chromium-browser / google-chrome on PATH, in that order.
 */
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_HELP, DEBIAN_CHROMIUM, findChromium } from '../../workbench/chromium';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'strata-chromium-lookup-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function executable(path: string): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, '#!/bin/sh\n');
  chmodSync(path, 0o755);
  return path;
}

test('STRATA_CHROMIUM wins, and a pointer to nothing is an error that says so', () => {
  const pinned = executable(join(dir, 'my-chrome'));
  expect(findChromium({ STRATA_CHROMIUM: pinned, PATH: '' })).toBe(pinned);
  expect(() => findChromium({ STRATA_CHROMIUM: join(dir, 'missing'), PATH: '' })).toThrow(/STRATA_CHROMIUM points at .*missing, which does not exist/);
});

test('PATH is searched by name in order (chromium, chromium-browser, google-chrome), first directory first', () => {
  // Only meaningful where Debian's own path is absent; where it is there, it wins over PATH.
  const a = join(dir, 'a');
  const b = join(dir, 'b');
  executable(join(b, 'google-chrome'));
  executable(join(a, 'chromium-browser'));
  const PATH = `${a}:${b}`;
  const expected = existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : join(a, 'chromium-browser');
  expect(findChromium({ PATH })).toBe(expected);
  executable(join(b, 'chromium'));
  expect(findChromium({ PATH })).toBe(existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : join(b, 'chromium'));
});

test('a file on PATH that is not executable does not count', () => {
  writeFileSync(join(dir, 'chromium'), '');
  expect(findChromium({ PATH: dir })).toBe(existsSync(DEBIAN_CHROMIUM) ? DEBIAN_CHROMIUM : null);
});

test('the message says what to install and how to point STRATA_CHROMIUM at a browser', () => {
  expect(CHROMIUM_HELP).toContain('apt-get install chromium');
  expect(CHROMIUM_HELP).toContain('STRATA_CHROMIUM=');
});

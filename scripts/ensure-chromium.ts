/**
 * `npm test`'s pretest step: the browser suites need Chromium. Finds it (workbench/chromium.ts, the
 * lookup the e2e harness uses); when none, installs Debian's `chromium` with apt-get where it can
 * (Debian or Ubuntu, as root or with passwordless sudo); otherwise stops before any test runs, saying
 * what to install. A run that cannot test the view must not pass, so there is no skip.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { CHROMIUM_HELP, findChromium } from '../workbench/chromium';

function fail(message: string): never {
  process.stderr.write(`\n${message}\n\n`);
  process.exit(1);
}

/** Debian, Ubuntu or a derivative of either, per /etc/os-release. */
function debianLike(): boolean {
  if (!existsSync('/etc/os-release')) return false;
  const release = readFileSync('/etc/os-release', 'utf8');
  const field = (name: string): string => new RegExp(`^${name}=["']?([^"'\\n]*)`, 'm').exec(release)?.[1] ?? '';
  return `${field('ID')} ${field('ID_LIKE')}`.split(/\s+/).some((id) => id === 'debian' || id === 'ubuntu');
}

/** How to run apt-get: directly as root, through `sudo -n` when it needs no password, else not at all. */
function privilege(): string[] | null {
  if (process.getuid?.() === 0) return [];
  const sudo = spawnSync('sudo', ['-n', 'true'], { stdio: 'ignore' });
  return sudo.status === 0 ? ['sudo', '-n'] : null;
}

/** Runs one apt-get step quietly; on failure shows the end of its output and stops. */
function aptGet(prefix: string[], args: string[]): void {
  const command = [...prefix, 'env', 'DEBIAN_FRONTEND=noninteractive', 'apt-get', ...args];
  const run = spawnSync(command[0], command.slice(1), { encoding: 'utf8' });
  if (run.status !== 0) {
    const output = `${run.stdout ?? ''}${run.stderr ?? ''}${run.error ? String(run.error) : ''}`.trim().split('\n').slice(-15).join('\n');
    fail(`\`${command.join(' ')}\` failed:\n${output}\n\n${CHROMIUM_HELP}`);
  }
}

function main(): void {
  let found: string | null;
  try {
    found = findChromium();
  } catch (e) {
    fail((e as Error).message);
  }
  if (found) return;

  const prefix = debianLike() ? privilege() : null;
  if (!prefix) fail(CHROMIUM_HELP);

  process.stdout.write("No Chromium found: installing Debian's chromium with apt-get for the browser tests…\n");
  aptGet(prefix, ['update', '-qq']);
  aptGet(prefix, ['install', '-y', '-qq', 'chromium']);
  const installed = findChromium();
  if (!installed) fail(`apt-get installed chromium, but no browser was found afterwards.\n${CHROMIUM_HELP}`);
  process.stdout.write(`Chromium installed: ${installed}\n`);
}

main();

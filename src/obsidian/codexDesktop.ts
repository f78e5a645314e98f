import { Platform } from 'obsidian';
import type { CodexDeps } from '../providers/codex/index';

/**
 * Strata's own CODEX_HOME: `~/.strata/codex`, outside the vault (Codex keeps its login and the
 * threads' transcripts there: neither should sync with the notes), and never the user's ~/.codex.
 * Null off the desktop app (isDesktopApp too: a tablet in the desktop layout has no Node).
 */
export function codexHomeFolder(): string | null {
  if (Platform.isDesktop && Platform.isDesktopApp) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports, no-undef -- desktop app only (guarded): the user's home folder
      const os = require('os') as typeof import('os');
      return `${os.homedir().replace(/[\\/]+$/, '')}/.strata/codex`;
    } catch {
      return null;
    }
  }
  return null;
}

/** What the Codex CLI provider needs from Node (spawn, fs, the home folder): desktop app only, loaded lazily. */
export function desktopCodex(): CodexDeps | undefined {
  const home = codexHomeFolder();
  if (Platform.isDesktop && Platform.isDesktopApp && home !== null) {
    try {
      // eslint-disable-next-line @typescript-eslint/no-require-imports, no-undef -- desktop app only (guarded): Node runs the codex CLI
      const childProcess = require('child_process') as typeof import('child_process');
      // eslint-disable-next-line @typescript-eslint/no-require-imports, no-undef -- desktop app only (guarded): Codex's folders and session files
      const fs = require('fs') as typeof import('fs');
      return { spawn: childProcess.spawn, files: fs.promises, home };
    } catch {
      return undefined; // No Node here after all: the provider then reports Codex as unsupported.
    }
  }
  return undefined;
}

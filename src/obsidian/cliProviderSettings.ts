/** The settings of the providers that run a CLI on the computer (Claude Code, Codex): desktop only. */
import { Platform, Setting } from 'obsidian';
import type { ProviderKind } from '../core/ports/chatModel';
import type { ProviderSettings } from '../core/settings/settings';
import { codexHomeFolder } from './codexDesktop';

export const CLI_KINDS: ReadonlySet<ProviderKind> = new Set<ProviderKind>(['claude-code', 'codex']);

/** Off the desktop app: why the CLI kinds are not offered, or why this one cannot run here. */
export function cliKindsUnavailable(kind: ProviderKind): string {
  if (kind === 'claude-code') return "Claude Code runs the claude command on a computer: it works only in Obsidian's desktop app, not on this device. Choose another kind to chat here.";
  if (kind === 'codex') return "The Codex CLI runs the codex command on a computer: it works only in Obsidian's desktop app, not on this device. Choose another kind to chat here.";
  return "Claude Code is not offered here, nor the Codex CLI: they run a command on a computer, in Obsidian's desktop app only.";
}

/** Executable and working directory, and for Codex where its login lives. */
export function cliFields(body: HTMLElement, provider: ProviderSettings, save: () => void): void {
  const codex = provider.kind === 'codex';
  new Setting(body)
    .setName('Executable')
    .setDesc(codex ? 'Empty: codex, found on the PATH.' : 'Empty: claude, found on the PATH.')
    .addText((text) =>
      text.setValue(provider.executable ?? '').onChange((value) => {
        if (value.trim()) provider.executable = value.trim();
        else delete provider.executable;
        save();
      }),
    );
  new Setting(body)
    .setName('Working directory')
    .setDesc(codex ? "Empty: an empty folder of Strata's. Codex runs read-only there and never asks for approvals." : 'Empty: where Obsidian runs.')
    .addText((text) =>
      text.setValue(provider.cwd ?? '').onChange((value) => {
        if (value.trim()) provider.cwd = value.trim();
        else delete provider.cwd;
        save();
      }),
    );
  if (!codex) return;
  const home = codexHomeFolder();
  if (home === null) return;
  const note = body.createDiv({ cls: 'strata-settings-note' });
  note.appendText("Strata keeps Codex's sessions and login in its own folder, never in your ~/.codex. Without an API key, log in there once from a terminal: ");
  // The shell's way of setting a variable for one command: PowerShell on Windows, sh elsewhere.
  note.createEl('code', { text: Platform.isWin ? `$env:CODEX_HOME="${home}"; codex login` : `CODEX_HOME="${home}" codex login` });
}

import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, promises as fs, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ProviderFactory } from '../../../src/core/ports/providerFactory';
import { loadSettings } from '../../../src/core/settings/settings';
import { createProvider } from '../../../src/providers';
import type { SpawnFn } from '../../../src/providers/cli/process';
import { providerConfigOf } from '../../../src/providers/providerConfig';

/** The Codex CLI as npm installs it with the dev dependencies (its wrapper execs the platform binary). */
export const CODEX_BIN = path.resolve(__dirname, '../../../node_modules/.bin/codex');
export const MODEL = 'gpt-5-codex';
export const CODEX_KEY = 'sk-test-codex-SECRET-0123456789';

/** Null when the real CLI runs here; otherwise why not (the tests then skip, loudly). */
export function codexUnavailable(): string | null {
  if (!existsSync(CODEX_BIN)) return `${CODEX_BIN} is not installed`;
  const probe = spawnSync(CODEX_BIN, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (probe.error) return `${CODEX_BIN} cannot execute: ${probe.error.message}`;
  if (probe.status !== 0) return `${CODEX_BIN} --version exited with ${probe.status}: ${probe.stderr}`;
  return null;
}

/**
 * A throwaway HOME (Codex must not see the machine's ~/.codex) and CODEX_HOME (the plugin's
 * folder), the real spawn recording each run's arguments and pid, and settings for a Codex
 * provider pointed at the local server with an API key.
 */
export function offlineCodex(serverUrl: string) {
  const root = mkdtempSync(path.join(os.tmpdir(), 'strata-codex-'));
  const home = path.join(root, 'codex-home');
  const userHome = path.join(root, 'user');
  const env: Record<string, string> = { PATH: process.env.PATH ?? '', HOME: userHome };
  const runs: Array<{ args: string[]; pid?: number; env: Record<string, string>; prompt: string }> = [];
  // The real spawn, recording each run's arguments, environment, pid and the prompt sent on stdin.
  const recordingSpawn: SpawnFn = (command, args, options) => {
    const child = spawn(command, args, options);
    const run = { args: [...args], ...(child.pid !== undefined ? { pid: child.pid } : {}), env: { ...(options.env ?? {}) }, prompt: '' };
    runs.push(run);
    const end = child.stdin.end.bind(child.stdin);
    child.stdin.end = ((chunk: string, encoding: 'utf8') => {
      run.prompt = chunk;
      return end(chunk, encoding);
    }) as typeof child.stdin.end;
    return child;
  };
  const providers: ProviderFactory = (p, model) =>
    createProvider(providerConfigOf(p, model), {
      getSecret: (id) => (id === 'codex-key' ? CODEX_KEY : null),
      codex: { spawn: recordingSpawn, files: fs, home, env },
    });
  const { settings, warnings } = loadSettings({
    providers: [{ id: 'codex', kind: 'codex', name: 'Codex', baseUrl: `${serverUrl}/v1`, executable: CODEX_BIN, models: [MODEL], secretId: 'codex-key' }],
    defaultProviderId: 'codex',
    defaultModel: MODEL,
    generateTitles: false,
  });
  if (warnings.length > 0) throw new Error(warnings.join('\n'));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  return { root, home, env, runs, spawn: recordingSpawn, providers, settings, cleanup };
}

interface InputItem {
  type?: string;
  role?: string;
  content?: string | Array<{ type?: string; text?: string }>;
}
export interface ResponsesBody {
  model: string;
  instructions?: string;
  input: InputItem[];
  store?: boolean;
}

export function itemText(item: InputItem): string {
  if (typeof item.content === 'string') return item.content;
  return (item.content ?? []).map((c) => c.text ?? '').join('\n');
}

/** The conversation's messages (developer instructions, user and assistant turns) as role: text. */
export function conversationText(body: ResponsesBody): string {
  return body.input.map((i) => `${i.role ?? i.type}: ${itemText(i)}`).join('\n\n');
}

export const byRole = (body: ResponsesBody, role: string): string[] => body.input.filter((i) => i.role === role).map(itemText);

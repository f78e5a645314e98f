import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ProviderConfig } from '../../../src/core/ports/chatModel';
import type { SpawnFn } from '../../../src/providers/cli/process';
import { isProviderError, type ProviderError } from '../../../src/providers/errors';

/**
 * The Claude Code CLI's native binary, from its platform package (an optional dependency: npm installs
 * the one for this machine). The `@anthropic-ai/claude-code` wrapper is not a dependency: its
 * releases that work with Strata ask for Node 22, and npm warned about it on every install.
 */
function claudeBinary(): string {
  const base = `@anthropic-ai/claude-code-${process.platform}-${process.arch}`;
  const file = process.platform === 'win32' ? 'claude.exe' : 'claude';
  const modules = path.resolve(__dirname, '../../../node_modules');
  const candidates = [base, `${base}-musl`].map((pkg) => path.join(modules, pkg, file));
  return candidates.find((candidate) => existsSync(candidate)) ?? candidates[0];
}

export const CLAUDE_BIN = claudeBinary();

/** The Claude Code provider as the tests configure it: the CLI installed with the dev dependencies. */
export const CONFIG: ProviderConfig = { id: 'cc', kind: 'claude-code', model: 'claude-sonnet-4-5', executable: CLAUDE_BIN };

/** The ProviderError a call fails with (the test fails if it succeeds or throws anything else). */
export async function failure(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (isProviderError(error)) return error;
    throw new Error('expected a ProviderError', { cause: error });
  }
  throw new Error('expected the call to fail');
}

/** Null when the real CLI runs here; otherwise why not (the tests then skip, loudly). */
export function claudeUnavailable(): string | null {
  const probe = spawnSync(CLAUDE_BIN, ['--version'], { encoding: 'utf8', timeout: 60_000 });
  if (probe.error) return `${CLAUDE_BIN} cannot execute: ${probe.error.message}`;
  if (probe.status !== 0) return `${CLAUDE_BIN} --version exited with ${probe.status}: ${probe.stderr}`;
  return null;
}

/** A throwaway HOME and working directory, and the offline environment pointing the CLI at `baseUrl`. */
export function offlineCli(baseUrl: string) {
  const home = mkdtempSync(path.join(os.tmpdir(), 'strata-cc-home-'));
  const cwd = mkdtempSync(path.join(os.tmpdir(), 'strata-cc-cwd-'));
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    HOME: home,
    ANTHROPIC_BASE_URL: baseUrl,
    ANTHROPIC_API_KEY: 'sk-ant-dummy-local-test-key',
    DISABLE_TELEMETRY: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    DISABLE_AUTOUPDATER: '1',
  };
  const runs: string[][] = [];
  // The real spawn, recording each run's arguments.
  const recordingSpawn: SpawnFn = (command, args, options) => {
    runs.push([...args]);
    return spawn(command, args, options);
  };
  const cleanup = () => {
    rmSync(home, { recursive: true, force: true });
    rmSync(cwd, { recursive: true, force: true });
  };
  return { home, cwd, env, runs, spawn: recordingSpawn, cleanup };
}

interface WireBlock {
  type?: string;
  text?: string;
}
interface WireMessage {
  role: string;
  content: string | WireBlock[];
}
export interface WireRequest {
  system?: string | WireBlock[];
  messages: WireMessage[];
}

function blocksText(content: string | WireBlock[] | undefined): string {
  if (content === undefined) return '';
  if (typeof content === 'string') return content;
  return content.map((b) => b.text ?? '').join('\n');
}

export function systemText(body: WireRequest): string {
  return blocksText(body.system);
}

export function messagesText(body: WireRequest): string {
  return body.messages.map((m) => `${m.role}: ${blocksText(m.content)}`).join('\n\n');
}

export function userTexts(body: WireRequest): string[] {
  return body.messages.filter((m) => m.role === 'user').map((m) => blocksText(m.content));
}

import { capabilitiesFor } from '../capabilities';
import type { ProviderError } from '../errors';
import { DEFAULT_TIMERS, type Timers } from '../../core/timers';
import type { ChatProvider, ChatRequest, ChatResult, ProviderConfig } from '../../core/ports/chatModel';
import { cliArgs } from './args';
import { cliEnvironment, redactCliText, secretValues } from './environment';
import { cliError, runFailure } from './errors';
import { cliPrompt } from './prompt';
import { StreamJsonReader } from './streamJson';

/** The parts of a child process the provider uses (child_process.spawn's ChildProcess has them). */
export interface CliChild {
  readonly stdin: { on(event: 'error', listener: (error: Error) => void): unknown; end(chunk: string, encoding: 'utf8'): unknown } | null;
  readonly stdout: CliOutput | null;
  readonly stderr: CliOutput | null;
  readonly exitCode: number | null;
  readonly signalCode: string | null;
  kill(signal?: 'SIGTERM'): boolean;
  on(event: 'error', listener: (error: Error & { code?: string }) => void): unknown;
  on(event: 'close', listener: (code: number | null, signal: string | null) => void): unknown;
}

interface CliOutput {
  setEncoding(encoding: 'utf8'): unknown;
  on(event: 'data', listener: (chunk: string) => void): unknown;
}

export interface CliSpawnOptions {
  cwd?: string;
  /** Absent: the child inherits this process's environment (spawn's default). */
  env?: Record<string, string>;
  stdio: ['pipe', 'pipe', 'pipe'];
  windowsHide: boolean;
}

/** child_process.spawn, reduced to the call the provider makes. */
export type SpawnFn = (command: string, args: string[], options: CliSpawnOptions) => CliChild;

export interface ClaudeCodeDeps {
  /**
   * child_process.spawn. Injected, because child_process exists on desktop only: the plugin passes
   * it when Platform.isDesktop; without it send() rejects with an 'unsupported' error.
   */
  spawn?: SpawnFn;
  /**
   * The CLI's whole environment. Given: used as it is (tests point ANTHROPIC_BASE_URL at the local
   * server with a temporary HOME). Absent: the variables of parentEnv the CLI needs (cliEnvironment).
   */
  env?: Record<string, string>;
  /** The environment Strata runs in. Default: this process's. Its credentials are redacted from every error. */
  parentEnv?: Readonly<Record<string, string | undefined>>;
  /** Longest silence (no output from the CLI) before the run is stopped as timed out. Default 180 s. */
  inactivityMs?: number;
  timers?: Timers;
}

/** The CLI retries API errors itself, so allow it longer than the HTTP providers' 120 s of silence. */
export const CLAUDE_CODE_INACTIVITY_MS = 180_000;


/**
 * Claude Code as a session-stateful provider: each send() runs the real `claude` executable once,
 * headless (`-p`, stream-json), in config.cwd, resuming request.sessionId when given. The prompt
 * (the MessageCompiler's delta on resume) goes on stdin. Resolves with the reply text, the
 * normalised usage and the session id to resume next time; rejects with a ProviderError.
 */
export function createClaudeCodeProvider(config: ProviderConfig, deps: ClaudeCodeDeps = {}): ChatProvider {
  const capabilities = capabilitiesFor(config);
  return {
    config,
    capabilities,
    send: (request) => runClaude(config, deps, request),
  };
}

function runClaude(config: ProviderConfig, deps: ClaudeCodeDeps, request: ChatRequest): Promise<ChatResult> {
  const executable = config.executable?.trim() || 'claude';
  // eslint-disable-next-line no-undef -- desktop only (a spawn exists): Strata's own environment
  const parent = deps.parentEnv ?? (typeof process !== 'undefined' ? process.env : {});
  const env = deps.env ?? cliEnvironment(parent);
  // Every credential Strata or the CLI holds is redacted verbatim; redactCliText also catches key-shaped text.
  const secrets = secretValues(parent, env);
  const timers = deps.timers ?? DEFAULT_TIMERS;
  const inactivityMs = deps.inactivityMs ?? CLAUDE_CODE_INACTIVITY_MS;
  const resumed = request.sessionId;
  const spawn = deps.spawn;
  if (!spawn) return Promise.reject(cliError(config, 'unsupported', 'Claude Code runs only in the desktop app'));
  if (request.signal?.aborted) return Promise.reject(cliError(config, 'aborted', 'the request was stopped before it started'));

  let prompt;
  let args: string[];
  try {
    prompt = cliPrompt(request.messages, resumed !== undefined);
    args = cliArgs(config, prompt, resumed);
  } catch (error) {
    return Promise.reject(cliError(config, 'bad-request', (error as Error).message));
  }

  return new Promise<ChatResult>((resolve, reject) => {
    const reader = new StreamJsonReader(request.onToken);
    let stderr = '';
    let settled = false;
    let child: CliChild;
    let timer: unknown = null;
    const finish = (outcome: { result: ChatResult } | { error: ProviderError }) => {
      if (settled) return;
      settled = true;
      if (timer !== null) timers.clearTimeout(timer);
      request.signal?.removeEventListener('abort', onAbort);
      if ('result' in outcome) resolve(outcome.result);
      else reject(outcome.error);
    };
    const onAbort = () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      finish({ error: cliError(config, 'aborted', 'the request was stopped') });
    };
    // A CLI that says nothing for too long (stalled API, hung process) is stopped, not waited on forever.
    const armTimer = () => {
      if (timer !== null) timers.clearTimeout(timer);
      timer = timers.setTimeout(() => {
        if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
        finish({ error: cliError(config, 'timeout', `no output from ${executable} for ${Math.round(inactivityMs / 1000)} s`) });
      }, inactivityMs);
    };

    try {
      child = spawn(executable, args, {
        ...(config.cwd ? { cwd: config.cwd } : {}),
        env,
        stdio: ['pipe', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (error) {
      finish({ error: cliError(config, 'unsupported', `cannot start ${executable}: ${redactCliText((error as Error).message, secrets)}`) });
      return;
    }
    request.signal?.addEventListener('abort', onAbort, { once: true });
    armTimer();

    child.on('error', (error) => {
      const what = error.code === 'ENOENT' ? `${executable} was not found` : `cannot run ${executable}: ${redactCliText(error.message, secrets)}`;
      finish({ error: cliError(config, error.code === 'ENOENT' ? 'unsupported' : 'server', what) });
    });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (settled) return;
      armTimer();
      reader.push(chunk);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      // Bounded: only the tail is ever reported.
      stderr = (stderr + chunk).slice(-8192);
    });
    child.on('close', (code, signal) => {
      reader.end();
      const result = reader.result;
      if (code === 0 && result?.ok) {
        finish({
          result: {
            text: result.text,
            usage: result.usage,
            ...(result.sessionId ? { sessionId: result.sessionId } : {}),
            ...(result.model && result.model !== config.model ? { model: result.model } : {}),
          },
        });
        return;
      }
      finish({ error: runFailure(config, { code, signal, stderr, result, stray: reader.stray, ...(resumed ? { resumed } : {}) }, secrets) });
    });
    // The CLI may exit before reading stdin (bad flags, missing session): its exit code says why.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(prompt.prompt, 'utf8');
  });
}

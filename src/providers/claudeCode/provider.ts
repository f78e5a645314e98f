import { capabilitiesFor } from '../capabilities';
import { DEFAULT_TIMERS, type Timers } from '../../core/timers';
import type { ChatProvider, ChatRequest, ChatResult, ProviderConfig } from '../../core/ports/chatModel';
import { cliArgs } from './args';
import { secretValues } from '../cli/environment';
import { cliEnvironment } from './environment';
import { claudeCodeError, runFailure } from './errors';
import { runCliProcess, type SpawnFn } from '../cli/process';
import { cliPrompt } from '../cli/prompt';
import { StreamJsonReader } from './streamJson';

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
  if (!spawn) return Promise.reject(claudeCodeError(config, 'unsupported', 'Claude Code runs only in the desktop app'));
  if (request.signal?.aborted) return Promise.reject(claudeCodeError(config, 'aborted', 'the request was stopped before it started'));

  let prompt;
  let args: string[];
  try {
    prompt = cliPrompt(request.messages, resumed !== undefined);
    args = cliArgs(config, prompt, resumed);
  } catch (error) {
    return Promise.reject(claudeCodeError(config, 'bad-request', (error as Error).message));
  }

  const reader = new StreamJsonReader(request.onToken);
  return runCliProcess<ChatResult>({
    config,
    spawn,
    executable,
    args,
    options: { ...(config.cwd ? { cwd: config.cwd } : {}), env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true },
    input: prompt.prompt,
    ...(request.signal ? { signal: request.signal } : {}),
    timers,
    inactivityMs,
    secrets,
    error: claudeCodeError,
    stdout: (chunk) => reader.push(chunk),
    closed: (code, signal, stderr) => {
      reader.end();
      const result = reader.result;
      if (code === 0 && result?.ok) {
        return {
          value: {
            text: result.text,
            usage: result.usage,
            ...(result.sessionId ? { sessionId: result.sessionId } : {}),
            ...(result.model && result.model !== config.model ? { model: result.model } : {}),
          },
        };
      }
      return { error: runFailure(config, { code, signal, stderr, result, stray: reader.stray, ...(resumed ? { resumed } : {}) }, secrets) };
    },
  }).then((outcome) => {
    if ('error' in outcome) throw outcome.error;
    return outcome.value;
  });
}

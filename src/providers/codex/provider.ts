import { capabilitiesFor } from '../capabilities';
import { DEFAULT_TIMERS, type Timers } from '../../core/timers';
import type { ChatProvider, ChatRequest, ChatResult, ProviderConfig } from '../../core/ports/chatModel';
import { cliPrompt } from '../cli/prompt';
import { redactCliText, secretValues } from '../cli/environment';
import { runCliProcess, type CliChild, type SpawnFn } from '../cli/process';
import { codexArgs } from './args';
import { codexEnvironment } from './environment';
import { codexError, runFailure } from './errors';
import { CodexEventReader } from './events';
import { markRollout, rollBack, runUsage, THREAD_ID, type CodexFiles } from './rollout';
import { killTree, type ProcessKill } from './stop';

export interface CodexDeps {
  /** child_process.spawn: desktop only (the plugin passes it when Platform.isDesktopApp). */
  spawn?: SpawnFn;
  /** fs/promises, for the plugin-owned folders and the thread's usage (rollout.ts). */
  files?: CodexFiles;
  /** CODEX_HOME: a folder of the plugin's (the user's ~/.codex is never used). */
  home?: string;
  /** Looks the API key up by config.secretId (at each run; never stored). */
  getSecret?: (id: string) => string | null | Promise<string | null>;
  /** The CLI's environment before CODEX_HOME and the key are added. Absent: codexEnvironment(parentEnv). */
  env?: Record<string, string>;
  /** The environment Strata runs in. Default: this process's. Its credentials are redacted from every error. */
  parentEnv?: Readonly<Record<string, string | undefined>>;
  /** Longest silence (no output) before the run is stopped as timed out. Default 180 s. */
  inactivityMs?: number;
  timers?: Timers;
  /** process.platform (Windows stops a process tree with taskkill). */
  platform?: string;
  /** process.kill (a negative pid signals the process group). */
  processKill?: ProcessKill;
}

/** Codex retries stream errors itself; a reasoning model may think a while before its first event. */
export const CODEX_INACTIVITY_MS = 180_000;
/** Longest wait for a stopped run to exit before its thread is rolled back. */
const ROLLBACK_WAIT_MS = 5_000;

/**
 * The Codex CLI as a session-stateful provider: each send() runs the `codex` executable once,
 * headless (`codex exec --json`, or `codex exec resume <thread>` when request.sessionId is given),
 * read-only and without approval prompts, with CODEX_HOME in the plugin's folder. The prompt (the
 * MessageCompiler's delta on resume) goes on stdin. Resolves with the reply, this run's usage and
 * the thread id to resume next time; rejects with a ProviderError whose text has every secret removed.
 */
export function createCodexProvider(config: ProviderConfig, deps: CodexDeps = {}): ChatProvider {
  return { config, capabilities: capabilitiesFor(config), send: (request) => runCodex(config, deps, request) };
}

async function runCodex(config: ProviderConfig, deps: CodexDeps, request: ChatRequest): Promise<ChatResult> {
  const executable = config.executable?.trim() || 'codex';
  const spawn = deps.spawn;
  const home = deps.home;
  if (!spawn) throw codexError(config, 'unsupported', 'the Codex CLI runs only in the desktop app');
  if (!home) throw codexError(config, 'unsupported', 'there is no folder for Codex to keep its sessions in');
  if (request.signal?.aborted) throw codexError(config, 'aborted', 'the request was stopped before it started');
  const resumed = request.sessionId;
  // resume takes anything else as a thread *name* and may start a new thread: only ids Codex gave.
  if (resumed !== undefined && !THREAD_ID.test(resumed)) {
    throw codexError(config, 'bad-request', `"${resumed}" is not a Codex thread id`, { sessionInvalid: true });
  }
  const apiKey = (config.secretId ? await deps.getSecret?.(config.secretId) : null) ?? undefined;
  // eslint-disable-next-line no-undef -- desktop only (a spawn exists): Strata's own environment
  const parent = deps.parentEnv ?? (typeof process !== 'undefined' ? process.env : {});
  const env = deps.env ? { ...deps.env, CODEX_HOME: home, ...(apiKey ? { STRATA_CODEX_API_KEY: apiKey } : {}) } : codexEnvironment(parent, home, apiKey);
  const secrets = secretValues(parent, env, { key: apiKey });
  const cwd = config.cwd?.trim() || `${home}/work`;

  let prompt;
  let args: string[];
  try {
    prompt = cliPrompt(request.messages, resumed !== undefined);
    args = codexArgs(config, { ...(prompt.systemPrompt !== undefined ? { instructions: prompt.systemPrompt } : {}), ...(resumed ? { threadId: resumed } : {}), keyed: apiKey !== undefined });
  } catch (error) {
    throw codexError(config, 'bad-request', (error as Error).message);
  }
  try {
    await deps.files?.mkdir(home, { recursive: true });
    await deps.files?.mkdir(cwd, { recursive: true });
  } catch (error) {
    throw codexError(config, 'unsupported', `cannot create ${cwd}: ${redactCliText((error as Error).message, secrets)}`);
  }

  // A resumed thread's rollout before the run: a stopped or failed run is cut back to it.
  const mark = resumed && deps.files ? await markRollout(deps.files, home, resumed) : null;
  let exited: Promise<void> = Promise.resolve();
  const reader = new CodexEventReader(request.onToken);
  const timers = deps.timers ?? DEFAULT_TIMERS;
  // eslint-disable-next-line no-undef -- desktop only: the platform decides how a process tree is stopped
  const platform = deps.platform ?? (typeof process !== 'undefined' ? process.platform : 'linux');
  const run = await runCliProcess<{ result: ChatResult; threadId: string }>({
    config,
    spawn,
    executable,
    args,
    options: { cwd, env, stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true, ...(platform === 'win32' ? {} : { detached: true }) },
    input: prompt.prompt,
    ...(request.signal ? { signal: request.signal } : {}),
    timers,
    inactivityMs: deps.inactivityMs ?? CODEX_INACTIVITY_MS,
    secrets,
    error: codexError,
    stop: (child: CliChild) => killTree(child, { platform, spawn, ...(deps.processKill ? { processKill: deps.processKill } : {}) }),
    started: (child) => {
      exited = new Promise<void>((done) => {
        child.on('close', () => done());
        child.on('error', () => done());
      });
    },
    stdout: (chunk) => reader.push(chunk),
    closed: (code, signal, stderr) => {
      reader.end();
      const outcome = reader.outcome;
      const threadId = reader.threadId ?? resumed;
      // Error events before turn.completed were retries Codex recovered from ("Reconnecting… 2/5"): the turn counts.
      if (code === 0 && outcome.completed && threadId) {
        return { value: { result: { text: outcome.text, usage: outcome.totalUsage ?? { inputTokens: 0, outputTokens: 0, cachedReadTokens: 0, cacheWriteTokens: 0 }, sessionId: threadId }, threadId } };
      }
      return { error: runFailure(config, { code, signal, stderr, outcome, stray: reader.stray, ...(resumed ? { resumed } : {}) }, secrets) };
    },
  });
  if ('error' in run) {
    if (mark && deps.files) {
      // Only once Codex has exited (SIGTERM: promptly; bounded anyway) can its rollout be cut back.
      let timer: unknown = null;
      await Promise.race([exited, new Promise<void>((done) => (timer = timers.setTimeout(done, ROLLBACK_WAIT_MS)))]);
      if (timer !== null) timers.clearTimeout(timer);
      await rollBack(deps.files, mark);
    }
    throw run.error;
  }
  // turn.completed reports the thread's running total; this run's own is in the thread's rollout.
  const own = deps.files ? await runUsage(deps.files, home, run.value.threadId) : null;
  return own ? { ...run.value.result, usage: own } : run.value.result;
}

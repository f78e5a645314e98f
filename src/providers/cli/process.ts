import type { ProviderError } from '../errors';
import type { Timers } from '../../core/timers';
import type { CliErrorFn } from './cliError';
import type { ProviderConfig } from '../../core/ports/chatModel';
import { redactCliText } from './environment';

/** The parts of a child process the CLI providers use (child_process.spawn's ChildProcess has them). */
export interface CliChild {
  readonly pid?: number;
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
  /** POSIX: the child leads its own process group, so stopping it can stop what it started. */
  detached?: boolean;
}

/** child_process.spawn, reduced to the call the providers make. */
export type SpawnFn = (command: string, args: string[], options: CliSpawnOptions) => CliChild;

/** How a run ended: the provider's result, or the error to report. */
export type CliOutcome<T> = { value: T } | { error: ProviderError };

export interface CliRun<T> {
  readonly config: ProviderConfig;
  readonly spawn: SpawnFn;
  readonly executable: string;
  readonly args: string[];
  readonly options: CliSpawnOptions;
  /** Written to stdin, which is then closed. */
  readonly input: string;
  readonly signal?: AbortSignal;
  readonly timers: Timers;
  /** Longest silence (no stdout) before the run is stopped as timed out. */
  readonly inactivityMs: number;
  /** Redacted from every error text. */
  readonly secrets: readonly string[];
  /** The provider's error builder (its label and advice). */
  readonly error: CliErrorFn;
  /** Stops the child on Stop or a timeout. Default: SIGTERM to the child while it runs. */
  readonly stop?: (child: CliChild) => void;
  /** Called once the child is started (before any of its output). */
  readonly started?: (child: CliChild) => void;
  /** Each chunk of stdout, as UTF-8 text, while the run is not settled. */
  readonly stdout: (chunk: string) => void;
  /** The child closed: its exit code, the signal that ended it and the tail of its stderr. */
  readonly closed: (code: number | null, signal: string | null, stderr: string) => CliOutcome<T>;
}

/** Only the tail of stderr is ever reported. */
const STDERR_TAIL = 8192;

function stopChild(child: CliChild): void {
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
}

/**
 * Runs a CLI once: spawns it, writes the prompt to stdin, passes stdout on, and settles exactly
 * once, whichever comes first: the child closing, the user's Stop, a start failure, or a silence
 * longer than inactivityMs (a stalled API or a hung process is stopped, not waited on forever).
 */
export function runCliProcess<T>(run: CliRun<T>): Promise<CliOutcome<T>> {
  const { config, executable, secrets, timers, inactivityMs } = run;
  const stop = run.stop ?? stopChild;
  return new Promise<CliOutcome<T>>((resolve) => {
    let stderr = '';
    let settled = false;
    let child: CliChild;
    let timer: unknown = null;
    const finish = (outcome: CliOutcome<T>) => {
      if (settled) return;
      settled = true;
      if (timer !== null) timers.clearTimeout(timer);
      run.signal?.removeEventListener('abort', onAbort);
      resolve(outcome);
    };
    const onAbort = () => {
      stop(child);
      finish({ error: run.error(config, 'aborted', 'the request was stopped') });
    };
    const armTimer = () => {
      if (timer !== null) timers.clearTimeout(timer);
      timer = timers.setTimeout(() => {
        stop(child);
        finish({ error: run.error(config, 'timeout', `no output from ${executable} for ${Math.round(inactivityMs / 1000)} s`) });
      }, inactivityMs);
    };

    try {
      child = run.spawn(executable, run.args, run.options);
    } catch (error) {
      finish({ error: run.error(config, 'unsupported', `cannot start ${executable}: ${redactCliText((error as Error).message, secrets)}`) });
      return;
    }
    run.started?.(child);
    run.signal?.addEventListener('abort', onAbort, { once: true });
    armTimer();

    child.on('error', (error) => {
      const what = error.code === 'ENOENT' ? `${executable} was not found` : `cannot run ${executable}: ${redactCliText(error.message, secrets)}`;
      finish({ error: run.error(config, error.code === 'ENOENT' ? 'unsupported' : 'server', what) });
    });
    child.stdout?.setEncoding('utf8');
    child.stdout?.on('data', (chunk: string) => {
      if (settled) return;
      armTimer();
      run.stdout(chunk);
    });
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_TAIL);
    });
    child.on('close', (code, signal) => finish(run.closed(code, signal, stderr)));
    // The CLI may exit before reading stdin (bad flags, a missing session): its exit code says why.
    child.stdin?.on('error', () => undefined);
    child.stdin?.end(run.input, 'utf8');
  });
}

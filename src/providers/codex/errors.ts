import { providerLabel, type ProviderError, type ProviderErrorKind } from '../errors';
import { cliErrorBuilder, summarise } from '../cli/cliError';
import type { ProviderConfig } from '../../core/ports/chatModel';
import type { CodexOutcome } from './events';

const ADVICE: Readonly<Record<ProviderErrorKind, string>> = {
  auth: "Set an API key for this provider in Strata's settings, or log Codex in to Strata's own Codex folder (the command is in the provider's settings).",
  'rate-limited': 'Wait a moment and send again.',
  server: 'Send again; if it keeps failing, run `codex exec "hi"` in a terminal to see what the CLI reports.',
  'bad-request': 'Send again; the conversation will start a new Codex session.',
  timeout: 'Send again.',
  aborted: 'Your message is kept; send it again when ready.',
  network: 'Check the network connection and send again.',
  unsupported: 'Install the Codex CLI (npm install -g @openai/codex) or set the path to the codex executable in settings.',
};

export const codexError = cliErrorBuilder((config) => providerLabel(config.kind, config.id, config.name), ADVICE);

/** The HTTP status in Codex's error text ("unexpected status 401 Unauthorized: …"), when it names one. */
export function statusIn(text: string): number | undefined {
  const match = /\b(?:status|http)\s*:?\s*([1-5]\d\d)\b/i.exec(text);
  return match ? Number(match[1]) : undefined;
}

function kindFor(status: number | undefined, text: string): ProviderErrorKind {
  if (status === 401 || status === 403 || /not logged in|login required|unauthori[sz]ed/i.test(text)) return 'auth';
  if (status === 429 || /rate limit|usage limit/i.test(text)) return 'rate-limited';
  if (status === undefined && /error sending request|connection refused|dns error|timed out/i.test(text)) return 'network';
  if (status === undefined || status >= 500) return 'server';
  return 'bad-request';
}

/** A run that ended without a completed turn: exit code, the CLI's error events and stderr, summarised and redacted. */
export function runFailure(
  config: ProviderConfig,
  run: { code: number | null; signal: string | null; stderr: string; outcome: CodexOutcome; stray: readonly string[]; resumed?: string },
  secrets: readonly string[],
): ProviderError {
  const all = [...run.outcome.errors, run.stderr, ...run.stray];
  const reported = all.join('\n');
  // The CLI's error events say what went wrong; its stderr (warnings, logs) only when there are none.
  const detail = summarise(run.outcome.errors.length > 0 ? run.outcome.errors : all, secrets);
  // `codex exec resume` of a thread whose rollout is gone: "no rollout found for thread id …".
  const sessionInvalid = run.resumed !== undefined && /no rollout found|thread not found|no (?:such )?(?:thread|session|conversation)/i.test(reported);
  const how = run.signal ? `was stopped by ${run.signal}` : run.code === 0 ? 'ended without an answer' : `exited with code ${run.code ?? '?'}`;
  const status = statusIn(run.outcome.errors.join('\n'));
  const kind = sessionInvalid ? 'bad-request' : kindFor(status, reported);
  const what = sessionInvalid
    ? `the session ${run.resumed ?? ''} no longer exists (${detail})`
    : `the CLI ${how}${status !== undefined ? ` after HTTP ${status}` : ''}${detail ? `: ${detail}` : ''}`;
  return codexError(config, kind, what, { ...(status !== undefined ? { status } : {}), sessionInvalid });
}

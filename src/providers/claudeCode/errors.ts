import { ProviderError, providerLabel, type ProviderErrorKind } from '../errors';
import { redactCliText } from './environment';
import type { ProviderConfig } from '../../core/ports/chatModel';
import type { CliResult } from './streamJson';

const MAX_DETAIL = 400;

/** The last meaningful lines of the CLI's reports (each redacted on its own), bounded. */
export function summarise(texts: readonly string[], secrets: readonly string[]): string {
  const lines = texts
    .map((text) => redactCliText(text, secrets))
    .join('\n')
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  const tail = lines.slice(-3).join(' | ');
  return tail.length > MAX_DETAIL ? `…${tail.slice(-MAX_DETAIL)}` : tail;
}

function kindForStatus(status: number | undefined): ProviderErrorKind {
  if (status === undefined) return 'server';
  if (status === 401 || status === 403) return 'auth';
  if (status === 429) return 'rate-limited';
  if (status >= 500) return 'server';
  return 'bad-request';
}

const ADVICE: Readonly<Record<ProviderErrorKind, string>> = {
  auth: 'Log in with `claude` in a terminal, or check the API key Claude Code uses.',
  'rate-limited': 'Wait a moment and send again.',
  server: 'Send again; if it keeps failing, run `claude -p "hi"` in a terminal to see what the CLI reports.',
  'bad-request': 'Send again; the conversation will start a new Claude Code session.',
  timeout: 'Send again.',
  aborted: 'Your message is kept; send it again when ready.',
  network: 'Check the network connection and send again.',
  unsupported: 'Install Claude Code (npm install -g @anthropic-ai/claude-code) or set the path to the claude executable in settings.',
};

export function cliError(
  config: ProviderConfig,
  kind: ProviderErrorKind,
  what: string,
  extra: { status?: number; sessionInvalid?: boolean } = {},
): ProviderError {
  const advice = ADVICE[kind];
  return new ProviderError({
    kind,
    providerId: config.id,
    message: `${providerLabel('claude-code', config.id, config.name)}: ${what}. ${advice}`,
    advice,
    ...(extra.status !== undefined ? { status: extra.status } : {}),
    ...(extra.sessionInvalid ? { sessionInvalid: true } : {}),
  });
}

/** A run that ended without a successful result: exit code, the CLI's errors and stderr, summarised. */
export function runFailure(
  config: ProviderConfig,
  run: { code: number | null; signal: string | null; stderr: string; result: CliResult | null; stray: readonly string[]; resumed?: string },
  secrets: readonly string[],
): ProviderError {
  const reports = [...(run.result?.errors ?? []), run.stderr, ...run.stray];
  const reported = reports.join('\n');
  const detail = summarise(reports, secrets);
  const sessionInvalid = run.resumed !== undefined && /no conversation found/i.test(reported);
  const how = run.signal ? `was stopped by ${run.signal}` : run.result && !run.result.ok ? `failed (${run.result.subtype})` : `exited with code ${run.code ?? '?'}`;
  const status = run.result?.apiErrorStatus;
  const kind = sessionInvalid ? 'bad-request' : kindForStatus(status);
  const what = sessionInvalid
    ? `the session ${run.resumed ?? ''} no longer exists (${detail})`
    : `the CLI ${how}${status !== undefined ? ` after HTTP ${status}` : ''}${detail ? `: ${detail}` : ''}`;
  return cliError(config, kind, what, { ...(status !== undefined ? { status } : {}), sessionInvalid });
}

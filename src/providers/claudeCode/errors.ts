import { providerLabel, type ProviderError, type ProviderErrorKind } from '../errors';
import { cliErrorBuilder, summarise } from '../cli/cliError';
import type { ProviderConfig } from '../../core/ports/chatModel';
import type { CliResult } from './streamJson';

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

export const claudeCodeError = cliErrorBuilder((config) => providerLabel('claude-code', config.id, config.name), ADVICE);

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
  return claudeCodeError(config, kind, what, { ...(status !== undefined ? { status } : {}), sessionInvalid });
}

import { ProviderError, type ProviderErrorKind } from '../errors';
import type { ProviderConfig } from '../../core/ports/chatModel';
import { redactCliText } from './environment';

const MAX_DETAIL = 400;

/** The last meaningful lines of a CLI's reports (each redacted on its own), bounded. */
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

export type CliErrorFn = (
  config: ProviderConfig,
  kind: ProviderErrorKind,
  what: string,
  extra?: { status?: number; sessionInvalid?: boolean },
) => ProviderError;

/**
 * A CLI provider's error builder: "<label>: <what>. <advice>", the advice from the provider's own
 * table (what to do differs per CLI: how to log in, how to install it, how to test it by hand).
 */
export function cliErrorBuilder(label: (config: ProviderConfig) => string, advice: Readonly<Record<ProviderErrorKind, string>>): CliErrorFn {
  return (config, kind, what, extra = {}) =>
    new ProviderError({
      kind,
      providerId: config.id,
      message: `${label(config)}: ${what}. ${advice[kind]}`,
      advice: advice[kind],
      ...(extra.status !== undefined ? { status: extra.status } : {}),
      ...(extra.sessionInvalid ? { sessionInvalid: true } : {}),
    });
}

import { redactText } from '../core/security/redact';
import type { ProviderKind } from '../core/ports/chatModel';

/** Why a provider call failed, in terms of what the user can do about it. */
export type ProviderErrorKind =
  | 'rate-limited'
  | 'server'
  | 'timeout'
  | 'aborted'
  | 'auth'
  | 'bad-request'
  | 'network'
  | 'unsupported';

/** A classified failure: what classify.ts concluded, and what the message is written from. */
export interface Description {
  readonly kind: ProviderErrorKind;
  readonly status?: number;
  readonly detail?: string;
  readonly retryAfterMs?: number;
  /** A stalled stream: the silence it was given up after. */
  readonly stalledMs?: number;
  readonly retryable?: boolean;
  readonly sessionInvalid?: boolean;
  /** Sub-case that changes the wording. */
  readonly reason?: 'quota' | 'context-overflow' | 'stream-cut' | 'no-key' | 'not-found' | 'wait-too-long' | 'stalled';
}

export interface ProviderErrorInit {
  readonly kind: ProviderErrorKind;
  readonly providerId: string;
  readonly message: string;
  /** What the user can do next, one sentence. Already part of `message`. */
  readonly advice: string;
  readonly status?: number;
  /** How many HTTP attempts were made before giving up. */
  readonly attempts?: number;
  /** The server asked to wait this long before retrying. */
  readonly retryAfterMs?: number;
  /**
   * The provider no longer knows the session this request resumed (Responses previous_response_id
   * expired, Claude Code session gone): the caller should reset its cursor and send in full.
   */
  readonly sessionInvalid?: boolean;
  /** Whether another attempt may succeed; defaults by kind (rate-limited, server, timeout). */
  readonly retryable?: boolean;
  /** The classified failure the message was written from (used to reword it after retries). */
  readonly description?: Description;
}

const RETRYABLE_KINDS: ReadonlySet<ProviderErrorKind> = new Set(['rate-limited', 'server', 'timeout']);

/**
 * The one error type every provider throws. The message is meant for the user: it names the
 * provider, the HTTP status when there is one, and what to do. It never contains the API key.
 */
export class ProviderError extends Error {
  readonly kind: ProviderErrorKind;
  readonly providerId: string;
  readonly advice: string;
  readonly status?: number;
  readonly attempts: number;
  readonly retryAfterMs?: number;
  readonly sessionInvalid: boolean;
  readonly retryable: boolean;
  readonly description?: Description;

  constructor(init: ProviderErrorInit) {
    super(init.message);
    this.name = 'ProviderError';
    this.kind = init.kind;
    this.providerId = init.providerId;
    this.advice = init.advice;
    this.status = init.status;
    this.attempts = init.attempts ?? 1;
    this.retryAfterMs = init.retryAfterMs;
    this.sessionInvalid = init.sessionInvalid ?? false;
    this.retryable = init.retryable ?? RETRYABLE_KINDS.has(init.kind);
    this.description = init.description;
  }
}

export function isProviderError(error: unknown): error is ProviderError {
  return error instanceof ProviderError;
}

const KIND_LABELS: Readonly<Record<ProviderKind, string>> = {
  openai: 'OpenAI',
  'openai-compatible': 'OpenAI-compatible endpoint',
  anthropic: 'Anthropic',
  'openai-responses': 'OpenAI (Responses API)',
  'claude-code': 'Claude Code',
  codex: 'Codex CLI',
  gemini: 'Google Gemini',
};

/**
 * What errors call a provider: the display name the user gave it in settings ("Work OpenAI"), else
 * the kind as people know it and the configured id ("OpenAI (my-openai)").
 */
export function providerLabel(kind: ProviderKind, id: string, name?: string): string {
  const own = name?.trim();
  return own && own !== id ? own : `${KIND_LABELS[kind]} (${id})`;
}

/**
 * Removes secrets from text that may reach the user or a log: the given keys verbatim, and every
 * secret shape of core/security/secretRules.ts (bearer tokens, provider key prefixes, AWS, GitHub,
 * Google, Slack keys, JWTs, PEM private keys…), in case a server echoed a key we were not told about.
 */
export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[] = []): string {
  return redactText(text, secrets);
}

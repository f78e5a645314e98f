import { redactText } from '../security/redact';

/**
 * A clear, user-facing message for anything a turn can throw. Provider errors (ProviderError) carry
 * their own message naming provider, status and what to do; anything else gets its message as is.
 * Secrets are redacted (issue 26): the message is shown, saved in the chat note and may be logged.
 */
export function userFacingError(error: unknown): string {
  return redactText(rawMessage(error));
}

function rawMessage(error: unknown): string {
  if (error && typeof error === 'object') {
    const e = error as { userMessage?: unknown; message?: unknown };
    if (typeof e.userMessage === 'string' && e.userMessage) return e.userMessage;
    if (typeof e.message === 'string' && e.message) return e.message;
  }
  return typeof error === 'string' && error ? error : 'The request failed for an unknown reason.';
}

/** True for an abort (the user pressed stop), whatever shape the provider's abort error has. */
export function isAbort(error: unknown, signal: AbortSignal): boolean {
  if (signal.aborted) return true;
  if (error && typeof error === 'object') {
    const e = error as { name?: unknown; kind?: unknown };
    return e.name === 'AbortError' || e.kind === 'aborted' || e.kind === 'abort';
  }
  return false;
}

/** The provider says the session a request resumed no longer exists (ProviderError.sessionInvalid). */
export function isSessionInvalid(error: unknown): boolean {
  return !!error && typeof error === 'object' && (error as { sessionInvalid?: unknown }).sessionInvalid === true;
}

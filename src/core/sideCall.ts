import type { ChatMessage } from './engine/messages';
import { findProvider, summaryTarget, type StrataSettings } from './settings/settings';
import type { Usage } from './usage';
import type { ProviderFactory } from './ports/providerFactory';

/**
 * A small request beside the chat on the summary model (the chat's own when none is set): a
 * generated title, a Vault QA query rewrite. One place for the target, the timeout and the cost.
 */
export interface SideCallDeps {
  readonly providers: ProviderFactory;
  readonly costOf?: (model: string, usage: Usage) => number | null;
  /** The caller's signal (the user's stop); the timeout is added to it. */
  readonly signal: AbortSignal;
}

/** What a side call cost, as the chat records it. */
export interface SideCallRecord {
  readonly provider: string;
  readonly model: string;
  readonly usage: Usage;
  readonly cost: number | null;
}

/** A side call on another model than the summary model's, or with a predicted output. */
export interface SideCallOptions {
  /** The provider and model to ask (default: the summary model, else the chat's). */
  readonly target?: { readonly provider: string; readonly model: string };
  /** OpenAI predicted output: text most of the answer repeats (a note being rewritten). The caller checks the provider offers it. */
  readonly prediction?: string;
}

export class SideCallError extends Error {
  constructor(
    message: string,
    /** The side call's own timeout ended it (not the caller's signal). */
    readonly timedOut: boolean,
  ) {
    super(message);
    this.name = 'SideCallError';
  }
}

/**
 * Sends `messages` to the summary model and returns the reply's text and its cost. Throws a
 * SideCallError on any failure (no provider, an error, the timeout), or the caller's abort as it is.
 */
export async function sideCall(
  settings: StrataSettings,
  chat: { readonly provider: string; readonly model: string },
  messages: ChatMessage[],
  timeoutMs: number,
  deps: SideCallDeps,
  options: SideCallOptions = {},
): Promise<{ text: string; call: SideCallRecord }> {
  const target = options.target ?? summaryTarget(settings, chat.provider, chat.model);
  const providerSettings = findProvider(settings, target.provider);
  if (!providerSettings) throw new SideCallError(`no provider "${target.provider}" is configured`, false);
  // AbortSignal.timeout: a timer without the host's timer functions (as the summaries do).
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = AbortSignal.any([deps.signal, timeout]);
  try {
    const result = await deps.providers(providerSettings, target.model).send({ messages, signal, ...(options.prediction !== undefined ? { prediction: options.prediction } : {}) });
    if (signal.aborted) throw new DOMException('The request was stopped.', 'AbortError');
    const model = result.model ?? target.model;
    return { text: result.text, call: { provider: target.provider, model, usage: result.usage, cost: deps.costOf ? deps.costOf(model, result.usage) : null } };
  } catch (error) {
    if (deps.signal.aborted) throw error;
    if (timeout.aborted) throw new SideCallError(`timed out after ${timeoutMs} ms`, true);
    throw new SideCallError(error instanceof Error ? error.message : String(error), false);
  }
}

/** The start of a long text for a side call's prompt: enough for the topic, cheap on a long reply. */
export function excerpt(text: string, maxChars: number): string {
  const t = text.trim();
  return t.length > maxChars ? `${t.slice(0, maxChars)}…` : t;
}

/** A model's reply reduced to its first non-empty line (trimmed), or null. */
export function firstLine(raw: string): string | null {
  return (
    raw
      .split('\n')
      .map((l) => l.trim())
      .find((l) => l.length > 0) ?? null
  );
}

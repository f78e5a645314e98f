import { combineHashes } from '../hash';
import type { TurnAssembly } from '../engine/turnAssembly';
import type { ChatMessage } from '../engine/messages';
import { placeCacheBreakpoints, type CacheBreakpoint } from './cacheBreakpoints';
import { messagesAfterCursor } from './delta';
import { freshSession, type ProviderSession, type ProviderTarget, type SessionCapability } from './session';
import { checkSession, messageHash, SESSION_RULES, type FullModeCode, type SessionRule } from './sessionRules';

export const COMPILE_MODES = ['full', 'delta'] as const;
export type CompileMode = (typeof COMPILE_MODES)[number];

export interface CompileReason {
  readonly code: FullModeCode | 'session-active';
  readonly detail: string;
}

export interface CompileInput {
  readonly assembly: TurnAssembly;
  readonly capabilities: SessionCapability;
  /** Where the request goes (ProviderConfig: id, model, cwd). */
  readonly target: ProviderTarget;
  /** The conversation's stored session state; null or undefined when it has none. */
  readonly session?: ProviderSession | null;
  /** Override the rule list (tests, or a provider with extra constraints). */
  readonly rules?: readonly SessionRule[];
}

/** One request, compiled for its provider. */
export interface CompiledRequest {
  readonly mode: CompileMode;
  readonly messages: ChatMessage[];
  readonly breakpoints: CacheBreakpoint[];
  readonly reason: CompileReason;
  /** Session to resume (ChatRequest.sessionId): only in delta mode. */
  readonly sessionId?: string;
  /**
   * The session this request runs under: the stored one in delta mode, a fresh one (no id, no
   * cursor) in full mode. Pass it to advance() once the response is complete.
   */
  readonly session: ProviderSession;
  /** Index of the first stateless message this request carries (0 in full mode, cursor + 1 in delta). */
  readonly from: number;
}

/**
 * The MessageCompiler. Stateless providers, a missing session or an invalidated one get the
 * assembly's messages as they are (full mode, with cache breakpoints). A resumable session gets
 * the dynamic fragments as [System Context] plus only the messages after the cursor (delta mode).
 * Pure: the same input gives the same output, and nothing is changed until advance().
 */
export function compile(input: CompileInput): CompiledRequest {
  const { assembly, capabilities, target } = input;
  const session = input.session ?? null;
  const objection = checkSession({ assembly, capabilities, target, session }, input.rules ?? SESSION_RULES);
  if (objection || !session?.sessionId || session.cursor === undefined) {
    const messages = [...assembly.messages];
    return {
      mode: 'full',
      messages,
      breakpoints: placeCacheBreakpoints(messages),
      reason: objection ?? { code: 'no-session', detail: 'no provider session yet: this call starts one' },
      session: freshSession(target),
      from: 0,
    };
  }
  const messages = messagesAfterCursor(assembly, session.cursor);
  const unseen = assembly.messages.length - session.cursor - 1;
  return {
    mode: 'delta',
    messages,
    // The session provider caches its own history; explicit breakpoints do not apply to a delta.
    breakpoints: [],
    reason: {
      code: 'session-active',
      detail: `resuming session ${session.sessionId}: ${unseen} of ${assembly.messages.length} message(s) after cursor ${session.cursor}`,
    },
    sessionId: session.sessionId,
    session,
    from: session.cursor + 1,
  };
}

/** What advance() needs from a complete, successful response (ChatResult satisfies it). */
export interface CompletedResponse {
  readonly text: string;
  readonly sessionId?: string;
}

/**
 * The session state after a complete, successful response: the cursor moves to the reply (the
 * provider has now seen every message of the request and its own answer). Call it only on
 * success; on abort or error keep the stored session, so the next call resends the same delta.
 * A provider that returns no session id leaves nothing to resume.
 */
export function advance(compiled: CompiledRequest, assembly: TurnAssembly, response: CompletedResponse): ProviderSession {
  const { sessionId: _previousId, cursor: _previousCursor, seenHash: _previousHash, ...base } = compiled.session;
  const sessionId = response.sessionId ?? compiled.sessionId;
  if (!sessionId) return base;
  const cursor = assembly.messages.length;
  const seenHash = combineHashes([...assembly.messageHashes, messageHash({ role: 'assistant', content: response.text })]);
  return { ...base, sessionId, cursor, seenHash };
}

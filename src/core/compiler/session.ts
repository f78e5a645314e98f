/**
 * What a conversation remembers about its provider session (stored in the chat note by the
 * conversation helper). Plain data: JSON-serializable, no class instances.
 */
export interface ProviderSession {
  readonly providerId: string;
  readonly model: string;
  /** Claude Code session id, OpenAI Responses previous_response_id. Absent: no session to resume. */
  readonly sessionId?: string;
  /**
   * Index, in the stateless message list, of the last message the provider has seen (its own
   * reply of the last successful turn). Messages after it are what a resumed call must send.
   */
  readonly cursor?: number;
  /** combineHashes of the stateless messages 0..cursor as the provider saw them (detects edited history). */
  readonly seenHash?: string;
  /** Claude Code working directory the session lives in (its sessions are stored per directory). */
  readonly cwd?: string;
}

/** The provider a request is about to go to: ProviderConfig satisfies it. */
export interface ProviderTarget {
  readonly id: string;
  readonly model: string;
  readonly cwd?: string;
}

/** The one capability the compiler looks at: Capabilities satisfies it. */
export interface SessionCapability {
  readonly sessionResumption: boolean;
}

/** A new session record for a target: nothing to resume yet. */
export function freshSession(target: ProviderTarget): ProviderSession {
  return { providerId: target.id, model: target.model, ...(target.cwd !== undefined ? { cwd: target.cwd } : {}) };
}

/** Validate stored data (from a chat note) into a ProviderSession; null when absent or malformed. */
export function parseProviderSession(data: unknown): ProviderSession | null {
  if (typeof data !== 'object' || data === null) return null;
  const d = data as Record<string, unknown>;
  if (typeof d.providerId !== 'string' || typeof d.model !== 'string') return null;
  const optionalString = (v: unknown): v is string => typeof v === 'string';
  return {
    providerId: d.providerId,
    model: d.model,
    ...(optionalString(d.sessionId) ? { sessionId: d.sessionId } : {}),
    ...(typeof d.cursor === 'number' && Number.isInteger(d.cursor) && d.cursor >= 0 ? { cursor: d.cursor } : {}),
    ...(optionalString(d.seenHash) ? { seenHash: d.seenHash } : {}),
    ...(optionalString(d.cwd) ? { cwd: d.cwd } : {}),
  };
}

/**
 * The provider said it no longer knows the session (ProviderError.sessionInvalid: Claude Code
 * "No conversation found", an expired previous_response_id): keep the target, forget the session,
 * so the next compile sends the full request and starts a new one.
 */
export function forgetSession(session: ProviderSession): ProviderSession {
  return freshSession({ id: session.providerId, model: session.model, ...(session.cwd !== undefined ? { cwd: session.cwd } : {}) });
}

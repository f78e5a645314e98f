import { z } from 'zod';
import { lazySchema } from '../lazySchema';
import { Count, leftOut, readLenient } from '../lenient';
import { Name, PathText } from '../storedLimits';

/**
 * What a conversation remembers about its provider session (stored in the chat note by the
 * conversation helper). Plain data: JSON-serializable, no class instances. A bad optional field is
 * left out (the session stays usable); a bad providerId or model makes it unreadable.
 */
export const ProviderSessionSchema = lazySchema(() => z.object({
  providerId: Name,
  model: Name,
  /** Claude Code session id, OpenAI Responses previous_response_id. Absent: no session to resume. */
  sessionId: leftOut(Name).optional(),
  /**
   * Index, in the stateless message list, of the last message the provider has seen (its own
   * reply of the last successful turn). Messages after it are what a resumed call must send.
   */
  cursor: leftOut(Count).optional(),
  /** combineHashes of the stateless messages 0..cursor as the provider saw them (detects edited history). */
  seenHash: leftOut(Name).optional(),
  /** Claude Code working directory the session lives in (its sessions are stored per directory). */
  cwd: leftOut(PathText).optional(),
}));

export type ProviderSession = Readonly<z.infer<ReturnType<typeof ProviderSessionSchema>>>;

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
  return readLenient(ProviderSessionSchema().nullable(), data, null, 'no session', 'session').value;
}

/**
 * The provider said it no longer knows the session (ProviderError.sessionInvalid: Claude Code
 * "No conversation found", an expired previous_response_id): keep the target, forget the session,
 * so the next compile sends the full request and starts a new one.
 */
export function forgetSession(session: ProviderSession): ProviderSession {
  return freshSession({ id: session.providerId, model: session.model, ...(session.cwd !== undefined ? { cwd: session.cwd } : {}) });
}

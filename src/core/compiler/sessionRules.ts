import { combineHashes, sha256Hex } from '../hash';
import type { TurnAssembly } from '../engine/turnAssembly';
import { messageHashText, type ChatMessage } from '../engine/messages';
import type { ProviderSession, ProviderTarget, SessionCapability } from './session';

/** Why a request goes out in full rather than as a delta (a list, so the view can word each one). */
export const FULL_MODE_CODES = [
  'stateless-provider',
  'no-session',
  'provider-changed',
  'model-changed',
  'cwd-changed',
  'no-cursor',
  'cursor-beyond-count',
  'condensed',
  'history-edited',
  'prefix-changed',
] as const;
export type FullModeCode = (typeof FULL_MODE_CODES)[number];

export interface FullModeReason {
  readonly code: FullModeCode;
  readonly detail: string;
}

export interface SessionCheck {
  readonly assembly: TurnAssembly;
  readonly capabilities: SessionCapability;
  readonly target: ProviderTarget;
  readonly session: ProviderSession | null;
}

/** A rule returns the reason the session cannot be resumed, or null when it has nothing against it. */
export type SessionRule = (check: SessionCheck) => FullModeReason | null;

/** Hash of one message, the same formula as the engine's messageHashes (a test holds them together). */
export function messageHash(message: ChatMessage): string {
  return sha256Hex(messageHashText(message));
}

export const statelessProvider: SessionRule = ({ capabilities }) =>
  capabilities.sessionResumption ? null : { code: 'stateless-provider', detail: 'the provider keeps no conversation between calls' };

export const noSession: SessionRule = ({ session }) =>
  session?.sessionId ? null : { code: 'no-session', detail: 'no provider session yet: this call starts one' };

export const providerChanged: SessionRule = ({ session, target }) =>
  session && session.providerId !== target.id
    ? { code: 'provider-changed', detail: `the session belongs to provider ${session.providerId}, this call goes to ${target.id}` }
    : null;

export const modelChanged: SessionRule = ({ session, target }) =>
  session && session.model !== target.model
    ? { code: 'model-changed', detail: `the session ran on ${session.model}, this call uses ${target.model}` }
    : null;

/** Claude Code stores sessions per working directory: another directory cannot resume it. */
export const workingDirectoryChanged: SessionRule = ({ session, target }) =>
  session && (session.cwd ?? '') !== (target.cwd ?? '')
    ? { code: 'cwd-changed', detail: `the session lives in ${session.cwd ?? '(none)'}, this call runs in ${target.cwd ?? '(none)'}` }
    : null;

export const cursorMissing: SessionRule = ({ session }) =>
  session?.cursor === undefined ? { code: 'no-cursor', detail: 'the session has no cursor: what the provider saw is unknown' } : null;

/** The cursor must leave at least this turn's user message unsent; anything else is corrupt state. */
export const cursorBeyondCount: SessionRule = ({ session, assembly }) => {
  const cursor = session?.cursor ?? -1;
  const count = assembly.messages.length;
  return cursor > count - 2
    ? { code: 'cursor-beyond-count', detail: `cursor ${cursor} is past the ${count - 1} earlier message(s) of this request` }
    : null;
};

/** A compaction rewrote history: the provider's session holds the old one, so a new session starts from the summary. */
export const conversationCondensed: SessionRule = ({ assembly }) =>
  assembly.prefixChange?.reason === 'condensed'
    ? { code: 'condensed', detail: assembly.prefixChange.detail }
    : null;

/** The user edited or regenerated an earlier turn (the engine names it): the session remembers the old one. */
export const historyEditedBeforeCursor: SessionRule = ({ assembly }) =>
  assembly.prefixChange?.reason === 'history-edited' ? { code: 'history-edited', detail: assembly.prefixChange.detail } : null;

/**
 * The messages up to the cursor must be byte for byte what the provider saw; otherwise its memory
 * holds a history the user no longer has (also catches what the engine cannot know: a chat reloaded
 * from a note edited by hand, a session record copied from another conversation).
 */
export const historyDiffersFromSeen: SessionRule = ({ assembly, session }) => {
  if (session?.cursor === undefined || session.seenHash === undefined) return null;
  const seen = combineHashes(assembly.messageHashes.slice(0, session.cursor + 1));
  return seen === session.seenHash
    ? null
    : { code: 'history-edited', detail: `messages 0..${session.cursor} differ from what the provider saw` };
};

/** Any other named prefix break (settings, removed item, edited note, rendering): the provider's memory is stale. */
export const prefixChanged: SessionRule = ({ assembly }) => {
  const change = assembly.prefixChange;
  if (!change || change.reason === 'history-edited' || change.reason === 'condensed') return null;
  return { code: 'prefix-changed', detail: `${change.reason}: ${change.detail}` };
};

/** Checked in this order; the first objection is the reported reason. */
export const SESSION_RULES: readonly SessionRule[] = [
  statelessProvider,
  noSession,
  providerChanged,
  modelChanged,
  workingDirectoryChanged,
  cursorMissing,
  conversationCondensed,
  historyEditedBeforeCursor,
  prefixChanged,
  cursorBeyondCount,
  historyDiffersFromSeen,
];

/** The first rule that objects to resuming, or null when the session can be resumed. */
export function checkSession(check: SessionCheck, rules: readonly SessionRule[] = SESSION_RULES): FullModeReason | null {
  for (const rule of rules) {
    const reason = rule(check);
    if (reason) return reason;
  }
  return null;
}

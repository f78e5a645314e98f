import type { Conversation } from './model';

/**
 * Pinned and archived chats (the history window, issue 29): plain note properties (`pinned: true`,
 * `archived: true`), which the user can also set by hand in the note. They live in the
 * conversation's user properties (`extra`), so a save keeps them and a hand edit merges like any
 * property; written right after the readable properties, so the chat list reads them from the note's head.
 */
export interface ChatFlags {
  readonly pinned?: boolean;
  readonly archived?: boolean;
}

export const FLAG_KEYS = ['pinned', 'archived'] as const;

/** The flags set in a conversation's properties (a value other than true counts as unset). */
export function flagsOf(extra: Readonly<Record<string, unknown>> | undefined): Required<ChatFlags> {
  return { pinned: extra?.pinned === true, archived: extra?.archived === true };
}

/** The conversation with these flags changed (true: the property is written; false: it is removed). */
export function withFlags(c: Conversation, flags: ChatFlags): Conversation {
  const extra: Record<string, unknown> = { ...(c.extra ?? {}) };
  for (const key of FLAG_KEYS) {
    const value = flags[key];
    if (value === true) extra[key] = true;
    else if (value === false) delete extra[key];
  }
  const { extra: _old, ...rest } = c;
  return Object.keys(extra).length > 0 ? { ...rest, extra } : rest;
}

import { decodeChatNote } from './codec';
import type { ChatTurn, Conversation } from './model';

export interface Merged {
  readonly conversation: Conversation;
  /** Turn indexes whose text the user changed in the note while the chat was open. */
  readonly edited: number[];
  readonly warnings: string[];
}

/**
 * Three-way merge for a save that finds the note changed since we last wrote it (someone edited it
 * in the editor). Base: what we last wrote; theirs: the note now; ours: the conversation. The
 * user's hand edits win for what they touched (message text, reply text, title, their own
 * properties, an intro before the first message); everything else, including new turns, is ours.
 */
export function mergeChatNote(base: string, theirs: string, ours: Conversation): Merged {
  const fallback = { id: ours.id, now: ours.updated };
  const b = decodeChatNote(base, fallback).conversation;
  const t = decodeChatNote(theirs, fallback);
  const edited: number[] = [];
  const turns: ChatTurn[] = ours.turns.map((turn, i) => {
    const before = b.turns[i];
    const now = t.conversation.turns[i];
    if (!before || !now) return turn;
    let next = turn;
    if (now.text !== before.text && before.text === turn.text) next = { ...next, text: now.text };
    if (now.reply !== undefined && now.reply !== before.reply && before.reply === turn.reply) next = { ...next, reply: now.reply };
    if (next !== turn) edited.push(i);
    return next;
  });
  const warnings = edited.length > 0 ? [`the note was edited while the chat was open: message(s) ${edited.map((i) => i + 1).join(', ')} keep the edited text`] : [];
  const titleEdited = t.conversation.title !== b.title && b.title === ours.title;
  return {
    conversation: {
      ...ours,
      turns,
      ...(titleEdited ? { title: t.conversation.title, titleSource: 'user' as const } : {}),
      ...(t.conversation.extra ? { extra: t.conversation.extra } : {}),
      ...(t.conversation.preamble !== undefined && t.conversation.preamble !== b.preamble ? { preamble: t.conversation.preamble } : {}),
    },
    edited,
    warnings,
  };
}

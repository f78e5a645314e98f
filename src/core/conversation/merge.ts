import { decodeChatNote } from './codec';
import { turnRange } from './compactionCallout';
import { condensedEvent, withPending } from './compactionRecords';
import type { ChatTurn, CompactionRecord, Conversation } from './model';

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
 * properties, an intro before the first message, a summary's text); everything else, including new
 * turns and the compaction records (machine state), is ours. An edited latest summary is what the
 * engine renders from then on: the chat applies it (compactionToApply) and the next request names
 * the break `condensed`.
 */
export function mergeChatNote(base: string, theirs: string, ours: Conversation): Merged {
  const fallback = { id: ours.id, now: ours.updated };
  const b = decodeChatNote(base, fallback).conversation;
  const t = decodeChatNote(theirs, fallback).conversation;
  const merged = mergeConversations(b, t, ours);
  const warnings = merged.edited.length > 0 ? [`the note was edited while the chat was open: message(s) ${merged.edited.map((i) => i + 1).join(', ')} keep the edited text`] : [];
  const records = merged.conversation.compactions ?? [];
  for (const i of merged.summaries) {
    const latest = i === records.length - 1;
    warnings.push(
      `the note was edited while the chat was open: the summary of ${turnRange(records[i].through)} keeps the edited text${latest ? ' (sent from the next message on)' : ''}`,
    );
  }
  return { conversation: merged.conversation, edited: merged.edited, warnings };
}

/**
 * A save finished while the chat moved on (a reply arrived meanwhile): take what the save merged in
 * from the note (sent → saved) over to the chat as it is now. Same three-way rule, by turn identity.
 */
export function rebaseOnSaved(current: Conversation, sent: Conversation, saved: Conversation): Conversation {
  if (saved === sent) return current;
  if (current === sent) return saved;
  return mergeConversations(sent, saved, current).conversation;
}

function mergeConversations(base: Conversation, theirs: Conversation, ours: Conversation): { conversation: Conversation; edited: number[]; summaries: number[] } {
  const edited: number[] = [];
  const turns: ChatTurn[] = ours.turns.map((turn, i) => {
    const before = base.turns[i];
    const now = theirs.turns[i];
    if (!before || !now || before.at !== turn.at) return turn;
    let next = turn;
    if (now.text !== before.text && before.text === turn.text) next = withText(next, now.text);
    if (now.reply !== undefined && now.reply !== before.reply && before.reply === turn.reply) next = { ...next, reply: now.reply };
    if (next !== turn) edited.push(i);
    return next;
  });
  const titleEdited = theirs.title !== base.title && base.title === ours.title;
  const { extra: _extra, preamble: _preamble, tail: _tail, propertyOrder: _order, compactions: _compactions, pending: _pending, ...rest } = ours;
  const { compactions, summaries } = mergeSummaries(base.compactions ?? [], theirs.compactions ?? [], ours.compactions ?? []);
  const latest = compactions.length - 1;
  // The summary the engine renders changed: the next request names it, as a compaction.
  const pending = summaries.includes(latest) ? withPending(ours.pending, condensedEvent(compactions[latest])) : ours.pending;
  const propertiesEdited = !sameJson(theirs.extra, base.extra) || !sameJson(theirs.propertyOrder, base.propertyOrder);
  const extra = propertiesEdited ? theirs.extra : ours.extra;
  const propertyOrder = propertiesEdited ? theirs.propertyOrder : ours.propertyOrder;
  const preamble = theirs.preamble !== base.preamble ? theirs.preamble : ours.preamble;
  const tail = theirs.tail !== base.tail ? theirs.tail : ours.tail;
  return {
    conversation: {
      ...rest,
      ...(pending !== undefined ? { pending } : {}),
      turns,
      ...(ours.compactions !== undefined ? { compactions } : {}),
      ...(titleEdited ? { title: theirs.title, titleSource: 'user' as const } : {}),
      ...(extra !== undefined ? { extra } : {}),
      ...(propertyOrder !== undefined ? { propertyOrder } : {}),
      ...(preamble !== undefined ? { preamble } : {}),
      ...(tail !== undefined ? { tail } : {}),
    },
    edited,
    summaries,
  };
}

/**
 * Compaction records are ours (machine state); a summary's text is the user's when they edited it in
 * the note (the same compaction, by time and boundary, with the same kind: a summary callout deleted
 * by hand reads as an omission and is not an edit). Returns the indexes whose text was taken.
 */
function mergeSummaries(
  base: readonly CompactionRecord[],
  theirs: readonly CompactionRecord[],
  ours: readonly CompactionRecord[],
): { compactions: CompactionRecord[]; summaries: number[] } {
  const summaries: number[] = [];
  const same = (a: CompactionRecord | undefined, b: CompactionRecord) => a !== undefined && a.at === b.at && a.through === b.through && a.kind === b.kind;
  const compactions = ours.map((record, i) => {
    const before = base[i];
    const now = theirs[i];
    if (!same(before, record) || !same(now, record) || now.text === before.text || before.text !== record.text) return record;
    summaries.push(i);
    return { ...record, text: now.text };
  });
  return { compactions, summaries };
}

/** The user edited a message's text: what the model got stays recorded, so history is resent as it was. */
function withText(turn: ChatTurn, text: string): ChatTurn {
  if (turn.status !== 'complete') return { ...turn, text };
  const { sent: _sent, ...rest } = turn;
  const sent = turn.sent ?? turn.text;
  return { ...rest, text, ...(sent !== text ? { sent } : {}) };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

import { splitMeta, writeMeta } from './meta';
import { encodeChatDataJoined } from './chatData';
import { fromLf, LF_NOTE } from './lineEndings';
import type { Conversation, NoteFormat } from './model';
import { calloutPositions } from './compactionCallout';
import {
  compactionCallout,
  contextCallout,
  frontmatterYaml,
  libraryIndex,
  noteJoins,
  pageCallout,
  reusableTurns,
  turnParts,
  type BodyMemo,
} from './encodeMemo';

/**
 * Conversation → chat note. The frontmatter holds the readable properties and the chat's id; then
 * the body, for people: a heading per message, the context list as wikilinks (contextList.ts), the
 * reply as markdown; tool outputs, page texts and other sent text in folded callouts
 * (turnBlocks.ts), a compaction's summary as a folded callout at its boundary
 * (compactionCallout.ts); last, out of the way, the chat data callout with the machine state
 * (chatData.ts, format 3). Pure and deterministic.
 */

/**
 * The chat note for a conversation, with the line breaks and BOM of `format`: by default those
 * the conversation was read with (a note checked out with CRLF stays CRLF), else LF.
 * A save re-encodes what changed only: each turn's parts, each record's chat data line, each
 * compaction's and page's callout are kept by the (immutable) object they encode (turnParts,
 * chatData.ts, meta.ts), and the note's growing lists (the chat data's lines, the body's parts) are
 * joined on from the last save's (PrefixJoin): a save at turn 1,000 costs the new turn.
 */
export function encodeChatNote(conversation: Conversation, format: NoteFormat = conversation.format ?? LF_NOTE): string {
  const { frontmatter, data } = splitMeta(writeMeta(conversation, { lists: false }));
  const joins = noteJoins.for(conversation.id);
  const lists = { library: conversation.library, compactions: conversation.compactions ?? [], turns: conversation.turns };
  const head = `---\n${frontmatterYaml(frontmatter)}---\n\n${conversation.preamble ?? ''}`;
  const body = joins.body.join(bodyParts(conversation, joins));
  // The chat data last, on a line of its own after the text (after a blank line when the text ends
  // with a line break): the reader takes it out with that blank line, as if it had never been there.
  return fromLf(`${head}${body}\n${encodeChatDataJoined(data, lists, joins.data)}${conversation.tail ?? ''}`, format);
}

/** The body's parts; the turns encoded last time (reusableTurns) are taken as they were. */
function bodyParts(conversation: Conversation, holder: { memo: BodyMemo | null }): string[] {
  const compactions = conversation.compactions ?? [];
  const kept = holder.memo;
  const reuse = reusableTurns(kept, conversation, compactions);
  const parts = kept && reuse > 0 ? kept.parts.slice(0, kept.ends[reuse - 1]) : [];
  const ends = kept && reuse > 0 ? kept.ends.slice(0, reuse) : [];
  const answeredAfter = kept && reuse > 0 ? kept.answered.slice(0, reuse) : [];
  let engineTurn = reuse > 0 ? answeredAfter[reuse - 1] : 0;
  const positions = compactions.length > 0 ? calloutPositions(conversation.turns, compactions) : [];
  const calloutsBefore = (at: number): void => {
    compactions.forEach((c, k) => {
      if (positions[k] === at) parts.push(compactionCallout(c));
    });
  };
  // Kept from the last encode while the library only grew; built when a turn needs it.
  let index = kept && reuse > 0 && kept.index ? libraryIndex(conversation.library, kept.index, kept.library.length) : null;
  const turns = conversation.turns;
  for (let i = reuse; i < turns.length; i++) {
    const turn = turns[i];
    const library = (index ??= libraryIndex(conversation.library));
    if (turn.status === 'complete') engineTurn++;
    calloutsBefore(i);
    const own = turnParts(turn, i + 1);
    parts.push(own.head);
    const context = contextCallout(turn, library);
    if (context) parts.push(context);
    parts.push(own.tail);
    if (turn.status === 'complete') for (const item of library.urlByTurn.get(engineTurn) ?? []) parts.push(pageCallout(item));
    parts.push(own.reply);
    ends.push(parts.length);
    answeredAfter.push(engineTurn);
  }
  let ids: Set<string>;
  if (kept && reuse > 0) {
    ids = kept.ids;
    for (let i = kept.library.length; i < conversation.library.length; i++) ids.add(conversation.library[i].id);
  } else ids = new Set(conversation.library.map((item) => item.id));
  holder.memo = {
    turns: turns.slice(),
    library: conversation.library.slice(),
    ids,
    compactions: compactions.slice(),
    parts: parts.slice(),
    ends,
    answered: answeredAfter,
    index,
  };
  calloutsBefore(turns.length);
  return parts;
}

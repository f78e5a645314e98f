/**
 * The chat-note codec: Conversation ↔ markdown. Pure and deterministic (encode(decode(x)) is x for
 * any note this module wrote). The body is for people: a heading per message, the context list as
 * wikilinks, the reply as markdown; tool outputs, URL page text and other sent text sit in folded
 * callouts; a compaction's summary is a folded callout at its boundary (compactionCallout.ts). The
 * frontmatter holds the readable properties and the chat's id; the machine state is the chat data
 * callout at the end of the note (chatData.ts). Never note contents, never secrets.
 *
 * The two directions live apart: noteEncoder.ts (with what it keeps between saves, encodeMemo.ts)
 * and noteDecoder.ts (with bodyParser.ts); this module names the pair.
 */

export { encodeChatNote } from './noteEncoder';
export { decodeChatNote, type DecodedChat } from './noteDecoder';
export { FORMAT_VERSION, textHash } from './meta';

/**
 * Every test that reopens a chat note saved or read before in its process (decodedNotes.ts) decodes
 * the note as well, and fails when the chat kept differs from the decoding: the memo stands on the
 * codec's round trip, and this makes the whole suite check it. The test then goes on with the
 * decoding, as it did before the memo.
 */
import type { DecodedChat } from '../../src/core/conversation/codec';
import { checkKeptNotes } from '../../src/core/conversation/decodedNotes';

export function againstDecoding(kept: DecodedChat, decode: () => DecodedChat): DecodedChat {
  const decoded = decode();
  expect(kept.warnings).toEqual(decoded.warnings);
  expect(kept.format).toEqual(decoded.format);
  expect(kept.conversation).toEqual(decoded.conversation);
  return decoded;
}

checkKeptNotes(againstDecoding);

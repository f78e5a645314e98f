import { readFileSync } from 'node:fs';
import path from 'node:path';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { Conversation } from '../../../src/core/conversation/model';

/**
 * Chat notes written in format 2 (the chat data callout under the properties), by the codec as it
 * was before format 3 (commit ad4ce21): the chats of the format 1 fixtures (fixtures/format1),
 * saved by that codec. Each .json beside a note is what it must read as.
 */
const DIR = path.join(__dirname, 'fixtures', 'format2');
const NAMES = ['demo', 'research', 'condensed', 'states'];
const fallback = { id: 'chat-fallback', now: 0 };

const fixture = (name: string) => ({
  note: readFileSync(path.join(DIR, `${name}.md`), 'utf8'),
  expected: JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Conversation,
});

describe('format 2 chat notes still open', () => {
  for (const name of NAMES) {
    test(`${name}: reads without warnings as the same chat, and saves as format 3 without losing anything`, () => {
      const { note, expected } = fixture(name);
      expect(note).toContain('\nstrata:\n  format: 2\n');
      expect(note.split('\n---\n')[1].startsWith('\n> [!strata-data]- Chat data')).toBe(true);
      const decoded = decodeChatNote(note, fallback);
      expect(decoded.warnings).toEqual([]);
      expect(decoded.conversation).toEqual(expected);

      const saved = encodeChatNote(decoded.conversation);
      expect(saved).toContain('\nstrata:\n  format: 3\n');
      // The same lines, the chat data moved from under the properties to the end.
      expect(saved.split('\n').sort()).toEqual(note.replace('  format: 2\n', '  format: 3\n').split('\n').sort());
      expect(saved).toMatch(/\n\n> \[!strata-data\]- Chat data[^\n]*\n(?:> [^\n]*\n)+$/);
      const reread = decodeChatNote(saved, fallback);
      expect(reread.warnings).toEqual([]);
      expect(reread.conversation).toEqual(expected);
      expect(encodeChatNote(reread.conversation)).toBe(saved);
    });
  }
});

import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import { splitFrontmatter } from '../../../src/core/markdown/frontmatter';
import type { Conversation } from '../../../src/core/conversation/model';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { promptFragments } from '../../../src/core/systemPrompt';
import { FsVault } from '../../../src/node/fsVault';
import { VAULT } from '../../helpers/paths';
import { tickingClock } from './helpers';

/**
 * Chat notes written in format 1 (everything under `strata` in the frontmatter, five layer hashes
 * and a prefix hash per turn), by the codec as it was before format 2 (commit b8a305e): the demo and
 * research scenarios, a chat condensed three times with properties and an intro added by hand, and a
 * chat with every kind of state (a provider session, pending events, URL page text, failed and
 * stopped messages, a hand-ordered property list). Each .json beside a note is what it must read as
 * (the conversation the old codec read, without the hashes format 2 no longer keeps).
 */
const DIR = path.join(__dirname, 'fixtures', 'format1');
const NAMES = ['demo', 'research', 'condensed', 'states'];
const fallback = { id: 'chat-fallback', now: 0 };

const fixture = (name: string) => ({
  note: readFileSync(path.join(DIR, `${name}.md`), 'utf8'),
  expected: JSON.parse(readFileSync(path.join(DIR, `${name}.json`), 'utf8')) as Conversation,
});

describe('format 1 chat notes still open', () => {
  for (const name of NAMES) {
    test(`${name}: reads without warnings as it did, and saves as format 3 without losing anything`, () => {
      const { note, expected } = fixture(name);
      expect(note).toContain('\nstrata:\n  format: 1\n');
      expect(note).toMatch(/L1: \{tokens: \d+, hash: \w+\}/);
      const decoded = decodeChatNote(note, fallback);
      expect(decoded.warnings).toEqual([]);
      expect(decoded.conversation).toEqual(expected);

      const saved = encodeChatNote(decoded.conversation);
      expect(saved).toContain('\nstrata:\n  format: 3\n');
      expect(saved).toContain('> [!strata-data]- Chat data');
      expect(saved).not.toMatch(/"hash":"h\d"|prefixHash/);
      const extra = Object.keys(expected.extra ?? {}).reduce((n, key) => n + 1 + (Array.isArray(expected.extra?.[key]) ? (expected.extra?.[key] as unknown[]).length : 0), 0);
      expect((splitFrontmatter(saved).yaml ?? '').trimEnd().split('\n')).toHaveLength(10 + extra);
      const reread = decodeChatNote(saved, fallback);
      expect(reread.warnings).toEqual([]);
      expect(reread.conversation).toEqual(expected);
      expect(encodeChatNote(reread.conversation)).toBe(saved);
    });
  }

  for (const name of ['research', 'condensed']) {
    test(`${name}: the next request after reopening is the same from the format 1 note and from its format 3 save`, async () => {
      const { note } = fixture(name);
      const vault = new FsVault(VAULT);
      const old = decodeChatNote(note, fallback).conversation;
      const resaved = decodeChatNote(encodeChatNote(old), fallback).conversation;
      const [a, b] = await Promise.all([rehydrate(old, vault), rehydrate(resaved, vault)]);
      expect(a.issues).toEqual([]);
      expect(b.issues).toEqual([]);
      const input = { userText: 'And what next?', items: [], fragments: promptFragments(), model: old.model };
      const first = a.engine.assemble(input);
      const second = b.engine.assemble(input);
      expect(second.messages).toEqual(first.messages);
      expect(second.prefixHash).toBe(first.prefixHash);
      // The reopened old chat extends the request it last sent: no prefix break.
      expect(first.prefixChange).toBeNull();
    });
  }

  test('opened and saved through the archive: the note becomes format 3 in place, properties and intro kept', async () => {
    const { note, expected } = fixture('condensed');
    const store = new MemoryChatStore();
    const path = 'Strata/Chats/condensed.md';
    store.files.set(path, note);
    const archive = new ChatArchive(store, tickingClock());
    const loaded = await archive.loadPath(path);
    expect(loaded.warnings).toEqual([]);
    const saved = await archive.save(loaded.conversation);
    expect(saved.path).toBe(path);
    const text = store.files.get(path) ?? '';
    expect(text).toContain('\nstrata:\n  format: 3\n');
    expect(text).toContain('tags:\n  - practice\n  - piano\n');
    expect(text).toContain('\nNotes from my lessons, written by hand.\n\n## User · 1');
    expect(decodeChatNote(text, fallback).conversation).toEqual({ ...expected, updated: loaded.conversation.updated });
    expect(text.length).toBeLessThan(note.length);
  });
});

import fc from 'fast-check';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { decodeChatNote, encodeChatNote, type DecodedChat } from '../../../src/core/conversation/codec';
import { checkKeptNotes, decodeChatNoteKept, forgetDecodedNote, keepSavedNote, keptDecodedNotes } from '../../../src/core/conversation/decodedNotes';
import type { Conversation } from '../../../src/core/conversation/model';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { againstDecoding } from '../../helpers/checkKeptNotes';
import { chatWith, conversation as fuzzConversation } from './arbitraries';
import { recordScenario, scenarioFiles, tickingClock } from './helpers';
import { richConversation } from './richChat';

const fallback = { id: 'chat-fallback', now: () => 1_800_000_000_000 };

/**
 * Chat notes saved or read in the session are not decoded again while their text is unchanged
 * (decodedNotes.ts). What a reopen gets from the memo must be what decoding the note gives.
 */
describe('chat notes kept decoded', () => {
  // These tests look at the memo itself: the suite's check (which decodes every hit) is off here.
  beforeEach(() => checkKeptNotes(null));
  afterEach(() => checkKeptNotes(againstDecoding));

  const decodingOf = (text: string): DecodedChat => decodeChatNote(text, { id: fallback.id, now: fallback.now() });

  test('a saved note reads back as its decoding, for every scenario', async () => {
    for (const file of scenarioFiles()) {
      const { conversation } = await recordScenario(file);
      const text = encodeChatNote(conversation);
      keepSavedNote(`Chats/${file}.md`, text, conversation);
      const kept = decodeChatNoteKept(`Chats/${file}.md`, text, fallback);
      // The turns are the saved chat's own (no decode ran), and the whole equals the decoding.
      expect(kept.conversation.turns).toBe(conversation.turns);
      expect(kept).toEqual(decodingOf(text));
    }
  });

  test('random chats with hostile text, CRLF and BOM notes included, read back as their decoding', () => {
    const format = fc.constantFrom(undefined, { eol: '\r\n', bom: false }, { eol: '\n', bom: true }, { eol: '\r', bom: true });
    fc.assert(
      fc.property(fc.oneof(fuzzConversation, richConversation), format, (c, f) => {
        const text = encodeChatNote(c, f ?? undefined);
        keepSavedNote('Chats/fuzz.md', text, c);
        expect(decodeChatNoteKept('Chats/fuzz.md', text, fallback)).toEqual(decodingOf(text));
      }),
      { numRuns: 300 },
    );
  });

  test('a message still on its way is not kept (it reads back as not answered): the note is decoded', () => {
    const sending: Conversation = chatWith({
      id: 'chat-sending',
      title: 'Waiting',
      turns: [{ status: 'sending', text: 'Still waiting', at: 1_700_000_001_000, dynamic: [], tools: [], referenced: [], problems: [] }],
    });
    const text = encodeChatNote(sending);
    keepSavedNote('Chats/sending.md', text, sending);
    const read = decodeChatNoteKept('Chats/sending.md', text, fallback);
    expect(read.conversation.turns[0].error).toBe('not answered');
    expect(read).toEqual(decodingOf(text));
  });

  test('a hit needs the same text at the same path; a changed note is decoded again and reported', async () => {
    const { conversation } = await recordScenario(scenarioFiles()[0]);
    const text = encodeChatNote(conversation);
    keepSavedNote('Chats/a.md', text, conversation);
    const first = decodeChatNoteKept('Chats/a.md', text, fallback);
    // A copy of the text (another string, the same characters), as a read from disk gives it.
    const again = decodeChatNoteKept('Chats/a.md', `${text} `.slice(0, -1), fallback);
    expect(again.conversation).toBe(first.conversation);
    // Another path is another note (its name may stand for a missing id).
    expect(decodeChatNoteKept('Chats/b.md', text, fallback).conversation).not.toBe(first.conversation);
    const edited = text.replace(conversation.turns[0].text, `${conversation.turns[0].text} (edited)`);
    expect(edited).not.toBe(text);
    const read = decodeChatNoteKept('Chats/a.md', edited, fallback);
    expect(read.conversation.turns[0].text).toBe(`${conversation.turns[0].text} (edited)`);
    expect(read.warnings).toEqual([expect.stringContaining('edited by hand')]);
    // The warnings handed out are the caller's: changing them changes nothing kept.
    read.warnings.push('a caller added this');
    expect(decodeChatNoteKept('Chats/a.md', edited, fallback).warnings).toEqual([expect.stringContaining('edited by hand')]);
    forgetDecodedNote('Chats/a.md');
    expect(decodeChatNoteKept('Chats/a.md', edited, fallback).conversation).not.toBe(read.conversation);
  });

  test('a note whose decoding read the clock (no dates) is decoded at each read', () => {
    const text = '---\ntitle: Undated\n---\n\n## User\n\nhello\n\n## Assistant\n\nhi\n';
    let now = 1_000;
    const clock = { id: 'chat-undated', now: () => (now += 1_000) };
    const first = decodeChatNoteKept('Chats/undated.md', text, clock);
    const second = decodeChatNoteKept('Chats/undated.md', text, clock);
    expect(second.conversation).not.toBe(first.conversation);
    expect(second.conversation.created).toBeGreaterThan(first.conversation.created);
  });

  test('at most eight notes and 8 M characters are kept', () => {
    const big = (n: number) => encodeChatNote(chatWith({ id: `chat-${n}`, title: `Big ${n}`, turns: [{ status: 'complete', text: 'q', reply: `${n}`.padEnd(1_500_000, '.'), at: 1_700_000_001_000, dynamic: [], tools: [], referenced: [], problems: [] }] }));
    for (let n = 0; n < 12; n++) decodeChatNoteKept(`Chats/big-${n}.md`, big(n), fallback);
    const { notes, chars } = keptDecodedNotes();
    expect(notes).toBeLessThanOrEqual(8);
    expect(chars).toBeLessThanOrEqual(8 * 1024 * 1024);
    // The most recent is kept.
    const last = big(11);
    expect(decodeChatNoteKept('Chats/big-11.md', last, fallback).conversation).toBe(decodeChatNoteKept('Chats/big-11.md', last, fallback).conversation);
  });

  test('through the archive: a chat saved, then loaded by another archive over the same store, is the saved chat; a hand edit is read', async () => {
    const { conversation } = await recordScenario(scenarioFiles()[0]);
    const store = new MemoryChatStore();
    const saved = await new ChatArchive(store, tickingClock()).save(conversation);
    const loaded = await new ChatArchive(store, tickingClock()).load(conversation.id);
    expect(loaded.conversation.turns).toBe(conversation.turns);
    expect(loaded.warnings).toEqual([]);
    const text = (await store.read(saved.path)) as string;
    await store.process(saved.path, () => text.replace('\n## ', '\nAn intro the user wrote.\n\n## '));
    const edited = await new ChatArchive(store, tickingClock()).load(conversation.id);
    expect(edited.conversation.turns).not.toBe(conversation.turns);
    expect(edited.conversation.preamble).toContain('An intro the user wrote.');
  });
});

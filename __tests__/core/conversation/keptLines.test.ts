import path from 'node:path';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import { keptLineChars, lineValue } from '../../../src/core/conversation/keptLines';
import { recordScenario, ROOT } from './helpers';

const RESEARCH = path.join(ROOT, 'examples', 'scenarios', 'research.json');
const fallback = { id: 'chat-fallback', now: 1_800_000_000_000 };

/**
 * A chat note read again in the same session (reopened, read back after a save) takes its old turn
 * and library records from the lines kept by their text (keptLines.ts, strictRead's kept reads):
 * nothing it reads may differ from a first read, and a line changed by hand is read anew.
 */
describe('chat data lines kept by their text', () => {
  test('a note read twice gives the same chat, its records read once', async () => {
    const { conversation } = await recordScenario(RESEARCH);
    const note = encodeChatNote(conversation);
    const first = decodeChatNote(note, fallback);
    const again = decodeChatNote(note, fallback);
    expect(again.conversation).toEqual(first.conversation);
    expect(again.warnings).toEqual(first.warnings);
    // The strict read of each turn record was kept: the lists it gave are the same objects.
    expect(again.conversation.turns[0].referenced).toBe(first.conversation.turns[0].referenced);
    expect(again.conversation.library[0]).toEqual(first.conversation.library[0]);
  });

  test('a record changed by hand between two reads is read (and reported) anew', async () => {
    const { conversation } = await recordScenario(RESEARCH);
    const note = encodeChatNote(conversation);
    decodeChatNote(note, fallback);
    const lines = note.split('\n');
    const i = lines.findIndex((l) => l.startsWith('> {"turn":{"status":"complete"'));
    expect(i).toBeGreaterThan(0);
    lines[i] = lines[i].replace('"status":"complete"', '"status":"finished"');
    const edited = decodeChatNote(lines.join('\n'), fallback);
    expect(edited.warnings).toEqual([expect.stringContaining('strata.turns[0].status')]);
    // And the note as it was still reads cleanly.
    expect(decodeChatNote(note, fallback).warnings).toEqual([]);
  });

  test('a line that is not JSON still throws (the reader reports it), and the kept text stays within its bound', () => {
    expect(() => lineValue(`{"turn":${'x'.repeat(200)}`)).toThrow();
    const record = (n: number) => JSON.stringify({ turn: { status: 'complete', text: `${n}`.padEnd(4000, '.') } });
    for (let n = 0; n < 3000; n++) lineValue(record(n));
    expect(keptLineChars()).toBeLessThanOrEqual(4 * 1024 * 1024);
    expect(lineValue(record(2999))).toBe(lineValue(record(2999)));
  });
});

import fc from 'fast-check';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { Conversation } from '../../../src/core/conversation/model';
import { isStructureLine } from '../../../src/core/conversation/textBlock';
import { conversation, mutate, mutation } from './arbitraries';

const fallback = { id: 'chat-fallback', now: 0 };
/** What a file on disk keeps: UTF-8 bytes (lone surrogates would not survive unescaped). */
const throughDisk = (text: string) => Buffer.from(text, 'utf8').toString('utf8');

const EXACT_RUNS = 1000;
const MUTATION_RUNS = 2000;

interface Block {
  readonly lines: readonly string[];
  /** The block was the end of the file: it must still be at the end. */
  readonly atEnd: boolean;
  /**
   * The block was the last message, with the chat data callout after it (format 3): text after
   * the callout is more of that message by design, so the note must still end with the callout.
   */
  readonly beforeData: boolean;
  readonly role: 'user' | 'assistant';
  readonly text: string;
}

/** Each message's lines in the note: its heading, its text, and the structure line that ends it. */
function messageBlocks(note: string, c: Conversation): Block[] {
  const lines = note.split('\n');
  const structure = lines.map((l, i) => (isStructureLine(l) ? i : -1)).filter((i) => i >= 0);
  const blocks: Block[] = [];
  let turn = -1;
  structure.forEach((start, k) => {
    const heading = lines[start];
    if (!heading.startsWith('## ')) return;
    const role = heading.startsWith('## User') ? 'user' : 'assistant';
    if (role === 'user') turn++;
    const next = k + 1 < structure.length ? structure[k + 1] : lines.length;
    const t = c.turns[turn];
    blocks.push({
      lines: lines.slice(start, next < lines.length ? next + 1 : next),
      atEnd: next >= lines.length,
      beforeData: next < lines.length && lines[next].startsWith('> [!strata-data]'),
      role,
      text: role === 'user' ? t.text : (t.reply ?? ''),
    });
  });
  return blocks;
}

function present(block: Block, lines: readonly string[]): boolean {
  const n = block.lines.length;
  if (block.beforeData) {
    let last = lines.length - 1;
    while (last >= 0 && lines[last].trim() === '') last--;
    if (last < 0 || !lines[last].startsWith('>')) return false;
  }
  for (let p = 0; p + n <= lines.length; p++) {
    if (block.atEnd && p + n !== lines.length) continue;
    let ok = true;
    for (let j = 0; j < n && ok; j++) ok = lines[p + j] === block.lines[j];
    if (ok) return true;
  }
  return false;
}

describe('chat note codec under fuzzing', () => {
  test(`exact: ${EXACT_RUNS} random chats with hostile text survive encode → disk → decode unchanged`, () => {
    fc.assert(
      fc.property(conversation, (c) => {
        const note = encodeChatNote(c);
        const decoded = decodeChatNote(throughDisk(note), fallback);
        expect(decoded.warnings).toEqual([]);
        expect(decoded.conversation).toEqual(c);
        expect(encodeChatNote(decoded.conversation)).toBe(note);
      }),
      { numRuns: EXACT_RUNS },
    );
  });

  test(`mutated: ${MUTATION_RUNS} damaged notes never throw, and every message still present is recovered`, () => {
    let checked = 0;
    fc.assert(
      fc.property(conversation, fc.array(mutation, { minLength: 1, maxLength: 6 }), (c, mutations) => {
        const note = encodeChatNote(c);
        const damaged = throughDisk(mutate(note, mutations));
        const decoded = decodeChatNote(damaged, fallback);
        expect(Array.isArray(decoded.warnings)).toBe(true);
        const lines = damaged.split('\n');
        const texts = decoded.conversation.turns.map((t) => t.text);
        const replies = decoded.conversation.turns.map((t) => t.reply);
        for (const block of messageBlocks(note, c)) {
          if (!present(block, lines)) continue;
          checked++;
          if (block.role === 'user') expect(texts).toContain(block.text);
          else expect(replies).toContain(block.text);
        }
        // Whatever was recovered encodes and decodes again without loss.
        const again = encodeChatNote(decoded.conversation);
        expect(encodeChatNote(decodeChatNote(again, fallback).conversation)).toBe(again);
      }),
      { numRuns: MUTATION_RUNS },
    );
    expect(checked).toBeGreaterThan(MUTATION_RUNS);
  });
});

/**
 * The codec keeps each turn's, record's and callout's encoding by the object it encodes, so a save
 * re-encodes what changed only. Whatever changed (a turn added, edited, dropped so the ones after it
 * move up; a library item replaced; a compaction, a title, saved token counts), the note must be
 * byte for byte the one a full encode of fresh objects writes.
 */
import fc from 'fast-check';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { ChatTurn, Conversation, ItemRef } from '../../../src/core/conversation/model';
import { richConversation } from './richChat';

/**
 * A full encode: fresh objects, through a codec module of its own, so nothing kept from an earlier
 * encode applies (and the codec under test keeps what it joined for the chat, as between saves).
 */
let freshCodec: typeof import('../../../src/core/conversation/codec') | undefined;
jest.isolateModules(() => {
  freshCodec = jest.requireActual<typeof import('../../../src/core/conversation/codec')>('../../../src/core/conversation/codec');
});
const fresh = (c: Conversation) => (freshCodec as NonNullable<typeof freshCodec>).encodeChatNote(structuredClone(c));

/** Context lists that name the library: each answered turn sent the items that entered in it, and references the first item. */
function withContext(c: Conversation): Conversation {
  let engineTurn = 0;
  const turns = c.turns.map((t): ChatTurn => {
    if (t.status !== 'complete') return t;
    engineTurn++;
    const full = c.library.filter((i) => i.enteredTurn === engineTurn).map((i) => `${i.id}@${i.version}`);
    const referenced = c.library.length > 0 ? [c.library[0].id] : [];
    const envelope = t.envelope ?? { layers: { L1: { tokens: 1 }, L2: { tokens: 2 }, L3: { tokens: 3 }, L4: { tokens: 4 }, L5: { tokens: 5 } }, promptTokens: 15, prefixChange: null, full: [], freshness: [], removed: [] };
    return { ...t, referenced, envelope: { ...envelope, full } };
  });
  return { ...c, turns };
}

type Change = (c: Conversation, k: number) => Conversation;

const at = <T>(list: readonly T[], k: number): number => (list.length === 0 ? -1 : k % list.length);
const replaced = <T>(list: readonly T[], i: number, value: T): T[] => list.map((x, j) => (j === i ? value : x));

const CHANGES: Record<string, Change> = {
  'a turn added': (c, k) => ({ ...c, turns: [...c.turns, { ...c.turns[at(c.turns, k)], text: `new ${k}` }] }),
  'a turn edited': (c, k) => ({ ...c, turns: replaced(c.turns, at(c.turns, k), { ...c.turns[at(c.turns, k)], text: `edited ${k}` }) }),
  'a turn dropped (later ones renumbered)': (c, k) => (c.turns.length < 2 ? c : { ...c, turns: c.turns.filter((_, j) => j !== at(c.turns, k)) }),
  'a turn saved its token counts': (c, k) => ({ ...c, turns: replaced(c.turns, at(c.turns, k), { ...c.turns[at(c.turns, k)], tokens: `o200k_base ${'a'.repeat(20)}:${k}` }) }),
  'a library item replaced (moved, retitled, new page text)': (c, k) => {
    const i = at(c.library, k);
    if (i < 0) return c;
    const item = c.library[i];
    const moved: ItemRef = { ...item, source: `Moved ${k}/${item.source}`, title: `T${k}`, ...(item.kind === 'url' ? { content: `page ${k}` } : {}) };
    return { ...c, library: replaced(c.library, i, moved) };
  },
  'a turn answered with an item of a new id': (c, k) => {
    const last = c.turns[at(c.turns, k)];
    if (!last || c.library.length === 0) return c;
    const item: ItemRef = { ...c.library[0], id: `New ${k}.md`, source: `New ${k}.md`, title: `New ${k}`, version: 1, enteredTurn: c.turns.filter((t) => t.status === 'complete').length + 1 };
    const turn: ChatTurn = { ...last, status: 'complete', reply: `answer ${k}`, text: `asked ${k}`, envelope: { ...(last.envelope ?? { layers: { L1: { tokens: 1 }, L2: { tokens: 2 }, L3: { tokens: 3 }, L4: { tokens: 4 }, L5: { tokens: 5 } }, promptTokens: 15, prefixChange: null, freshness: [], removed: [] }), full: [`${item.id}@1`] } };
    return { ...c, library: [...c.library, item], turns: [...c.turns, turn] };
  },
  'a turn answered with a new version of an earlier item': (c, k) => {
    const i = at(c.library, k);
    const last = c.turns[c.turns.length - 1];
    if (i < 0 || !last) return c;
    const item = c.library[i];
    const version = Math.max(...c.library.filter((x) => x.id === item.id).map((x) => x.version)) + 1;
    const next: ItemRef = { ...item, version, title: `Retitled ${k}`, source: `Moved ${k}/${item.source}`, hash: `h${k}`, enteredTurn: c.turns.filter((t) => t.status === 'complete').length + 1 };
    const turn: ChatTurn = { ...last, status: 'complete', reply: `again ${k}`, text: `asked again ${k}` };
    return { ...c, library: [...c.library, next], turns: [...c.turns, turn] };
  },
  'a compaction replaced': (c, k) => {
    const list = c.compactions ?? [];
    const i = at(list, k);
    return i < 0 ? c : { ...c, compactions: replaced(list, i, { ...list[i], text: `summary ${k}` }) };
  },
  'the title changed': (c, k) => ({ ...c, title: `Title ${k}`, updated: c.updated + k }),
};

describe('memoized chat-note encoding', () => {
  test('after any changes, a save writes exactly what a full encode writes', () => {
    fc.assert(
      fc.property(richConversation, fc.array(fc.tuple(fc.constantFrom(...Object.keys(CHANGES)), fc.nat(20)), { minLength: 1, maxLength: 6 }), (chat, changes) => {
        let c = withContext(chat);
        expect(encodeChatNote(c)).toBe(fresh(c));
        for (const [name, k] of changes) {
          c = CHANGES[name](c, k);
          expect(encodeChatNote(c)).toBe(fresh(c));
        }
      }),
      { numRuns: 150 },
    );
  });

  test('a decoded note re-encodes byte for byte, also once its turns were encoded before', () => {
    fc.assert(
      fc.property(richConversation, (chat) => {
        const note = encodeChatNote(withContext(chat));
        const decoded = decodeChatNote(note, { id: 'x', now: 0 }).conversation;
        expect(encodeChatNote(decoded)).toBe(note);
        expect(encodeChatNote(decoded)).toBe(note);
      }),
      { numRuns: 100 },
    );
  });
});

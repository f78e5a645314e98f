/**
 * Token counts saved with each turn (blockTokens.ts): they round-trip through the chat note, a
 * reopened chat's first request takes them instead of tokenizing its history again, and a count
 * can only ever apply to the text and the tokenizer it was made with.
 */
import fc from 'fast-check';
import { benchChat, benchVault } from '../../../bench/frontmatter/chat';
import { ChipResolver } from '../../../src/core/context/resolver';
import { readBlockTokens } from '../../../src/core/conversation/blockTokens';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { Conversation } from '../../../src/core/conversation/model';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { promptFragments } from '../../../src/core/systemPrompt';
import { blockHash, rememberTokenCounts, resetTokenCounterMemos, tokenCounterFor } from '../../../src/core/tokens/tokenCounter';

const TURNS = 12;
const decode = (note: string) => decodeChatNote(note, { id: 'x', now: 0 });
const withoutCounts = (c: Conversation): Conversation => ({ ...c, turns: c.turns.map(({ tokens: _tokens, ...t }) => t) });

/** The first request after reopening `c` (fresh token counters, as after starting the app), and what it tokenized. */
async function firstRequest(c: Conversation, model = 'gpt-4o') {
  resetTokenCounterMemos();
  const { vault, paths } = benchVault(TURNS);
  const { engine } = await rehydrate(c, vault);
  const counter = tokenCounterFor(model);
  const encode = jest.spyOn(counter, 'encode');
  // An earlier note again: no new block but the question.
  const { items, problems } = await new ChipResolver(vault).resolve([{ kind: 'note', path: paths[1] }]);
  const assembly = engine.assemble({ userText: 'And now?', items, problems, fragments: promptFragments(), model });
  const tokenized = encode.mock.calls.map(([text]) => text).filter((text) => text.length >= 200);
  encode.mockRestore();
  return { promptTokens: assembly.promptTokens, tokenized };
}

let chat: Conversation;
beforeAll(async () => {
  chat = await benchChat(TURNS);
});
afterAll(() => resetTokenCounterMemos());

describe('token counts saved with the chat', () => {
  test('each answered turn keeps the counts of its blocks (what it attached, its reply) for its tokenizer, and they round-trip', () => {
    for (const turn of chat.turns) {
      const { encoding, counts } = readBlockTokens(turn.tokens ?? '');
      expect(encoding).toBe('o200k_base');
      // The reply, and the note it attached in full (a short selection or listing is cheaper to count again).
      expect(Object.keys(counts).length).toBeGreaterThanOrEqual(turn.envelope?.full.length ? 2 : 1);
      expect(counts[blockHash(turn.reply ?? '')]).toBe(tokenCounterFor('gpt-4o').count(turn.reply ?? ''));
    }
    const decoded = decode(encodeChatNote(chat));
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.turns.map((t) => t.tokens)).toEqual(chat.turns.map((t) => t.tokens));
  });

  test('the first request after reopening tokenizes no history block, and counts exactly what it would without them', async () => {
    const reopened = decode(encodeChatNote(chat)).conversation;
    const saved = await firstRequest(reopened);
    const counted = await firstRequest(withoutCounts(reopened));
    expect(saved.promptTokens).toBe(counted.promptTokens);
    expect(counted.tokenized.length).toBeGreaterThan(TURNS);
    // Only blocks no turn saved: the instructions, the library's and the summary.
    expect(saved.tokenized.length).toBeLessThanOrEqual(3);
  });

  test('a count never applies to another text or another tokenizer', () => {
    resetTokenCounterMemos();
    const text = `A block of text. ${'Long enough to be hashed, not kept as its own key. '.repeat(8)}`;
    rememberTokenCounts('o200k_base', { [blockHash(text)]: 99_999 });
    rememberTokenCounts('some-future-tokenizer', { [blockHash(text)]: 1 });
    expect(tokenCounterFor('gpt-4o').count(text)).toBe(99_999);
    expect(tokenCounterFor('gpt-4o').count(`${text}.`)).toBeLessThan(200);
    expect(tokenCounterFor('gpt-4').count(text)).toBeLessThan(200);
    resetTokenCounterMemos();
  });

  test('a reply edited by hand, or a chat continued on another tokenizer, is counted again, not read from the saved counts', async () => {
    const note = encodeChatNote(chat);
    // A turn after the compaction (turns 1–6 are condensed into its summary).
    const reply = chat.turns[9].reply ?? '';
    // The edit keeps the saved count of the old reply in the note: it must not be used for the new text.
    const edited = decode(note.replace(reply, `${reply} Edited by hand.`));
    expect(edited.warnings).toEqual([expect.stringMatching(/message 10: the reply was edited by hand/)]);
    const saved = await firstRequest(edited.conversation);
    expect(saved.promptTokens).toBe((await firstRequest(withoutCounts(edited.conversation))).promptTokens);
    expect(saved.tokenized).toContain(`${reply} Edited by hand.`);
    expect(saved.tokenized.length).toBeLessThanOrEqual(4);
    // Another model, another tokenizer: every block is counted by it.
    const other = await firstRequest(decode(note).conversation, 'gpt-4');
    expect(other.promptTokens).toBe((await firstRequest(withoutCounts(decode(note).conversation), 'gpt-4')).promptTokens);
    expect(other.tokenized.length).toBeGreaterThan(TURNS);
  });

  test('a damaged count is left out with the turn kept; notes without counts read as before', () => {
    const note = encodeChatNote(chat);
    const damaged = note.replace(`"tokens":"${chat.turns[0].tokens ?? ''}"`, '"tokens":42');
    const decoded = decode(damaged);
    expect(decoded.warnings).toEqual(['strata.turns[0].tokens: expected text; its messages are counted again']);
    expect(decoded.conversation.turns[0].tokens).toBeUndefined();
    expect(decoded.conversation.turns[0].reply).toBe(chat.turns[0].reply);
    const plain = encodeChatNote(withoutCounts(chat));
    expect(decode(plain).warnings).toEqual([]);
    expect(decode(plain).conversation).toEqual(withoutCounts(chat));
  });

  test('saved counts read by charCode as the entry pattern reads them: the same tokenizer, entries, values and key order', () => {
    // The reading before it was one pass: split on spaces, each entry tested by this pattern.
    const byPattern = (saved: string) => {
      const [encoding = '', ...entries] = saved.split(' ');
      const counts: Record<string, number> = {};
      for (const entry of entries) {
        if (!/^[0-9a-f]+:\d{1,9}$/.test(entry)) continue;
        const colon = entry.indexOf(':');
        counts[entry.slice(0, colon)] = Number(entry.slice(colon + 1));
      }
      return { encoding, counts };
    };
    const piece = fc.constantFrom('0', '9', 'a', 'f', 'g', 'A', ':', ' ', '\n', '00', '123456789', '1234567890', 'o200k_base', '-', 'é', '٣');
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 16 }), (pieces) => {
        const saved = pieces.join('');
        const read = readBlockTokens(saved);
        expect(JSON.stringify(read)).toBe(JSON.stringify(byPattern(saved)));
      }),
      { numRuns: 3000 },
    );
  });
});

import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { Conversation } from '../../../src/core/conversation/model';

const fallback = { id: 'chat-fallback', now: 0 };

const CHAT: Conversation = {
  id: 'c',
  title: 't',
  titleSource: 'user',
  provider: 'openai',
  model: 'gpt-4o',
  mode: 'chat',
  created: 0,
  updated: 0,
  session: null,
  lastRequest: null,
  library: [{ id: 'https://e.org', kind: 'url', title: 'E', source: 'https://e.org', version: 1, hash: 'h', tokens: 3, enteredTurn: 1, content: 'page text' }],
  turns: [
    {
      status: 'complete',
      text: 'q',
      reply: 'a',
      at: 0,
      dynamic: [{ id: 'date', lifecycle: 'dynamic', text: 'today' }],
      tools: [{ name: 'search', input: 'x', output: 'y' }],
      referenced: [],
      problems: [],
    },
  ],
};

describe('JSON callouts in the chat note body', () => {
  const note = encodeChatNote(CHAT);

  test('turn context, tool output and page text read back', () => {
    const decoded = decodeChatNote(note, fallback);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.turns[0].dynamic).toEqual(CHAT.turns[0].dynamic);
    expect(decoded.conversation.turns[0].tools).toEqual(CHAT.turns[0].tools);
    expect(decoded.conversation.library[0].content).toBe('page text');
  });

  test.each([
    ['a fragment of unknown lifecycle', '"lifecycle":"dynamic"', '"lifecycle":"sometimes"', 'message 1: the turn context could not be read; left out'],
    ['a tool output without input', '"input":"x",', '', 'message 1: a tool output could not be read; left out'],
    ['a page text without version', '"version":1,"content"', '"content"', 'message 1: a page text could not be read; left out'],
  ])('%s: left out with a warning', (_name, from, to, warning) => {
    expect(note).toContain(from);
    const decoded = decodeChatNote(note.replace(from, to), fallback);
    expect(decoded.warnings[0]).toBe(warning);
  });
});

import { AIMessage, HumanMessage, SystemMessage } from '@langchain/core/messages';
import { EMPTY_TEXT, toAnthropicMessages } from '../../src/providers/langchainMessages';

describe('toAnthropicMessages', () => {
  it('maps roles and places cache_control only at the breakpoints', () => {
    const out = toAnthropicMessages(
      [
        { role: 'system', content: 'sys' },
        { role: 'user', content: 'q1' },
        { role: 'assistant', content: 'a1' },
        { role: 'user', content: 'q2' },
      ],
      [
        { messageIndex: 0, reason: 'system' },
        { messageIndex: 3, reason: 'turn' },
      ],
    );
    expect(out.map((m) => m.constructor)).toEqual([SystemMessage, HumanMessage, AIMessage, HumanMessage]);
    const marked = out.map((m) => (m.content as Array<{ cache_control?: unknown }>)[0].cache_control !== undefined);
    expect(marked).toEqual([true, false, false, true]);
  });

  it('never sends an empty text block (Anthropic rejects them): an empty reply becomes a fixed stand-in', () => {
    const out = toAnthropicMessages([
      { role: 'user', content: 'q1' },
      { role: 'assistant', content: '' },
      { role: 'user', content: '  \n' },
    ]);
    const texts = out.map((m) => (m.content as Array<{ text: string }>)[0].text);
    expect(texts).toEqual(['q1', EMPTY_TEXT, EMPTY_TEXT]);
  });
});

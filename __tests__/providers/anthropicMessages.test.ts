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

describe('a system message of several blocks (stable parts, issue 27)', () => {
  it('goes as its blocks, the breakpoint on the block named; other providers see the joined content', () => {
    const blocks = ['L1\n\n', '<context_library>\n\nitem 1\n\n', 'item 2\n\n', '</context_library>'];
    const system = { role: 'system' as const, content: blocks.join(''), blocks, anchors: [2] };
    const out = toAnthropicMessages(
      [system, { role: 'user', content: 'q' }],
      [
        { messageIndex: 0, block: 2, reason: 'library' },
        { messageIndex: 1, reason: 'turn' },
      ],
    );
    const sent = out[0].content as Array<{ text: string; cache_control?: unknown }>;
    expect(sent.map((b) => b.text)).toEqual(blocks);
    expect(sent.map((b) => b.cache_control !== undefined)).toEqual([false, false, true, false]);
    expect(out[0]).toBeInstanceOf(SystemMessage);
  });

  it('sends one block when the blocks do not make up the content (never a different text)', () => {
    const out = toAnthropicMessages([{ role: 'system', content: 'other', blocks: ['a', 'b'] }, { role: 'user', content: 'q' }], [{ messageIndex: 0, reason: 'system' }]);
    expect(out[0].content).toEqual([{ type: 'text', text: 'other', cache_control: { type: 'ephemeral' } }]);
  });
});

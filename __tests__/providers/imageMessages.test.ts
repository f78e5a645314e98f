import type { ChatMessage } from '../../src/core/engine/messages';
import type { ImagePart } from '../../src/core/engine/types';
import { toAnthropicMessages, toLangChainMessages } from '../../src/providers/langchainMessages';
import { capabilitiesFor } from '../../src/providers/capabilities';

const IMAGE: ImagePart = { path: 'a/b.png', mediaType: 'image/png', width: 2, height: 2, bytes: 3, hash: 'h', tokens: 255, data: 'AQID' };
const MESSAGES: ChatMessage[] = [
  { role: 'system', content: 'sys' },
  { role: 'user', content: 'What is this?', images: [IMAGE] },
];

describe('user messages with images', () => {
  it('OpenAI: the text part, then an image_url data URL at high detail', () => {
    const [, user] = toLangChainMessages(MESSAGES);
    expect(user.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID', detail: 'high' } },
    ]);
  });

  it('Anthropic: the text block, then base64 image blocks; the breakpoint moves to the last block', () => {
    const [, user] = toAnthropicMessages(MESSAGES, [{ messageIndex: 1, reason: 'turn' }]);
    expect(user.content).toEqual([
      { type: 'text', text: 'What is this?' },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AQID' }, cache_control: { type: 'ephemeral' } },
    ]);
  });

  it('a model that takes no images gets them named in the text (a chat switched to a text-only model keeps its history)', () => {
    const [, user] = toLangChainMessages(MESSAGES, false);
    expect(user.content).toBe('What is this?\n\n[image a/b.png not sent: this model does not accept images]');
    const [, claude] = toAnthropicMessages(MESSAGES, [], false);
    expect((claude.content as Array<{ text: string }>)[0].text).toContain('[image a/b.png not sent');
  });

  it('the capability table: vision models take images, text-only ones and Claude Code do not', () => {
    const images = (kind: 'openai' | 'anthropic' | 'claude-code' | 'openai-compatible', model: string) => capabilitiesFor({ id: 'p', kind, model }).images;
    expect(images('openai', 'gpt-4o')).toBe(true);
    expect(images('openai', 'gpt-3.5-turbo')).toBe(false);
    expect(images('openai-compatible', 'llama3.1:8b')).toBe(false);
    expect(images('anthropic', 'claude-sonnet-4-5')).toBe(true);
    expect(images('claude-code', 'sonnet')).toBe(false);
  });
});

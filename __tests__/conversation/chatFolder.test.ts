import { ChatArchive, normalizeChatFolder } from '../../src/core/conversation/archive';
import { MemoryChatStore } from '../../src/core/conversation/store';

describe('the chats folder setting', () => {
  it('is normalised the way the archive stores it, so the plugin keeps one archive (and one note per chat)', () => {
    expect(normalizeChatFolder('Strata\\Chats')).toBe('Strata/Chats');
    expect(normalizeChatFolder('AI//Chats/')).toBe('AI/Chats');
    expect(normalizeChatFolder('/')).toBe('Strata/Chats');
    expect(normalizeChatFolder('  ')).toBe('Strata/Chats');
    for (const raw of ['Strata\\Chats', 'AI//Chats', '/', '/Notes/AI/']) {
      expect(new ChatArchive(new MemoryChatStore(), { now: () => 0 }, raw).folder).toBe(normalizeChatFolder(raw));
    }
  });
});

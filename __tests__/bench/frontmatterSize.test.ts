import { benchChat, noteSize } from '../../bench/frontmatter/chat';
import { frontmatterSection } from '../../bench/frontmatter/section';
import { decodeChatNote, encodeChatNote } from '../../src/core/conversation/codec';

describe('bench: chat-note frontmatter size', () => {
  test('the bench chat is a real one (reads back whole) and its frontmatter does not grow with the chat', async () => {
    const sizes = [];
    for (const turns of [10, 50]) {
      const chat = await benchChat(turns);
      expect(chat.turns).toHaveLength(turns);
      expect(chat.compactions).toHaveLength(1);
      expect(chat.turns.some((t) => t.referenced.length > 0)).toBe(true);
      const note = encodeChatNote(chat);
      const decoded = decodeChatNote(note, { id: 'x', now: 0 });
      expect(decoded.warnings).toEqual([]);
      expect(decoded.conversation).toEqual(chat);
      sizes.push(noteSize(turns, note));
    }
    expect(sizes.map((s) => s.frontmatterLines)).toEqual([10, 10]);
    expect(sizes[1].frontmatterBytes).toBe(sizes[0].frontmatterBytes);
    expect(sizes[1].chatDataBytes).toBeGreaterThan(4 * sizes[0].chatDataBytes);
    expect(sizes[1].noteBytes).toBeGreaterThan(sizes[1].chatDataBytes + sizes[1].frontmatterBytes);
    const section = frontmatterSection(sizes);
    expect(section).toMatch(/^\| 50 \| 10 \| \d+ B \| /m);
  });
});

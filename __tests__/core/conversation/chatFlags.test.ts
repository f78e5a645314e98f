/**
 * Pinned and archived chats (issue 29): note properties, set through the archive for a chat not
 * open and through the hub for one in memory (so its next save keeps them), read by the chat list
 * from the note's head, whether Strata wrote them or the user did by hand.
 */
import { ChatArchive } from '../../../src/core/conversation/archive';
import { encodeChatNote, decodeChatNote } from '../../../src/core/conversation/codec';
import { flagsOf, withFlags } from '../../../src/core/conversation/chatFlags';
import { newConversation, type Conversation } from '../../../src/core/conversation/model';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { chatListRowOf } from '../../../src/core/conversation/chatListRow';
import { addUserMessage, failTurn } from '../../../src/core/conversation/transitions';
import { chatListActions } from '../../../src/core/chat/chatList';
import { makeController, memoryProviders, settingsFor } from '../chat/controllerHarness';

function chat(id: string, title: string, at: number): Conversation {
  const c = { ...newConversation({ provider: 'openai', model: 'gpt-4o', id }, { now: () => at }), title, titleSource: 'user' as const };
  const { conversation, index } = addUserMessage(c, { text: `a message in ${title}`, at: at + 1 });
  return failTurn(conversation, index, { status: 'failed', error: 'offline', at: at + 2 });
}

describe('pinned and archived chats', () => {
  test('written as properties before the chat data, read from the head, and back to the note unchanged when cleared', () => {
    const plain = chat('chat-1', 'Tomatoes', Date.UTC(2026, 0, 2));
    const text = encodeChatNote(withFlags(plain, { pinned: true, archived: true }));
    expect(text).toMatch(/\nmode: chat\npinned: true\narchived: true\nstrata:\n/);
    expect(chatListRowOf('x.md', text, 'fallback')).toEqual(expect.objectContaining({ id: 'chat-1', pinned: true, archived: true, warnings: 0 }));
    const decoded = decodeChatNote(text, { id: 'x', now: 0 }).conversation;
    expect(flagsOf(decoded.extra)).toEqual({ pinned: true, archived: true });
    const cleared = encodeChatNote(withFlags(decoded, { pinned: false, archived: false }));
    expect(chatListRowOf('x.md', cleared, 'fallback')).not.toHaveProperty('pinned');
    expect(cleared).not.toMatch(/pinned|archived/);
  });

  test('a property the user adds by hand at the end of the properties is read too', () => {
    const text = encodeChatNote(chat('chat-2', 'Peppers', Date.UTC(2026, 0, 3)));
    const edited = text.replace(/\n---\n/, '\narchived: true\n---\n');
    expect(edited).not.toBe(text);
    expect(chatListRowOf('p.md', edited, 'fallback')).toEqual(expect.objectContaining({ id: 'chat-2', archived: true, title: 'Peppers', warnings: 0 }));
  });

  test('the archive pins and archives a chat not open; the list shows it', async () => {
    const store = new MemoryChatStore();
    const archive = new ChatArchive(store, { now: () => Date.UTC(2026, 0, 9) }, 'Strata/Chats');
    await archive.save(chat('chat-a', 'Alpha', Date.UTC(2026, 0, 1)));
    await archive.save(chat('chat-b', 'Beta', Date.UTC(2026, 0, 2)));
    await archive.setFlags('chat-a', { pinned: true });
    await archive.setFlags('chat-b', { archived: true });
    const rows = await archive.list();
    expect(rows.map((r) => [r.id, r.pinned ?? false, r.archived ?? false])).toEqual([
      ['chat-b', false, true],
      ['chat-a', true, false],
    ]);
    // Pinning does not make a chat newer.
    expect(rows.find((r) => r.id === 'chat-a')?.updated).toBe(Date.UTC(2026, 0, 1) + 2);
  });

  test('a chat open in a view is pinned in memory: its next saves keep the pin', async () => {
    const { providers } = memoryProviders();
    const { controller, files, archive } = makeController(settingsFor('http://127.0.0.1:9'), { providers });
    await controller.send('One', []);
    await controller.flush();
    const actions = chatListActions(controller, archive);
    expect(typeof actions.setFlags).toBe('function');
    await actions.setFlags?.call(actions, controller.chatId, { pinned: true });
    expect(flagsOf(controller.state.conversation.extra).pinned).toBe(true);
    await controller.send('Two', []);
    await controller.flush();
    expect(flagsOf(files.chat(controller.chatId)?.extra).pinned).toBe(true);
    expect(files.chat(controller.chatId)?.turns).toHaveLength(2);
  });
});

import { ChatArchive } from '../../../src/core/conversation/archive';
import { newConversation, type Conversation } from '../../../src/core/conversation/model';
import { NOTE_NAME_MAX_CHARS, noteTitleName } from '../../../src/core/conversation/noteName';
import { MemoryChatStore } from '../../../src/core/conversation/store';
import { addUserMessage, failTurn, setTitle } from '../../../src/core/conversation/transitions';

// Issue 29 item 5: chat notes are named after the title once it is known, and renamed when it changes.

describe('a title as a file name', () => {
  test('web addresses, link syntax and markup are left out; the words stay', () => {
    expect(noteTitleName('Fetch http://127.0.0.1:38001/web/page.html and summarize')).toBe('Fetch and summarize');
    expect(noteTitleName('Use tool **localSearch** query `vents`')).toBe('Use tool localSearch query vents');
    expect(noteTitleName('Compare [[Ventilation|vents]] with [[Plan]] and [the docs](https://x.org)')).toBe('Compare vents with Plan and the docs');
    expect(noteTitleName('## Heading: a/b?')).toBe('Heading a b');
  });

  test('short: cut at a word, never past the limit', () => {
    const name = noteTitleName('Greenhouse ventilation plan for the late spring frosts and the two rain barrels by the shed');
    expect(name.length).toBeLessThanOrEqual(NOTE_NAME_MAX_CHARS);
    expect(name).toBe('Greenhouse ventilation plan for the late spring');
    expect(noteTitleName('https://example.org/only-a-link')).toBe('Chat');
  });
});

describe('the archive renames a chat note when its title changes', () => {
  const day = Date.UTC(2026, 10, 27);

  function firstChat(id: string, text: string): Conversation {
    const c = newConversation({ provider: 'openai', model: 'gpt-4o', id }, { now: () => day });
    const { conversation, index } = addUserMessage(c, { text, at: day + 1 });
    return failTurn(conversation, index, { status: 'failed', error: 'offline', at: day + 2 });
  }

  test('created after the first words (cleaned), renamed after the generated title, and after the user’s', async () => {
    const store = new MemoryChatStore();
    const archive = new ChatArchive(store, { now: () => day });
    let chat = firstChat('chat-a', 'Please fetch http://127.0.0.1:38001/web and tell me about it');
    const first = await archive.save(chat);
    expect(first.path).toBe('Strata/Chats/2026-11-27 Please fetch and tell me about it.md');
    // The same title again: the file keeps its name.
    expect((await archive.save(chat)).path).toBe(first.path);
    chat = setTitle(chat, 'Local web page summary', 'generated', day + 3);
    const second = await archive.save(chat);
    expect(second.path).toBe('Strata/Chats/2026-11-27 Local web page summary.md');
    expect([...store.files.keys()]).toEqual([second.path]);
    // A rename from the history list (the chat not open) renames the file too.
    await archive.rename('chat-a', 'Greenhouse *vents*');
    expect([...store.files.keys()]).toEqual(['Strata/Chats/2026-11-27 Greenhouse vents.md']);
    expect((await archive.list()).map((r) => [r.id, r.title, r.path])).toEqual([['chat-a', 'Greenhouse *vents*', 'Strata/Chats/2026-11-27 Greenhouse vents.md']]);
    // A save after it writes to the renamed file, never the old one.
    const third = await archive.save({ ...chat, title: 'Greenhouse *vents*', titleSource: 'user' });
    expect(third.path).toBe('Strata/Chats/2026-11-27 Greenhouse vents.md');
    expect(store.files.size).toBe(1);
  });

  test('names stay unique in the folder; a file renamed by hand keeps its name until the title changes', async () => {
    const store = new MemoryChatStore();
    const archive = new ChatArchive(store, { now: () => day });
    await archive.save(setTitle(firstChat('chat-1', 'One'), 'Tomatoes', 'generated', day + 3));
    const two = await archive.save(firstChat('chat-2', 'Two'));
    const renamed = await archive.save(setTitle(firstChat('chat-2', 'Two'), 'Tomatoes', 'generated', day + 3));
    expect(renamed.path).toBe('Strata/Chats/2026-11-27 Tomatoes (2).md');
    expect(store.files.has(two.path)).toBe(false);

    const byHand = 'Strata/Chats/My own name.md';
    await store.rename(renamed.path, byHand);
    const again = await archive.save(setTitle(firstChat('chat-2', 'Two'), 'Tomatoes', 'generated', day + 4));
    expect(again.path).toBe(byHand);
    const retitled = await archive.save(setTitle(firstChat('chat-2', 'Two'), 'Peppers', 'user', day + 5));
    expect(retitled.path).toBe('Strata/Chats/2026-11-27 Peppers.md');
  });
});

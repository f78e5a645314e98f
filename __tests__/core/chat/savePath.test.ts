/**
 * What the user adds to a chat note by hand survives the controller's own save path (issue 10,
 * finding 1), and a chat's composer belongs to the chat shown while another one opens (finding 3).
 * Everything runs through the chat controller, the chat-note archive and the codec.
 */
import type { ChatController } from '../../../src/core/chat/chatController';
import { MemoryChatModel } from '../../helpers/memoryChatModel';
import { makeController, memoryProviders, NoteFiles, PLAN, settingsFor, VENT } from './controllerHarness';

const settings = () => settingsFor('http://127.0.0.1:9');

/** Add properties and an intro line to a saved chat note, as a user would in the editor. */
function handEdit(text: string): string {
  return text.replace(/^---\n/, '---\ntags:\n  - research\naliases:\n  - x\nrating: 5\n').replace(/\n## User · 1\n/, '\nMy intro, written by hand.\n\n## User · 1\n');
}

/** A chat of one turn, saved, then edited by hand in its note; the controller that wrote it stays open. */
async function savedChat(files: NoteFiles): Promise<{ path: string; controller: ChatController }> {
  const { providers } = memoryProviders();
  const { controller } = makeController(settings(), { providers, files, ids: ['chat-a'] });
  await controller.send('One', [{ kind: 'note', path: PLAN }]);
  await controller.flush();
  const [path] = [...files.files.keys()];
  files.files.set(path, handEdit(files.files.get(path) ?? ''));
  return { path, controller };
}

describe('hand edits survive the save path', () => {
  test('properties and an intro added while the chat was closed survive reopen + send, and every later save', async () => {
    const files = new NoteFiles();
    const { path } = await savedChat(files);
    const { providers } = memoryProviders();
    const { controller } = makeController(settings(), { providers, files, ids: ['x'] });
    await controller.open('chat-a');
    await controller.send('Two', []);
    await controller.send('Three', []);
    await controller.flush();
    const note = files.files.get(path) ?? '';
    expect(note).toContain('tags:\n  - research\n');
    expect(note).toContain('aliases:\n  - x\n');
    expect(note).toContain('rating: 5\n');
    expect(note).toContain('\nMy intro, written by hand.\n');
    expect(controller.state.answered.map((t) => t.text)).toEqual(['One', 'Two', 'Three']);
    expect(controller.state.warnings).toEqual([]);
  });

  test('a no-op open then save keeps the note byte for byte (properties where the user put them)', async () => {
    const files = new NoteFiles();
    const { path } = await savedChat(files);
    const before = files.files.get(path);
    const { providers } = memoryProviders();
    const { controller } = makeController(settings(), { providers, files, ids: ['x'] });
    await controller.open('chat-a');
    controller.setMode('notes-only');
    controller.setMode('chat');
    await controller.rename('One');
    await controller.flush();
    const after = files.files.get(path) ?? '';
    expect(after).toContain('tags:\n  - research\n');
    expect(after).toContain('\nMy intro, written by hand.\n');
    const unstamped = (text: string) => text.replace(/titleSource: [\w-]+/, '').replace(/updated: .*/, '');
    expect(unstamped(after)).toBe(unstamped(before ?? ''));
  });

  test('properties and an intro added while the chat is open are kept by the next save and by every later one', async () => {
    const files = new NoteFiles();
    const { path, controller } = await savedChat(files);
    for (const text of ['Two', 'Three', 'Four']) {
      await controller.send(text, [{ kind: 'note', path: VENT }]);
      await controller.flush();
      const note = files.files.get(path) ?? '';
      expect(note).toContain('tags:\n  - research\n');
      expect(note).toContain('\nMy intro, written by hand.\n');
    }
    expect(controller.state.conversation.extra).toEqual({ tags: ['research'], aliases: ['x'], rating: 5 });
    expect(controller.state.conversation.preamble).toContain('My intro, written by hand.');
  });

  test('a message text edited in the note while the chat is open is shown, and what the model got is still what history resends', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['chat-a'] });
    await controller.send('Original question', []);
    await controller.flush();
    const [path] = [...files.files.keys()];
    files.files.set(path, (files.files.get(path) ?? '').replace('\nOriginal question\n', '\nReworded by hand\n'));
    await controller.send('Two', []);
    await controller.flush();
    expect(controller.state.answered[0].text).toBe('Reworded by hand');
    expect(controller.state.answered[0].sent).toBe('Original question');
    await controller.send('Three', []);
    // History went out as the model first saw it: the prefix still extends.
    expect(controller.state.answered[2].envelope?.prefixChange).toBeNull();
    expect(JSON.stringify(model.lastMessages)).toContain('Original question');
    expect(JSON.stringify(model.lastMessages)).not.toContain('Reworded by hand');
  });
});

describe('the composer belongs to the chat shown', () => {
  async function twoChats(files: NoteFiles, model: MemoryChatModel): Promise<void> {
    for (const [id, text, note] of [
      ['chat-a', 'About the plan', PLAN],
      ['chat-b', 'About the vents', VENT],
    ] as const) {
      const { controller } = makeController(settings(), { providers: () => model, files, ids: [id] });
      await controller.send(text, [{ kind: 'note', path: note }]);
      await controller.flush();
    }
  }

  test('open(a) then at once send(): refused while a opens, never saved in b nor answered in a with b’s context', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    await twoChats(files, model);
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['x'] });
    await controller.open('chat-b');
    const requestsBefore = model.requests.length;
    const opening = controller.open('chat-a');
    expect(controller.state.phase).toBe('opening');
    await expect(controller.send('Sent while a opens', [])).rejects.toThrow(/opening/);
    await opening;
    await controller.flush();
    expect(controller.state.conversation.id).toBe('chat-a');
    expect(controller.state.phase).toBe('idle');
    expect(model.requests.length).toBe(requestsBefore);
    const b = files.chat('chat-b');
    const a = files.chat('chat-a');
    expect(b?.turns.map((t) => t.text)).toEqual(['About the vents']);
    expect(a?.turns.map((t) => t.text)).toEqual(['About the plan']);
    // Now it goes to a, with a's context only.
    await controller.send('And now?', []);
    expect(controller.state.answered.at(-1)?.reply).toBe(`Seen context: ${PLAN}. Question: And now?.`);
  });

  test('a Responses session id stays with its own chat when chats are switched while one is opening', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    await twoChats(files, model);
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['x'] });
    await controller.open('chat-a');
    const sessionOfA = controller.state.conversation.session;
    const opening = controller.open('chat-b');
    await expect(controller.retry()).rejects.toThrow(/opening/);
    await expect(controller.regenerate()).rejects.toThrow(/opening/);
    await opening;
    await controller.flush();
    expect(files.chat('chat-a')?.session).toEqual(sessionOfA);
  });

  test('opening a second chat while one opens is refused with a clear message', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    await twoChats(files, model);
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['x'] });
    const first = controller.open('chat-a');
    await expect(controller.open('chat-b')).rejects.toThrow(/opening/);
    await first;
    expect(controller.state.conversation.id).toBe('chat-a');
  });
});

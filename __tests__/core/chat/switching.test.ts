/**
 * Switching chats while the chat left behind is still saving or streaming (issue 12, bug 1): the
 * switch is immediate, the next message goes to the chat shown with that chat's context only, and
 * the old chat's request and saves end in the old chat's note. The chat-note store holds its writes
 * until the test releases them by hand (a slow disk, a sync lock): nothing here is timed.
 */
import type { ChatController } from '../../../src/core/chat/chatController';
import type { ChatState } from '../../../src/core/chat/chatState';
import { MemoryChatModel } from '../../helpers/memoryChatModel';
import { makeController, NoteFiles, PLAN, settingsFor, VENT } from './controllerHarness';

const settings = () => settingsFor('http://127.0.0.1:9');

/** Resolves at the first state (now or after a change) that satisfies `test`. */
function until(controller: ChatController, test: (state: ChatState) => boolean): Promise<ChatState> {
  return new Promise((resolve) => {
    if (test(controller.state)) return resolve(controller.state);
    const unsubscribe = controller.subscribe(() => {
      if (!test(controller.state)) return;
      unsubscribe();
      resolve(controller.state);
    });
  });
}

/** Two saved chats: chat-a about the plan, chat-b about the vents. */
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

const texts = (files: NoteFiles, id: string) => files.chat(id)?.turns.map((t) => [t.text, t.status]);

describe('switching chats while saves are queued', () => {
  test('+ while the old chat’s saves are held: the new chat is shown at once and the next message goes to it, with its own notes only', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['chat-a', 'chat-b'] });
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    await controller.flush();

    const release = files.hold();
    const two = controller.send('Two', []);
    await until(controller, (s) => s.answered.length === 2 && !s.busy);

    void controller.newChat();
    // At once, not once the old chat's saves are written.
    expect(controller.state.conversation.id).toBe('chat-b');
    expect(controller.state.phase).toBe('idle');
    expect(controller.state.answered).toEqual([]);
    expect(controller.state.library).toEqual([]);

    const three = controller.send('Three', [{ kind: 'note', path: VENT }]);
    const shown = await until(controller, (s) => s.answered.length === 1 && !s.busy);
    expect(shown.conversation.id).toBe('chat-b');
    expect(shown.answered[0].reply).toBe(`Seen context: ${VENT}. Question: Three.`);
    expect(files.chat('chat-a')?.turns.map((t) => t.text)).toEqual(['One']); // still held

    release();
    await Promise.all([two, three, controller.flush()]);
    expect(texts(files, 'chat-a')).toEqual([
      ['One', 'complete'],
      ['Two', 'complete'],
    ]);
    expect(texts(files, 'chat-b')).toEqual([['Three', 'complete']]);
    expect(controller.state.conversation.id).toBe('chat-b');
    expect(controller.state.warnings).toEqual([]);
  });

  test('opening a saved chat while the old one streams: its reply goes on and is saved in the old chat (issue 29); the open does not wait for the old chat’s saves', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    await twoChats(files, model);
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['x'] });
    await controller.open('chat-a');

    const release = files.hold();
    const started: { opening?: Promise<void> } = {};
    const unsubscribe = controller.subscribe((change) => {
      if (!started.opening && change === 'stream' && (controller.state.streamingText ?? '').length > 0) started.opening = controller.open('chat-b');
    });
    const sending = controller.send('Question for a', []);
    await until(controller, () => started.opening !== undefined);
    unsubscribe();
    expect(controller.state.phase).toBe('opening');
    expect(controller.state.busy).toBe(false);
    expect(controller.state.streamingText).toBeNull();
    await started.opening;
    // Shown without a single write of chat-a's having gone through.
    expect(controller.state.conversation.id).toBe('chat-b');
    expect(controller.state.phase).toBe('idle');
    expect(controller.state.pending).toBeNull();
    expect(controller.state.answered.map((t) => t.text)).toEqual(['About the vents']);

    const forB = controller.send('For b', []);
    const shown = await until(controller, (s) => s.answered.length === 2 && !s.busy);
    expect(shown.answered[1].reply).toBe(`Seen context: ${VENT}. Question: For b.`);

    release();
    await Promise.all([sending, forB, controller.flush()]);
    // chat-a's reply was never stopped: answered in full, in chat-a's note (never in b's).
    expect(texts(files, 'chat-a')).toEqual([
      ['About the plan', 'complete'],
      ['Question for a', 'complete'],
    ]);
    expect(files.chat('chat-a')?.turns[1].reply).toBe(`Seen context: ${PLAN}. Question: Question for a.`);
    expect(texts(files, 'chat-b')).toEqual([
      ['About the vents', 'complete'],
      ['For b', 'complete'],
    ]);
    expect(files.chat('chat-b')?.turns.some((t) => t.partial !== undefined)).toBe(false);
    // Back in chat-a: both answers are there.
    await controller.open('chat-a');
    expect(controller.state.pending).toBeNull();
    expect(controller.state.answered.map((t) => t.reply)).toEqual([
      expect.any(String),
      `Seen context: ${PLAN}. Question: Question for a.`,
    ]);
  });

  test('reopening the chat just left waits for its own last saves, then shows them', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['chat-a', 'chat-b'] });
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    await controller.flush();
    const release = files.hold();
    const two = controller.send('Two', []);
    await until(controller, (s) => s.answered.length === 2 && !s.busy);
    await controller.newChat();
    const opening = controller.open('chat-a');
    expect(controller.state.phase).toBe('opening');
    await expect(controller.send('Too early', [])).rejects.toThrow(/opening/);
    release();
    await Promise.all([opening, two]);
    expect(controller.state.conversation.id).toBe('chat-a');
    expect(controller.state.answered.map((t) => t.text)).toEqual(['One', 'Two']);
    await controller.flush();
    expect(files.chat('chat-b')).toBeUndefined();
  });

  test('+ while a saved chat is still opening: the new chat wins, the late load is dropped', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['chat-a', 'chat-b', 'chat-c'] });
    await controller.send('One', []);
    const release = files.hold();
    const two = controller.send('Two', []);
    await until(controller, (s) => s.answered.length === 2 && !s.busy);
    await controller.newChat();
    const opening = controller.open('chat-a'); // waits for chat-a's held save
    expect(controller.state.phase).toBe('opening');
    await controller.newChat();
    expect(controller.state.phase).toBe('idle');
    expect(controller.state.conversation.id).toBe('chat-c');
    release();
    await Promise.all([opening, two]);
    expect(controller.state.conversation.id).toBe('chat-c');
    expect(controller.state.phase).toBe('idle');
  });

  test('+ while a regeneration streams: it goes on in the old chat, which has its answer, also when reopened at once', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['chat-a', 'chat-b'] });
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    await controller.flush();
    const answer = controller.state.answered[0].reply;
    const release = files.hold();
    const started: { left?: boolean } = {};
    const unsubscribe = controller.subscribe((change) => {
      if (!started.left && change === 'stream' && (controller.state.streamingText ?? '').length > 0) {
        started.left = true;
        void controller.newChat();
      }
    });
    const regenerating = controller.regenerate();
    await until(controller, () => started.left === true);
    unsubscribe();
    expect(controller.state.conversation.id).toBe('chat-b');
    const opening = controller.open('chat-a');
    release();
    await Promise.all([opening, regenerating]);
    expect(controller.state.conversation.id).toBe('chat-a');
    expect(controller.state.pending).toBeNull();
    expect(controller.state.answered.map((t) => t.reply)).toEqual([answer]);
    await controller.flush();
    expect(files.chat('chat-a')?.turns.map((t) => [t.status, t.reply])).toEqual([['complete', answer]]);
  });

  test('deleting the chat shown while its reply streams: a new chat at once, and the stopped turn never writes the note back', async () => {
    const files = new NoteFiles();
    const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
    const { controller } = makeController(settings(), { providers: () => model, files, ids: ['chat-a', 'chat-b'] });
    await controller.send('One', []);
    await controller.flush();
    const started: { removing?: Promise<void> } = {};
    const unsubscribe = controller.subscribe((change) => {
      if (!started.removing && change === 'stream' && (controller.state.streamingText ?? '').length > 0) started.removing = controller.remove('chat-a');
    });
    const sending = controller.send('Two', []);
    await until(controller, () => started.removing !== undefined);
    unsubscribe();
    expect(controller.state.conversation.id).toBe('chat-b');
    await Promise.all([started.removing, sending, controller.flush()]);
    expect(files.files.size).toBe(0);
  });
});

/**
 * One chat-note write per turn when the reply comes quickly (the words are written with it), two
 * when the request outlasts the words' save delay (the words first, so a crash mid-request keeps
 * them), and never a lost message when the request fails or is stopped.
 */
import { ChatController } from '../../../src/core/chat/chatController';
import { type ProviderFactory } from '../../../src/core/ports/providerFactory';
import type { ChatRequest } from '../../../src/core/ports/chatModel';
import { MemoryChatModel } from '../../helpers/memoryChatModel';
import { makeController, memoryProviders, NoteFiles, PLAN, settingsFor } from './controllerHarness';

const settings = () => settingsFor('http://127.0.0.1:9');

/** A model whose replies wait until the test opens the gate. */
function gatedModel() {
  const model = new MemoryChatModel({ id: 'local', kind: 'openai', model: 'gpt-4o' });
  let open: () => void = () => {};
  let gate = new Promise<void>((resolve) => (open = resolve));
  const slow = Object.create(model) as MemoryChatModel;
  slow.send = async (request: ChatRequest) => {
    await gate;
    return model.send(request);
  };
  const providers: ProviderFactory = () => slow;
  return {
    providers,
    model,
    release: () => {
      open();
      gate = Promise.resolve();
    },
  };
}

const until = async (done: () => boolean) => {
  while (!done()) await new Promise((r) => setTimeout(r, 5));
};

describe('chat-note writes per turn', () => {
  test('a quick reply: one write per turn, with the words and the reply', async () => {
    const { providers } = memoryProviders();
    const { controller, files } = makeController(settings(), { providers });
    await controller.send('One', [{ kind: 'note', path: PLAN }]);
    expect(files.writes).toBe(1);
    await controller.send('Two', []);
    await controller.flush();
    expect(files.writes).toBe(2);
    expect(files.chat('chat-a')?.turns.map((t) => [t.text, t.status])).toEqual([
      ['One', 'complete'],
      ['Two', 'complete'],
    ]);
  });

  test('a slow reply: the words are written while the request runs, then the reply (two writes)', async () => {
    const { providers, model, release } = gatedModel();
    // The harness's own controller takes the first id.
    const h = makeController(settings(), { providers, ids: ['chat-harness', 'chat-a'] });
    const controller = new ChatController({ ...h.deps, wordsSaveDelayMs: 20 });
    const sending = controller.send('Slow one', []);
    await until(() => h.files.writes === 1);
    // What a crash now would leave: the words, waiting for their reply.
    expect(h.files.chat('chat-a')?.turns.map((t) => [t.text, t.status])).toEqual([['Slow one', 'sending']]);
    expect(model.requests).toHaveLength(0);
    release();
    await sending;
    await controller.flush();
    expect(h.files.writes).toBe(2);
    expect(h.files.chat('chat-a')?.turns.map((t) => [t.text, t.status])).toEqual([['Slow one', 'complete']]);
  });

  test('the provider call does not wait for the words to be written', async () => {
    const { providers, model } = memoryProviders();
    const files = new NoteFiles();
    const release = files.hold();
    const h = makeController(settings(), { providers, files, ids: ['chat-harness', 'chat-a'] });
    const controller = new ChatController({ ...h.deps, wordsSaveDelayMs: 0 });
    const sending = controller.send('Go ahead', []);
    await until(() => model.requests.length === 1);
    expect(files.files.size).toBe(0);
    release();
    await sending;
    await controller.flush();
    expect(files.chat('chat-a')?.turns[0].status).toBe('complete');
  });

  test('a failed or stopped request keeps the words: one write each, none lost', async () => {
    const { providers, model } = memoryProviders();
    const { controller, files } = makeController(settings(), { providers });
    model.inject({ kind: 'fail', message: 'HTTP 500 from Local' });
    await controller.send('Fails', []);
    expect(files.writes).toBe(1);
    model.inject({ kind: 'hang' });
    const sending = controller.send('Stopped', []);
    await until(() => model.requests.length === 2);
    controller.stop();
    await sending;
    await controller.flush();
    expect(files.writes).toBe(2);
    expect(files.chat('chat-a')?.turns.map((t) => [t.text, t.status])).toEqual([
      ['Fails', 'failed'],
      ['Stopped', 'stopped'],
    ]);
  });
});

import { SaveQueue, type SaveEvent } from '../../../src/core/chat/saveQueue';
import { newConversation, type Conversation } from '../../../src/core/conversation/model';
import type { SaveResult } from '../../../src/core/ports/chatArchive';

function chat(id: string, title: string): Conversation {
  return { ...newConversation({ provider: 'p', model: 'm', id }, { now: () => 0 }), title };
}

/** A save that waits until the test lets it finish. */
function gatedSave() {
  const written: string[] = [];
  const gates: Array<() => void> = [];
  const save = (c: Conversation): Promise<SaveResult> =>
    new Promise((resolve) => {
      gates.push(() => {
        written.push(`${c.id}:${c.title}`);
        resolve({ path: `${c.id}.md`, conversation: c, edited: [], warnings: [] });
      });
    });
  const open = async () => {
    while (gates.length === 0) await new Promise((r) => setImmediate(r));
    gates.shift()?.();
  };
  return { save, written, open };
}

describe('SaveQueue', () => {
  test('one write at a time; while one runs, newer states of the same chat collapse into the latest', async () => {
    const { save, written, open } = gatedSave();
    const events: SaveEvent[] = [];
    const queue = new SaveQueue(save, (e) => events.push(e));
    // Requests made before the first write starts collapse at once.
    void queue.request(chat('a', 'v0'));
    void queue.request(chat('a', 'v1'));
    await open();
    await queue.flush();
    expect(written).toEqual(['a:v1']);
    // While a:v2 is being written, v3 and v4 arrive: v4 replaces v3 in the queue.
    void queue.request(chat('a', 'v2'));
    while (!queue.has('a')) await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    void queue.request(chat('a', 'v3'));
    void queue.request(chat('b', 'v1'));
    void queue.request(chat('a', 'v4'));
    expect(queue.has('a')).toBe(true);
    const done = queue.flush();
    await open();
    await open();
    await open();
    await done;
    expect(written).toEqual(['a:v1', 'a:v2', 'a:v4', 'b:v1']);
    expect(events.map((e) => e.type)).toEqual(['saved', 'saved', 'saved', 'saved']);
    expect(queue.has('a')).toBe(false);
  });

  test('a failed write is reported with the state it tried to write, and the queue goes on', async () => {
    let fail = true;
    const events: SaveEvent[] = [];
    const queue = new SaveQueue(
      (c) => (fail ? ((fail = false), Promise.reject(new Error('disk full'))) : Promise.resolve({ path: 'x', conversation: c, edited: [], warnings: [] })),
      (e) => events.push(e),
    );
    await queue.request(chat('a', 'v1'));
    await queue.request(chat('a', 'v2'));
    expect(events.map((e) => [e.type, e.sent.title])).toEqual([
      ['failed', 'v1'],
      ['saved', 'v2'],
    ]);
  });

  test('a held request and an immediate one of the same chat within its delay: one write, the newer state', async () => {
    const written: string[] = [];
    const queue = new SaveQueue((c) => (written.push(`${c.id}:${c.title}`), Promise.resolve({ path: 'x', conversation: c, edited: [], warnings: [] })), () => undefined);
    const words = queue.request(chat('a', 'words'), 60_000);
    expect(queue.has('a')).toBe(true);
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual([]);
    await queue.request(chat('a', 'reply'));
    await words;
    expect(written).toEqual(['a:reply']);
    expect(queue.has('a')).toBe(false);
  });

  test('a held request whose delay ends is written; flush writes one at once', async () => {
    const written: string[] = [];
    const queue = new SaveQueue((c) => (written.push(`${c.id}:${c.title}`), Promise.resolve({ path: 'x', conversation: c, edited: [], warnings: [] })), () => undefined);
    await queue.request(chat('a', 'words'), 5);
    expect(written).toEqual(['a:words']);
    await queue.request(chat('a', 'reply'));
    expect(written).toEqual(['a:words', 'a:reply']);
    // A newer held request keeps the first one's time (the words are never put off indefinitely).
    void queue.request(chat('b', 'v1'), 60_000);
    void queue.request(chat('b', 'v2'), 60_000);
    await queue.flush();
    expect(written).toEqual(['a:words', 'a:reply', 'b:v2']);
  });

  test('drop forgets a held save too, and its request still resolves', async () => {
    const written: string[] = [];
    const queue = new SaveQueue((c) => (written.push(c.id), Promise.resolve({ path: 'x', conversation: c, edited: [], warnings: [] })), () => undefined);
    const held = queue.request(chat('a', 'v1'), 60_000);
    queue.drop('a');
    await held;
    await queue.flush();
    expect(written).toEqual([]);
    expect(queue.has('a')).toBe(false);
  });

  test('drop forgets a waiting save (a chat being deleted is not written back)', async () => {
    const { save, written, open } = gatedSave();
    const queue = new SaveQueue(save, () => undefined);
    void queue.request(chat('a', 'v1'));
    void queue.request(chat('b', 'v1'));
    queue.drop('b');
    const done = queue.flush();
    await open();
    await done;
    expect(written).toEqual(['a:v1']);
  });
});

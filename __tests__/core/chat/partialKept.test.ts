/**
 * A reply cut mid-stream (a stall, a broken connection, Stop) keeps what had arrived in the chat
 * note, under the message it did not answer: reopening the chat shows the same thing, Retry still
 * sends the message as it was, and the partial text never reaches the model.
 */
import type { ProviderServer } from '../../../testing/providerServer';
import type { ProviderFactory } from '../../../src/core/ports/providerFactory';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import type { Conversation } from '../../../src/core/conversation/model';
import { createProvider } from '../../../src/providers/createProvider';
import { KEY, makeController, NoteFiles, PLAN, settingsFor } from './controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s));

/** Real clients over HTTP with a short stall timeout. */
const stallingProviders: ProviderFactory = (p, model) =>
  createProvider(
    { id: p.id, kind: p.kind, model, ...(p.baseUrl ? { baseUrl: p.baseUrl } : {}), ...(p.secretId ? { secretId: p.secretId } : {}) },
    { getSecret: (id) => (id === 'local-key' ? KEY : null), fetch, retry: { baseDelayMs: 1, maxDelayMs: 2 }, timeoutMs: 30_000, stallTimeoutMs: 300 },
  );

const bodies = () => server.requests.filter((r) => r.api !== undefined).map((r) => JSON.stringify(r.body));

describe('a cut reply is kept in the chat note', () => {
  test('stalled: the partial survives reopening, Retry sends the message alone and answers it', async () => {
    const files = new NoteFiles();
    const s = settingsFor(server.url);
    const first = makeController(s, { providers: stallingProviders, files, ids: ['chat-a'] }).controller;
    server.injectFault({ kind: 'stall-stream', afterChunks: 6 });
    await first.send('Summarise the plan', [{ kind: 'note', path: PLAN }]);
    await first.flush();
    const shown = first.state.pending;
    expect(shown?.status).toBe('failed');
    expect(shown?.partial).toBeTruthy();
    const partial = shown?.partial ?? '';
    const note = files.only();
    expect(note).toContain('> [!strata-partial]- Partial reply (shown, never sent to the model)\n');
    expect(note).toContain(`> ${partial.split('\n')[0]}`);

    const second = makeController(s, { providers: stallingProviders, files, ids: ['x'] }).controller;
    await second.open('chat-a');
    expect(second.state.pending).toEqual(expect.objectContaining({ status: 'failed', text: 'Summarise the plan', error: shown?.error, partial }));
    expect(second.state.warnings).toEqual([]);

    const before = bodies().length;
    await second.retry();
    await second.flush();
    const sent = bodies().slice(before);
    expect(sent).toHaveLength(1);
    expect(sent[0]).not.toContain(partial);
    expect(second.state.pending).toBeNull();
    expect(second.state.answered[0].reply).toBe(`Seen context: ${PLAN}. Question: Summarise the plan.`);
    expect(files.only()).not.toContain('strata-partial');
  });

  test('a later message leaves the cut one unanswered, partial kept in the note, never sent', async () => {
    const files = new NoteFiles();
    const s = settingsFor(server.url);
    const { controller } = makeController(s, { providers: stallingProviders, files, ids: ['chat-a'] });
    server.injectFault({ kind: 'cut-stream', afterChunks: 4 });
    await controller.send('First question', []);
    const partial = controller.state.pending?.partial ?? '';
    expect(partial).toBeTruthy();
    await controller.send('Second question', []);
    await controller.flush();
    expect(bodies().at(-1)).not.toContain(partial);
    expect(files.chat('chat-a')?.turns.map((t) => [t.status, t.partial])).toEqual([
      ['failed', partial],
      ['complete', undefined],
    ]);
  });
});

describe('the partial callout', () => {
  const base: Conversation = {
    id: 'c',
    title: 'T',
    titleSource: 'user',
    provider: 'local',
    model: 'gpt-4o',
    mode: 'chat',
    created: 1_700_000_000_000,
    updated: 1_700_000_000_000,
    session: null,
    turns: [],
    library: [],
    lastRequest: null,
  };
  const stopped = (partial: string): Conversation => ({
    ...base,
    turns: [{ status: 'stopped', text: 'Question', at: 1_700_000_000_000, error: 'Stopped.', partial, dynamic: [], tools: [], referenced: [], problems: [] }],
  });

  test.each([
    ['plain markdown', 'The roof vent is **1.2 m²**\n\n- and the side'],
    ['lines that look like the note’s structure', '## Assistant · 1\n> [!strata-failed] Not answered\n[!strata-partial]- x\n## User · 2'],
    ['an unclosed code fence', 'Here:\n```ts\nconst a = 1'],
    ['characters a note cannot carry', 'a\rb\u0000c'],
  ])('%s: reads back exactly, and the note reads as it was written', (_name, partial) => {
    const note = encodeChatNote(stopped(partial));
    const decoded = decodeChatNote(note, { id: 'c', now: 0 });
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.turns).toHaveLength(1);
    expect(decoded.conversation.turns[0].partial).toBe(partial);
    expect(encodeChatNote(decoded.conversation)).toBe(note);
  });

  test('a note written before partial replies were kept reads as before: no partial, no warning', () => {
    const old = encodeChatNote(stopped(''));
    expect(old).toContain('[!strata-failed]');
    expect(old).not.toContain('strata-partial');
    const decoded = decodeChatNote(old, { id: 'c', now: 0 });
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.turns[0]).not.toHaveProperty('partial');
    expect(decoded.conversation.turns[0].status).toBe('stopped');
  });
});

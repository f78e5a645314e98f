/**
 * Generated chat titles: the cleaning rules, and over real HTTP (LangChain to the local provider
 * server) the title request after the first answer, on the summary model, its cost counted and
 * saved, the settings and the user's own title respected, and a failure that keeps the
 * first-message title without a word.
 */
import { cleanTitle, generateTitle, TITLE_INSTRUCTIONS, TITLE_MAX_CHARS, titleMessages } from '../../../src/core/chat/titles';
import { decodeChatNote } from '../../../src/core/conversation/codec';
import type { StrataSettings } from '../../../src/core/settings/settings';
import type { ProviderServer, RecordedRequest } from '../../../testing/providerServer';
import { httpProviders, makeController, settingsFor } from './controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s));

/** The harness's settings with titles on (the default), and any overrides. */
function titled(overrides: Partial<StrataSettings> = {}): StrataSettings {
  const base = settingsFor(server.url);
  return { ...base, generateTitles: true, ...overrides, providers: overrides.providers ?? base.providers.map((p) => ({ ...p, models: ['gpt-4o', 'gpt-4o-mini'] })) };
}

const titleRequests = (): RecordedRequest[] =>
  server.requests.filter((r) => r.path.includes('chat/completions') && (r.body as { messages: { content: unknown }[] }).messages[0]?.content === TITLE_INSTRUCTIONS);

describe('cleanTitle', () => {
  test.each([
    ['"Greenhouse ventilation plan."', 'Greenhouse ventilation plan'],
    ['Title: “Night temperatures”', 'Night temperatures'],
    ['**Watering schedule**\n\nSome explanation', 'Watering schedule'],
    ['# Piano practice', 'Piano practice'],
    ["'Budget review'...", 'Budget review'],
    ['  \n  Seed   trays  \n', 'Seed trays'],
  ])('%j → %j', (raw, clean) => {
    expect(cleanTitle(raw)).toBe(clean);
  });

  test('nothing usable is null', () => {
    expect(cleanTitle('')).toBeNull();
    expect(cleanTitle('""')).toBeNull();
    expect(cleanTitle('  .  ')).toBeNull();
  });

  test(`at most ${TITLE_MAX_CHARS} characters, cut at a word`, () => {
    const long = 'A very long title about the greenhouse ventilation plan and the night temperatures of March';
    const title = cleanTitle(long)!;
    expect(title.length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(long.startsWith(title)).toBe(true);
    expect(long[title.length]).toBe(' ');
  });

  test('the prompt is fixed: the same exchange makes the same request', () => {
    const turn = { text: 'What is the plan?', reply: 'The plan is to vent at noon.' };
    expect(titleMessages(turn)).toEqual(titleMessages({ ...turn }));
    expect(titleMessages(turn)[0]).toEqual({ role: 'system', content: TITLE_INSTRUCTIONS });
    expect(titleMessages(turn)[1].content).toBe("User's message:\nWhat is the plan?\n\nAssistant's answer:\nThe plan is to vent at noon.\n\nTitle:");
  });
});

describe('generated titles over HTTP', () => {
  test('after the first answer: one request on the chat model, the cleaned title saved with its cost', async () => {
    const { controller, files } = makeController(titled(), { ids: ['chat-a'] });
    await controller.send('What is the plan for the greenhouse?');
    const requests = server.requests.filter((r) => r.path.includes('chat/completions'));
    expect(requests).toHaveLength(2);
    const [title] = titleRequests();
    expect(title).toBe(requests[1]);
    const body = title.body as { model: string; messages: { role: string; content: string }[] };
    expect(body.model).toBe('gpt-4o');
    expect(body.messages).toEqual(titleMessages(controller.state.answered[0]));
    // The local server answers "Seen context: none. Question: <the user message>.": cleaned, cut, no period.
    const state = controller.state;
    expect(state.conversation.titleSource).toBe('generated');
    const expected = cleanTitle(`Seen context: none. Question: ${body.messages[1].content}.`)!;
    expect(state.conversation.title).toBe(expected);
    expect(expected.length).toBeLessThanOrEqual(TITLE_MAX_CHARS);
    expect(expected).not.toMatch(/[."]$/);
    // Counted like a summary: its tokens and cost are the chat's.
    const call = state.conversation.titleCall!;
    expect(call).toMatchObject({ provider: 'local', model: 'gpt-4o' });
    expect(call.usage.inputTokens).toBeGreaterThan(0);
    expect(typeof call.cost).toBe('number');
    expect(state.totalUsage.inputTokens).toBe(state.answered[0].usage!.inputTokens + call.usage.inputTokens);
    expect(state.totalCost).toBeCloseTo((state.answered[0].cost ?? 0) + (call.cost ?? 0), 10);
    // Saved: the note's title and the call, read back.
    await controller.flush();
    const saved = decodeChatNote(files.only(), { id: 'x', now: 0 }).conversation;
    expect(saved.title).toBe(expected);
    expect(saved.titleSource).toBe('generated');
    expect(saved.titleCall).toEqual(call);
    // Once: the second answer asks for no title.
    await controller.send('And the watering?');
    expect(titleRequests()).toHaveLength(1);
  });

  test('on the summary model when one is set', async () => {
    const { controller } = makeController(titled({ summaryModel: 'local/gpt-4o-mini' }));
    await controller.send('What is the plan?');
    const [title] = titleRequests();
    expect((title.body as { model: string }).model).toBe('gpt-4o-mini');
    expect(controller.state.conversation.titleCall?.model).toBe('gpt-4o-mini');
  });

  test('setting off, or a chat the user renamed: no title request, the title stays', async () => {
    const off = makeController(titled({ generateTitles: false }));
    await off.controller.send('What is the plan?');
    expect(titleRequests()).toHaveLength(0);
    expect(off.controller.state.conversation).toMatchObject({ title: 'What is the plan?', titleSource: 'first-message' });

    const renamed = makeController(titled());
    await renamed.controller.rename('My greenhouse');
    await renamed.controller.send('What is the plan?');
    expect(titleRequests()).toHaveLength(0);
    expect(renamed.controller.state.conversation).toMatchObject({ title: 'My greenhouse', titleSource: 'user' });
  });

  test('an error keeps the first-message title, silently', async () => {
    const { controller } = makeController(titled());
    const send = controller.send('Where are the seed trays?');
    // The chat's own request is in; the title request after its answer meets the faults (every retry).
    await waitFor(() => server.requests.length > 0);
    server.injectFault({ kind: 'status', status: 500, times: 10 });
    await send;
    expect(controller.state.answered).toHaveLength(1);
    expect(titleRequests().length).toBeGreaterThan(0);
    expect(controller.state.conversation).toMatchObject({ title: 'Where are the seed trays?', titleSource: 'first-message' });
    expect(controller.state.conversation.titleCall).toBeUndefined();
    expect(controller.state.warnings).toEqual([]);
    expect(controller.state.pending).toBeNull();
  });

  test('a chat left while its title is on the way is saved with it; the chat shown is untouched', async () => {
    const { controller, files } = makeController(titled(), { ids: ['chat-a', 'chat-b'] });
    const sent = controller.send('What is the plan?');
    // The answer is in and the title request has gone out: the user starts a new chat at once.
    await waitFor(() => titleRequests().length > 0);
    await controller.newChat();
    await sent;
    await controller.flush();
    expect(controller.state.conversation).toMatchObject({ id: 'chat-b', title: 'New chat', turns: [] });
    expect(files.chat('chat-a')).toMatchObject({ titleSource: 'generated' });
    expect(files.chat('chat-a')?.titleCall?.usage.inputTokens).toBeGreaterThan(0);
  });

  test('a title that takes too long is given up (the first-message title stays)', async () => {
    const settings = titled();
    server.injectFault({ kind: 'hang', ms: 5_000 });
    const started = generateTitle(settings, { provider: 'local', model: 'gpt-4o' }, { text: 'What is the plan?', reply: 'Vent at noon.' }, {
      providers: httpProviders,
      signal: new AbortController().signal,
      timeoutMs: 200,
    });
    await expect(started).rejects.toThrow();
  });
});

async function waitFor(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((r) => setImmediate(r));
}

/**
 * Agent turns end to end through the controller: real LangChain clients with bound tools over real
 * HTTP to the local provider server (its tool calls scripted by `[[tool NAME {...}]]` lines in the
 * user's message), the real tools over the example vault and a real VaultIndex, the real chat-note
 * archive. Each API: the loop runs, each step's request extends the previous one byte for byte and
 * reads it from the cache, the tool outputs become the turn's blocks (saved, reopened, sent as
 * history). Then a tool error, the step limit, a stop mid-loop, a provider error mid-loop, and a
 * provider without tool calling.
 */
import { ChatController } from '../../../src/core/chat/chatController';
import { STEP_LIMIT_NOTE } from '../../../src/core/agent/loop';
import { cachedShare } from '../../../src/core/usage';
import type { StrataSettings } from '../../../src/core/settings/settings';
import type { ToolHost } from '../../../src/core/ports/toolHost';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost } from '../../../src/node/toolHost';
import type { ProviderServer, RecordedRequest } from '../../../testing/providerServer';
import { makeController, settingsFor, VAULT, VENT } from '../chat/controllerHarness';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

type Api = 'openai' | 'openai-responses' | 'anthropic';
const APIS: readonly Api[] = ['openai', 'openai-responses', 'anthropic'];

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });
let index: VaultIndex;
beforeAll(async () => {
  index = new VaultIndex(new FsVault(VAULT), { excludedFolders: [] });
  await index.build({ pause: () => Promise.resolve() });
});

function agentSettings(api: Api, extra: Partial<StrataSettings> = {}): StrataSettings {
  return { ...settingsFor(server.url, api), defaultMode: 'agent', ...extra };
}

function host(overrides: Partial<ToolHost> = {}): ToolHost {
  return { ...fsToolHost({ vault: new FsVault(VAULT), search: index, hidden: ['Strata'] }), ...overrides };
}

function agentController(api: Api, extra: Partial<StrataSettings> = {}, toolHost: ToolHost = host()) {
  const h = makeController(agentSettings(api, extra));
  const controller = new ChatController({ ...h.deps, toolHost: () => toolHost });
  return { ...h, controller };
}

/** The generation requests of one API, in order. */
function generations(api: Api): RecordedRequest[] {
  const path = api === 'openai' ? 'chat/completions' : api === 'anthropic' ? '/messages' : '/responses';
  return server.requests.filter((r) => r.path.includes(path) && !r.path.includes('count_tokens'));
}

/** A request's conversation as JSON text per message/item: comparable across steps. */
function wireItems(api: Api, request: RecordedRequest): string[] {
  const body = request.body as Record<string, unknown>;
  const list = (api === 'openai' ? body.messages : api === 'anthropic' ? body.messages : body.input) as unknown[];
  // cache_control moves to the newest block each step (Anthropic's rule): compare the content without it.
  return list.map((m) => JSON.stringify(m, (key, value: unknown) => (key === 'cache_control' ? undefined : value)));
}

const SCRIPT = ['[[tool localSearch {"query":"vent openers wax cylinder"}]]', `[[tool readNote {"path":"${VENT}"}]]`, 'Which vent openers work without electricity?'].join('\n');

describe.each(APIS)('%s', (api) => {
  test('search, read, answer: each step extends the previous request and reads it from the cache; the outputs become the turn', async () => {
    const { controller, files, deps } = agentController(api);
    expect(controller.modeProblem('agent')).toBeNull();
    await controller.send(SCRIPT);

    const turn = controller.state.conversation.turns[0];
    expect(turn.status).toBe('complete');
    expect(turn.reply).toContain('Tools used: localSearch, readNote.');
    expect(turn.reply).toContain('Sources: [1].');
    expect(turn.agent?.stop).toBe('answered');
    expect(turn.agent?.steps.map((s) => s.calls.map((c) => c.name))).toEqual([['localSearch'], ['readNote'], []]);
    expect(turn.agent?.steps.flatMap((s) => s.calls).every((c) => !c.isError && c.chars > 100)).toBe(true);
    // The localSearch sources are the turn's: citations link to them.
    expect(turn.search?.sources.length).toBeGreaterThan(0);
    expect(turn.search?.sources.some((s) => s.path === VENT)).toBe(true);
    // The outputs are the turn's context blocks, named with their arguments.
    expect(turn.tools.map((t) => [t.name, t.input])).toEqual([
      ['localSearch', '{"query":"vent openers wax cylinder"}'],
      ['readNote', `{"path":"${VENT}"}`],
    ]);
    expect(turn.tools[1].output).toContain('Ventilation');

    const requests = generations(api);
    expect(requests).toHaveLength(3);
    // Every request declares the same tools (part of the cached prefix).
    const tools = requests.map((r) => JSON.stringify((r.body as { tools: unknown }).tools));
    expect(new Set(tools).size).toBe(1);
    if (api === 'openai-responses') {
      // The session continues: later steps send only the new results, after the previous response.
      const [first, second, third] = requests.map((r) => r.body as { input: Array<{ type?: string }>; previous_response_id?: string });
      expect(first.previous_response_id).toBeUndefined();
      expect(second.previous_response_id).toBeDefined();
      expect(second.input.map((i) => i.type)).toEqual(['function_call_output']);
      expect(third.input.map((i) => i.type)).toEqual(['function_call_output']);
    } else {
      const [a, b, c] = requests.map((r) => wireItems(api, r));
      expect(b.slice(0, a.length)).toEqual(a);
      expect(c.slice(0, b.length)).toEqual(b);
    }
    // Cached share per step: the later steps read what the earlier ones sent.
    const steps = turn.agent?.steps ?? [];
    expect(steps[0].usage.inputTokens).toBeGreaterThan(0);
    // Each step reads the whole previous request from the cache (OpenAI caches in 128-token steps).
    steps.slice(1).forEach((step, i) => {
      expect(step.usage.cachedReadTokens).toBeGreaterThan(steps[i].usage.inputTokens - 128);
      expect(cachedShare(step.usage)).toBeGreaterThan(0);
    });
    // The turn's usage is the loop's: every call added up.
    expect(turn.usage?.inputTokens).toBe(steps.reduce((n, s) => n + s.usage.inputTokens, 0));

    // Saved and reopened: the steps and the tool blocks come back, and the next turn sends them as history.
    await controller.flush();
    const reopened = new ChatController({ ...deps, toolHost: () => host() });
    await reopened.open(controller.state.conversation.id);
    const again = reopened.state.conversation.turns[0];
    expect(again.agent).toEqual(turn.agent);
    expect(again.tools).toEqual(turn.tools);
    expect(files.only()).toContain('Tool: readNote');
    const before = generations(api).length;
    await reopened.send('Thanks. Anything about storms?');
    const next = generations(api).slice(before);
    expect(next).toHaveLength(1);
    const sent = JSON.stringify(next[0].body);
    if (api === 'openai-responses') {
      // The provider's session already holds the loop (its calls and results): only the new message goes.
      expect((next[0].body as { previous_response_id?: string }).previous_response_id).toBe(controller.state.conversation.session?.sessionId);
      expect((next[0].body as { input: unknown[] }).input).toHaveLength(1);
    } else {
      expect(sent).toContain('tool_output');
      expect(sent).toContain('readNote');
    }
    expect([reopened.state.conversation.turns[1].status, reopened.state.conversation.turns[1].error]).toEqual(["complete", undefined]);
  });
});

test('a failing tool gives the model an error text and the loop goes on', async () => {
  const { controller } = agentController('openai');
  await controller.send(['[[tool readNote {"path":"No such note.md"}]]', 'What does my missing note say?'].join('\n'));
  const turn = controller.state.conversation.turns[0];
  expect(turn.status).toBe('complete');
  expect(turn.agent?.steps[0].calls[0]).toMatchObject({ name: 'readNote', isError: true });
  expect(turn.tools[0].output).toMatch(/^Error: /);
  const second = generations('openai')[1].body as { messages: Array<{ role: string; content: string }> };
  expect(second.messages.at(-1)).toMatchObject({ role: 'tool' });
  expect(second.messages.at(-1)?.content).toMatch(/^Error: /);
});

test('the step limit: the model is told to answer, and the turn says the limit was reached', async () => {
  const { controller } = agentController('anthropic', { agentMaxSteps: 2 });
  const script = ['[[tool listFolder {"path":"Projects"}]]', '[[tool readNote {"path":"Projects/Greenhouse/Plan.md"}]]', '[[tool findByTag {"tag":"greenhouse"}]]', 'Summarize the project.'].join('\n');
  await controller.send(script);
  const turn = controller.state.conversation.turns[0];
  expect(turn.status).toBe('complete');
  expect(turn.agent?.stop).toBe('step-limit');
  expect(turn.agent?.steps.filter((s) => s.calls.length > 0)).toHaveLength(2);
  const requests = generations('anthropic');
  expect(requests).toHaveLength(3);
  expect(JSON.stringify(requests[2].body)).toContain(STEP_LIMIT_NOTE);
  // The note is the last thing the model reads: the scripted server answers it (no third tool call).
  expect(turn.reply).toContain('Question: You have reached the tool step limit');
});

test('stop while a tool waits on a host that ignores the signal: the stop ends the wait at once', async () => {
  const { controller } = agentController('openai', {}, { ...host(), search: () => ({ search: () => new Promise(() => {}) }) });
  const sending = controller.send(['[[tool localSearch {"query":"anything"}]]', 'Search please.'].join('\n'));
  for (let i = 0; i < 200 && controller.state.agentCalls.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
  controller.stop();
  await sending;
  expect(controller.state.conversation.turns[0].status).toBe('stopped');
});

test('stop mid-loop: the turn is stopped, the user message kept, the finished steps shown', async () => {
  let release: () => void = () => {};
  const base = host();
  // The second step's search waits until the stop.
  const { controller } = agentController('openai', {}, {
    ...base,
    search: () => ({
      search: (query, options) =>
        new Promise((resolve, reject) => {
          release = () => reject(new DOMException('stopped', 'AbortError'));
          options?.signal?.addEventListener('abort', () => release());
          void query;
        }),
    }),
  });
  const sending = controller.send([`[[tool readNote {"path":"${VENT}"}]]`, '[[tool localSearch {"query":"storms"}]]', 'What about storms?'].join('\n'));
  for (let i = 0; i < 200 && controller.state.agentCalls.length < 2; i++) await new Promise((r) => setTimeout(r, 10));
  expect(controller.state.agentCalls.map((c) => [c.name, c.result !== undefined])).toEqual([
    ['readNote', true],
    ['localSearch', false],
  ]);
  controller.stop();
  await sending;
  const turn = controller.state.conversation.turns[0];
  expect(turn.status).toBe('stopped');
  expect(turn.text).toContain('What about storms?');
  expect(turn.agent?.stop).toBe('interrupted');
  expect(turn.agent?.steps[0].calls.map((c) => c.name)).toEqual(['readNote']);
  expect(controller.state.agentCalls).toEqual([]);
});

test('a provider error mid-loop fails the turn, keeps what was done, and a retry runs the whole turn again', async () => {
  const { controller } = agentController('openai');
  const script = [`[[tool readNote {"path":"${VENT}"}]]`, 'Which openers?'].join('\n');
  const sending = controller.send(script);
  // The first step goes through; the second meets a server error on every attempt.
  for (let i = 0; i < 200 && generations('openai').length < 1; i++) await new Promise((r) => setTimeout(r, 5));
  server.injectFault({ kind: 'status', status: 500, times: 10 });
  await sending;
  const turn = controller.state.conversation.turns[0];
  expect(turn.status).toBe('failed');
  expect(turn.agent?.steps[0].calls.map((c) => c.name)).toEqual(['readNote']);
  server.clearFaults();
  await controller.retry();
  const done = controller.state.conversation.turns[0];
  expect(done.status).toBe('complete');
  expect(done.reply).toContain('Tools used: readNote.');
  expect(done.agent?.stop).toBe('answered');
});

test('a provider without tool calling says so in the mode picker and refuses the turn without sending', async () => {
  const settings = agentSettings('openai');
  const noTools = { ...settings, providers: settings.providers.map((p) => ({ ...p, models: ['o1-mini'] })), defaultModel: 'o1-mini' };
  const h = makeController(noTools);
  const controller = new ChatController({ ...h.deps, toolHost: () => host() });
  expect(controller.modeProblem('agent')).toMatch(/does not support tool calling/);
  expect(controller.modeProblem('chat')).toBeNull();
  await controller.send('Anything?');
  expect(controller.state.conversation.turns[0].status).toBe('failed');
  expect(controller.state.conversation.turns[0].error).toMatch(/tool calling/);
  expect(server.requests).toHaveLength(0);
});

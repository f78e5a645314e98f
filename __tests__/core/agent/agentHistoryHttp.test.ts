/**
 * Agent turns in history as the provider's own tool messages (issue 27): real LangChain clients with
 * bound tools over HTTP to the local provider server, the real tools over the example vault, the real
 * chat-note archive. The request after an agent turn extends the loop's last request byte for byte
 * (its calls and results stay where the loop sent them), reads almost all of it from the cache, and
 * does the same after the chat is saved and reopened; a chat-mode request (no tools bound) gets the
 * results as blocks; a compaction masks them like any tool output.
 */
import { ChatController } from '../../../src/core/chat/chatController';
import { cachedShare } from '../../../src/core/usage';
import type { StrataSettings } from '../../../src/core/settings/settings';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost } from '../../../src/node/toolHost';
import type { ProviderServer, RecordedRequest } from '../../../testing/providerServer';
import { makeController, settingsFor, VAULT, VENT } from '../chat/controllerHarness';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

type Api = 'openai' | 'anthropic';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });
let index: VaultIndex;
beforeAll(async () => {
  index = new VaultIndex(new FsVault(VAULT), { excludedFolders: [] });
  await index.build({ pause: () => Promise.resolve() });
});

const host = () => fsToolHost({ vault: new FsVault(VAULT), search: index, hidden: ['Strata'] });

function agentController(api: Api, extra: Partial<StrataSettings> = {}) {
  const h = makeController({ ...settingsFor(server.url, api), defaultMode: 'agent', ...extra });
  return { ...h, controller: new ChatController({ ...h.deps, toolHost: () => host() }) };
}

function generations(api: Api): RecordedRequest[] {
  const path = api === 'openai' ? 'chat/completions' : '/messages';
  return server.requests.filter((r) => r.path.includes(path) && !r.path.includes('count_tokens'));
}

/** A request's messages as JSON text each (cache_control left out: Anthropic's moves to the newest block). */
function wireItems(request: RecordedRequest): string[] {
  const list = (request.body as { messages: unknown[] }).messages;
  return list.map((m) => JSON.stringify(m, (key, value: unknown) => (key === 'cache_control' ? undefined : value)));
}

const SCRIPT = ['[[tool localSearch {"query":"vent openers wax cylinder"}]]', `[[tool readNote {"path":"${VENT}"}]]`, 'Which vent openers work without electricity?'].join('\n');

describe.each<Api>(['openai', 'anthropic'])('%s', (api) => {
  test('the request after an agent turn extends the loop\'s last request and reads >= 90 % from the cache, live and reopened', async () => {
    const { controller, deps } = agentController(api);
    await controller.send(SCRIPT);
    await controller.send('Thanks. Anything about storms?');
    const requests = generations(api);
    expect(requests).toHaveLength(4);
    const [, , last, next] = requests.map(wireItems);
    // The loop's answering request (its calls and results as tool messages) is the start of the next one.
    expect(next.slice(0, last.length)).toEqual(last);
    // Then the reply, as it was written, and the new question.
    expect(next.length).toBe(last.length + 2);
    const after = controller.state.conversation.turns[1];
    expect(after.envelope?.prefixChange ?? null).toBeNull();
    expect(cachedShare(after.usage!)).toBeGreaterThanOrEqual(0.9);
    // The budget counts the steps: the next request's count covers the tool outputs.
    const outputs = controller.state.conversation.turns[0].tools.reduce((n, t) => n + t.output.length, 0);
    expect(outputs).toBeGreaterThan(1000);
    expect(after.envelope!.promptTokens).toBeGreaterThan(outputs / 8);

    // Saved and reopened: the next request is the same, byte for byte.
    await controller.flush();
    const reopened = new ChatController({ ...deps, toolHost: () => host() });
    await reopened.open(controller.state.conversation.id);
    const before = generations(api).length;
    await reopened.send('And about frost?');
    await controller.send('And about frost?');
    const [fromReopened, fromLive] = generations(api).slice(before).map((r) => JSON.stringify(r.body));
    expect(fromReopened).toBe(fromLive);
    expect(reopened.state.conversation.turns[2].envelope?.prefixChange ?? null).toBeNull();
  });

  test('a chat-mode request after an agent turn gets the results as blocks (no tool messages without tools)', async () => {
    const { controller } = agentController(api);
    await controller.send(SCRIPT);
    controller.setMode('chat');
    await controller.send('Thanks. Anything about storms?');
    const next = generations(api).at(-1)!;
    const body = JSON.stringify(next.body);
    expect((next.body as { tools?: unknown }).tools).toBeUndefined();
    expect(body).toContain('tool_output');
    expect(body).not.toContain(api === 'openai' ? '"role":"tool"' : '"tool_result"');
  });
});

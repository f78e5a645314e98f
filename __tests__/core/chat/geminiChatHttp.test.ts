/**
 * A Gemini chat end to end, offline (issue 32): the chat controller, real LangChain client
 * (ChatGoogleGenerativeAI) over HTTP to the local provider server's Gemini API, the example vault,
 * the real tools. Attached notes, an agent turn and a compaction; cached tokens reported by Gemini's
 * rules (the explicit entry of the stable prefix, implicit prefix hits), storage in the chat's cost.
 */
import { ChatController } from '../../../src/core/chat/chatController';
import { loadSettings, type StrataSettings } from '../../../src/core/settings/settings';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost } from '../../../src/node/toolHost';
import type { ProviderServer } from '../../../testing/providerServer';
import { KEY, makeController, PLAN, VAULT, VENT } from './controllerHarness';
import { createProvider } from '../../../src/providers/createProvider';
import { providerConfigOf } from '../../../src/providers/providerConfig';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });
let index: VaultIndex;
beforeAll(async () => {
  index = new VaultIndex(new FsVault(VAULT), { excludedFolders: [] });
  await index.build({ pause: () => Promise.resolve() });
});

const MODEL = 'gemini-2.5-flash';

function geminiSettings(): StrataSettings {
  const { settings, warnings } = loadSettings({
    providers: [{ id: 'local', kind: 'gemini', name: 'Local Gemini', baseUrl: server.url, models: [MODEL], secretId: 'local-key' }],
    defaultProviderId: 'local',
    defaultModel: MODEL,
    generateTitles: false,
    defaultMode: 'agent',
    // A small window, so the chat reaches a compaction in a few turns.
    contextWindows: { [MODEL]: 16_000 },
  });
  if (warnings.length > 0) throw new Error(warnings.join('\n'));
  return settings;
}

const NOTES = ['Tasks/Writing a task.md', 'Tasks/Priorities.md', 'Queries/Backlinks.md', 'Queries/Limiting.md', 'Projects/Greenhouse/Seedlings.md', 'Reading/The Market Gardener.md'];
const long = (i: number) => `Question ${i}: ${Array.from({ length: 160 }, (_, k) => `term${(k * 11 + i) % 97}`).join(' ')}?`;
const SCRIPT = ['[[tool localSearch {"query":"vent openers wax cylinder"}]]', `[[tool readNote {"path":"${VENT}"}]]`, 'Which vent openers work without electricity?'].join('\n');

test('a Gemini chat with attached notes, an agent turn and a compaction runs offline with cached tokens reported', async () => {
  // Node passes its fetch, as the plugin passes requestUrl: the explicit cache's own calls go through it.
  const h = makeController(geminiSettings(), { providers: (p, model) => createProvider(providerConfigOf(p, model), { getSecret: () => KEY, fetch, retry: { baseDelayMs: 1, maxDelayMs: 2 } }) });
  const controller = new ChatController({ ...h.deps, toolHost: () => fsToolHost({ vault: new FsVault(VAULT), search: index, hidden: ['Strata'] }) });
  await controller.send('What is the plan for the greenhouse?', [{ kind: 'note', path: PLAN }]);
  await controller.send(SCRIPT);
  for (let i = 0; i < 30 && (controller.state.conversation.compactions ?? []).length === 0; i++) {
    await controller.send(long(i), i < NOTES.length ? [{ kind: 'note', path: NOTES[i] }] : []);
  }
  // A few turns after the compaction: the carried library is the stable prefix now.
  for (let i = 0; i < 3; i++) await controller.send(`After the compaction ${i}: what else?`);

  const turns = controller.state.conversation.turns;
  expect((controller.state.conversation.compactions ?? []).length).toBeGreaterThanOrEqual(1);
  // The agent turn ran its tools through Gemini's function calls.
  expect(turns[1].tools.map((t) => t.name)).toEqual(['localSearch', 'readNote']);
  const generate = server.requests.filter((r) => r.api === 'gemini' && /:(generate|streamGenerate)Content/.test(r.path));
  expect(generate.length).toBeGreaterThan(turns.length);
  expect(generate.some((r) => JSON.stringify(r.body.contents).includes('functionResponse'))).toBe(true);
  // Every answered turn reports Gemini's usage; later turns read most of their prompt from cache.
  const answered = controller.state.answered;
  for (const t of answered) expect(t.usage!.inputTokens).toBeGreaterThan(0);
  const cached = answered.slice(2).filter((t) => t.usage!.cachedReadTokens > 0);
  expect(cached.length).toBeGreaterThan(answered.length / 2);
  // Once the library is carried in the system message it is an explicit entry: made, read, its storage in the cost.
  const creates = server.requests.filter((r) => r.path === '/v1beta/cachedContents');
  expect(creates.length).toBeGreaterThanOrEqual(1);
  const last = answered.at(-1)!;
  expect(last.usage!.cachedReadTokens).toBeGreaterThan(1024);
  const stored = answered.filter((t) => (t.usage!.cacheStorageTokenHours ?? 0) > 0);
  expect(stored.length).toBe(creates.length);
  for (const t of answered) expect(t.cost).toBeGreaterThan(0);
});

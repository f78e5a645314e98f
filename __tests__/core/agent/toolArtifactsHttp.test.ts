/**
 * Historical tool outputs as artifacts (issue 27) in a real agent chat: real LangChain clients with
 * bound tools over HTTP to the local provider server, the real tools over the example vault, the
 * real chat-note archive. Condensing shortens an earlier turn's readNote output to its outline (the
 * tool message keeps its call id), the chat note records it, and the reopened chat sends the next
 * request byte for byte as the live one.
 */
import { ChatController } from '../../../src/core/chat/chatController';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost } from '../../../src/node/toolHost';
import type { ProviderServer, RecordedRequest } from '../../../testing/providerServer';
import { makeController, settingsFor, VAULT, VENT } from '../chat/controllerHarness';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });
let index: VaultIndex;
beforeAll(async () => {
  index = new VaultIndex(new FsVault(VAULT), { excludedFolders: [] });
  await index.build({ pause: () => Promise.resolve() });
});

const host = () => fsToolHost({ vault: new FsVault(VAULT), search: index, hidden: ['Strata'] });
const TASK = 'Tasks/Writing a task.md';
const LOG = 'Projects/Greenhouse/Climate log.md';

const generations = (): RecordedRequest[] => server.requests.filter((r) => r.path.includes('chat/completions'));
const script = (path: string, question: string) => [`[[tool readNote {"path":"${path}"}]]`, question].join('\n');

describe('earlier tool outputs shortened at a condensing, in an agent chat over HTTP', () => {
  test('the older readNote goes as its outline with its call id; reopened, the next request is the same bytes', async () => {
    const h = makeController({ ...settingsFor(server.url), defaultMode: 'agent' });
    const controller = new ChatController({ ...h.deps, toolHost: () => host() });
    await controller.send(script(VENT, 'Which vent openers work without electricity?'));
    await controller.send(script(LOG, 'What did the climate log record?'));
    await controller.send(script(TASK, 'How do I date a task?'));
    await controller.send('Thanks.');
    const said = await controller.condense();
    expect(said).toMatch(/earlier tool outputs? shortened/);
    const record = controller.state.conversation.compactions!.at(-1)!;
    expect(record.toolForms?.length).toBeGreaterThan(0);

    await controller.flush();
    const reopened = new ChatController({ ...h.deps, toolHost: () => host() });
    await reopened.open(controller.state.conversation.id);
    expect(reopened.state.conversation.compactions!.at(-1)!.toolForms).toEqual(record.toolForms);
    const before = generations().length;
    await reopened.send('And about frost?');
    await controller.send('And about frost?');
    const [fromReopened, fromLive] = generations().slice(before);
    expect(JSON.stringify(fromReopened.body)).toBe(JSON.stringify(fromLive.body));
    // The live request carries an outline in place of an earlier note, as a tool message with its call id.
    const messages = (fromLive.body as { messages: { role: string; content: unknown; tool_call_id?: string }[] }).messages;
    const shortened = messages.filter((m) => m.role === 'tool' && typeof m.content === 'string' && m.content.includes('kept as its heading outline'));
    expect(shortened.length).toBeGreaterThan(0);
    expect(shortened.every((m) => typeof m.tool_call_id === 'string' && m.tool_call_id.length > 0)).toBe(true);
  });
});

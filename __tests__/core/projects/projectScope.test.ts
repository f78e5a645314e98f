/**
 * A project's chat stays inside the project's folder: Vault QA's hits and the agent's tools (search,
 * read, list) see only notes under it, and never the chats saved in its Chats folder (chats are
 * not sources). Through the controller, over real HTTP to the local provider server; the agent's
 * tools over the example vault (copied, with a saved chat note in the project's Chats folder) and
 * a real VaultIndex; Vault QA over the test-only term-overlap search of the same copy.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/core/chat/chatController';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { withoutChatNotes } from '../../../src/core/context/chatNotesHidden';
import { chatFolders } from '../../../src/core/projects/projects';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import type { StrataSettings } from '../../../src/core/settings/settings';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost } from '../../../src/node/toolHost';
import type { ProviderServer } from '../../../testing/providerServer';
import { TermOverlapSearch } from '../../helpers/termSearch';
import { makeController, settingsFor, VAULT } from '../chat/controllerHarness';
import { useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
let dir: string;
let index: VaultIndex;

const CHAT_NOTE = 'Projects/Greenhouse/Chats/2026-03-01 Vents.md';

useProviderServer((s) => (server = s));
beforeAll(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-projects-'));
  cpSync(VAULT, dir, { recursive: true });
  // A chat of the project saved earlier: it names the same things as the notes, but it is no source.
  mkdirSync(path.join(dir, 'Projects/Greenhouse/Chats'), { recursive: true });
  writeFileSync(
    path.join(dir, CHAT_NOTE),
    '---\ntitle: Vents\nstrata:\n  format: 2\n  id: chat-old\n  project: greenhouse\n---\n\n## User · 1\n\nvent openers seedlings watering wax cylinder electricity\n',
  );
  // The index as the plugin builds it: every folder chats are saved in is left out.
  index = new VaultIndex(new FsVault(dir), { excludedFolders: chatFolders(baseSettings()) });
  await index.build({ pause: () => Promise.resolve() });
}, 60_000);
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

function baseSettings(extra: Partial<StrataSettings> = {}): StrataSettings {
  const url = server?.url ?? 'http://127.0.0.1:1';
  return {
    ...settingsFor(url),
    projects: [{ id: 'greenhouse', name: 'Greenhouse', folder: 'Projects/Greenhouse', prompt: 'Greenhouse only.', notes: [] }],
    ...extra,
  };
}

function controllerFor(settings: StrataSettings) {
  const h = makeController(settings, { vault: new FsVault(dir) });
  // The vault as the plugin gives it: chat notes of every chats folder are not listed.
  const vault = withoutChatNotes(new FsVault(dir), () => chatFolders(settings));
  const archive = new ChatArchive(h.files, { now: h.deps.now }, settings.chatFolder, () => settings.projects);
  const search = new TermOverlapSearch(dir);
  return new ChatController({
    ...h.deps,
    vault,
    archive,
    search: () => search,
    // Only the chat folder hidden, over the raw vault: the controller adds the project's scope and every chats folder.
    toolHost: () => fsToolHost({ vault: new FsVault(dir), search: index, hidden: [settings.chatFolder] }),
  });
}

const QUESTION = 'Which vent openers work without electricity for the seedlings watering?';

describe('Vault QA', () => {
  test("a project's search keeps only hits inside its folder, and never its saved chats", async () => {
    const settings = baseSettings({ defaultMode: 'vault-qa' });
    // Without a project, the same search finds notes elsewhere too (the control).
    const plain = controllerFor(settings);
    await plain.send(QUESTION);
    const everywhere = plain.state.conversation.turns[0].search?.sources.map((s) => s.path) ?? [];
    expect(everywhere.some((p) => !p.startsWith('Projects/Greenhouse/'))).toBe(true);
    expect(everywhere).not.toContain(CHAT_NOTE);

    const controller = controllerFor(settings);
    controller.setProject('greenhouse');
    await controller.send(QUESTION);
    const turn = controller.state.conversation.turns[0];
    expect(turn.status).toBe('complete');
    const sources = turn.search?.sources.map((s) => s.path) ?? [];
    expect(sources.length).toBeGreaterThan(0);
    expect(sources.every((p) => p.startsWith('Projects/Greenhouse/') && !p.startsWith('Projects/Greenhouse/Chats/'))).toBe(true);
    // What the model got: the localSearch block names only those notes.
    const block = turn.tools[0].output;
    expect(block).toContain('Projects/Greenhouse/');
    expect(block).not.toMatch(/Daily\/|Reading\/|Notes\/|Chats\//);
  });
});

describe('Agent', () => {
  const SCRIPT = [
    '[[tool localSearch {"query":"vent openers seedlings watering"}]]',
    '[[tool readNote {"path":"Daily/2026-03-02.md"}]]',
    '[[tool listFolder {"path":""}]]',
    `[[tool readNote {"path":"${CHAT_NOTE}"}]]`,
    'What do my notes say about vents?',
  ].join('\n');

  test("a project's tools search, read and list only inside its folder, never its chats", async () => {
    const settings = baseSettings({ defaultMode: 'agent', agentMaxSteps: 8 });
    const controller = controllerFor(settings);
    controller.setProject('greenhouse');
    await controller.send(SCRIPT);
    const turn = controller.state.conversation.turns[0];
    expect(turn.status).toBe('complete');
    expect(turn.tools.map((t) => t.name)).toEqual(['localSearch', 'readNote', 'listFolder', 'readNote']);
    const [search, readOutside, list, readChat] = turn.tools.map((t) => t.output);
    expect(search).toContain('Projects/Greenhouse/');
    expect(search).not.toMatch(/Daily\/|Reading\/|Notes\/|Chats\//);
    expect(readOutside).toMatch(/^Error: .*outside the project folder "Projects\/Greenhouse"/);
    expect(list).toMatch(/^Contents of the project folder "Projects\/Greenhouse\/": 4 notes/);
    expect(list).toContain('Plan.md');
    expect(list).not.toMatch(/Daily|Piano Lessons|Chats|Vents/);
    expect(readChat).toMatch(/^Error: .*saved chats are not sources/);
    expect(readChat).not.toContain('wax cylinder');
    expect(turn.search?.sources.every((s) => s.path.startsWith('Projects/Greenhouse/'))).toBe(true);
  });

  test('without a project the same tools reach the whole vault (the control)', async () => {
    const controller = controllerFor(baseSettings({ defaultMode: 'agent', agentMaxSteps: 8 }));
    await controller.send(SCRIPT);
    const [, readOutside, list, readChat] = controller.state.conversation.turns[0].tools.map((t) => t.output);
    expect(readOutside).not.toMatch(/^Error: /);
    expect(list).toContain('Daily/');
    // A project's chats stay hidden from every chat, in a project or not.
    expect(list).not.toMatch(/Chats|Vents/);
    expect(readChat).toMatch(/^Error: .*saved chats are not sources/);
  });
});

/**
 * An imported Copilot chat continues like a Strata chat (issue 12, bug 9): the first message after
 * the import is an ordinary first request (full, nothing named as broken), not a false note-edited
 * break; imported replies say they were imported instead of "0 in · 0 out". Real files: the vault,
 * with the Copilot note and the chats folder in it.
 */
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/core/chat/chatController';
import { missingUsage } from '../../../src/core/chat/missingUsage';
import { withoutChatNotes } from '../../../src/core/context/chatNotesHidden';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { importCopilotChat } from '../../../src/core/conversation/copilotImport';
import { FsChatStore } from '../../../src/node/fsChatStore';
import { FsVault } from '../../../src/node/fsVault';
import { memoryProviders, settingsFor, VAULT } from './controllerHarness';

const SOURCE = 'copilot-conversations/Greenhouse ventilation.md';
const settings = settingsFor('http://127.0.0.1:9');
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-import-'));
  cpSync(VAULT, dir, { recursive: true });
  mkdirSync(path.join(dir, 'copilot-conversations'));
  writeFileSync(path.join(dir, SOURCE), readFileSync(path.join(__dirname, '..', 'conversation', 'fixtures', 'copilot-paths.md'), 'utf8'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('import, reopen, send: a plain first request, no false note-edited break; imported replies say so', async () => {
  let clock = 1_780_000_000_000;
  const now = () => (clock += 1000);
  // As main.ts builds it: a fresh reader per use (FsVault lists once), chat notes not listed.
  const vault = () => withoutChatNotes(new FsVault(dir), () => settings.chatFolder);
  const archive = new ChatArchive(new FsChatStore(dir), { now }, settings.chatFolder);
  const source = (await vault().read(SOURCE)) ?? '';
  const imported = await importCopilotChat(source, vault(), { now }, { defaultModel: settings.defaultModel, rendering: settings.rendering, freshness: settings.freshness });
  const saved = await archive.save({ ...imported.conversation, id: 'imported', provider: 'local', model: 'gpt-4o' });

  const { providers, model } = memoryProviders();
  const controller = new ChatController({ vault: vault(), archive, providers, settings: () => settings, now, newId: () => 'x' });
  await controller.open(saved.conversation.id);
  expect(controller.state.warnings).toEqual([]);
  expect(controller.state.answered.map((t) => missingUsage(t)?.short)).toEqual(['imported', 'imported']);

  await controller.send('Are the vents enough?', []);
  const turn = controller.state.answered[2];
  expect(turn.envelope?.prefixChange).toBeNull();
  expect(turn.envelope?.compile?.mode).toBe('full');
  expect(missingUsage(turn)).toBeNull();
  expect(model.requests).toHaveLength(1);
  // The imported library went along; the Copilot note itself was not attached.
  expect(JSON.stringify(model.lastMessages)).toContain('Projects/Greenhouse/Plan.md');
  expect(JSON.stringify(model.lastMessages)).not.toContain('copilot-conversations');
});

/**
 * Chat notes are not context: a folder or tag listing leaves the chats folder out. A saved chat
 * names its tag in its context list ("- Tag: #seedlings"), so, listed, it joined the very listing
 * it had attached, and reopening it reported the listing as edited: a false `note-edited` prefix
 * break (issue 12, bug 9, seen first on an imported Copilot chat). Real files on disk: the vault
 * and the chats folder in it.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChatController } from '../../../src/core/chat/chatController';
import { withoutChatNotes } from '../../../src/core/context/chatNotesHidden';
import { ChatArchive } from '../../../src/core/conversation/archive';
import type { VaultReader } from '../../../src/core/ports/vault';
import { FsChatStore } from '../../../src/node/fsChatStore';
import { FsVault } from '../../../src/node/fsVault';
import { memoryProviders, settingsFor, VAULT } from './controllerHarness';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'strata-hidden-'));
  cpSync(VAULT, dir, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const settings = settingsFor('http://127.0.0.1:9');

function controllerOver(vault: VaultReader, ids: string[]): ChatController {
  let clock = 1_700_000_000_000;
  const now = () => (clock += 1000);
  const { providers } = memoryProviders();
  return new ChatController({
    vault,
    archive: new ChatArchive(new FsChatStore(dir), { now }, settings.chatFolder),
    providers,
    settings: () => settings,
    now,
    newId: () => ids.shift() ?? 'z',
  });
}

test('a chat with a tag chip, saved in the vault, reopens without a false note-edited break', async () => {
  // A fresh reader each time (FsVault lists once): the second sees the saved chat note, as Obsidian would.
  const vault = () => withoutChatNotes(new FsVault(dir), () => settings.chatFolder);
  const first = controllerOver(vault(), ['chat-a']);
  await first.send('What about the seedlings?', [{ kind: 'tag', tag: '#seedlings' }]);
  await first.flush();
  const again = controllerOver(vault(), ['x']);
  await again.open('chat-a');
  expect(again.state.warnings).toEqual([]);
  await again.send('And the tomatoes?', []);
  expect(again.state.answered[1].envelope?.prefixChange).toBeNull();
});

test('listings leave chats out (the chats folder, Copilot’s saved chats); a chat note can still be read by its path', async () => {
  const plain = new FsVault(dir);
  const first = controllerOver(plain, ['chat-a']);
  await first.send('Hello', []);
  await first.flush();
  const all = await plain.listMarkdown();
  const chats = all.filter((p) => p.startsWith(`${settings.chatFolder}/`));
  expect(chats).toHaveLength(1);
  // A chat the Copilot plugin saved (its tag says so), anywhere in the vault.
  const copilot = 'Notes/Old Copilot chat.md';
  mkdirSync(path.join(dir, 'Notes'), { recursive: true });
  writeFileSync(path.join(dir, copilot), '---\nepoch: 1\ntags:\n  - copilot-conversation\n---\n\n**user**: hi #seedlings\n');
  const hidden = withoutChatNotes(new FsVault(dir), () => `/${settings.chatFolder}/`);
  expect(await hidden.listMarkdown()).toEqual(all.filter((p) => !chats.includes(p)));
  expect(await hidden.read(chats[0])).toContain('Hello');
  expect(await hidden.read(copilot)).toContain('**user**: hi');
});

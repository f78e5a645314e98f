import type { TAbstractFile } from 'obsidian';
import { fileChip } from '../../src/obsidian/addToChatMenus';
import { startWorkbenchApp, type WorkbenchApp } from '../helpers/workbenchApp';

/** What "Add to Strata chat" in the file explorer attaches, for the vault's own files and folders. */
let wb: WorkbenchApp;
beforeAll(async () => {
  wb = await startWorkbenchApp();
  await wb.app.vault.createFolder('Strata/Chats');
  await wb.app.vault.create('Strata/Chats/A chat.md', '---\nstrata: 1\n---\n');
});
afterAll(() => wb.close());

const at = (path: string): TAbstractFile => {
  const file = wb.app.vault.getAbstractFileByPath(path);
  if (!file) throw new Error(`missing ${path}`);
  return file as unknown as TAbstractFile;
};

test('a note and a folder become chips; the root, other files and the chats are not offered', () => {
  expect(fileChip(at('Projects/Greenhouse/Plan.md'), 'Strata/Chats')).toEqual({ kind: 'note', path: 'Projects/Greenhouse/Plan.md' });
  expect(fileChip(at('Projects/Greenhouse'), 'Strata/Chats')).toEqual({ kind: 'folder', path: 'Projects/Greenhouse' });
  expect(fileChip(at('/'), 'Strata/Chats')).toBeNull();
  expect(fileChip(at('Edge cases/empty/readme.txt'), 'Strata/Chats')).toBeNull();
  expect(fileChip(at('Strata/Chats/A chat.md'), 'Strata/Chats')).toBeNull();
  expect(fileChip(at('Strata/Chats'), 'Strata/Chats')).toBeNull();
  // The folder holding the chats folder is the user's: it can be attached.
  expect(fileChip(at('Strata'), 'Strata/Chats')).toEqual({ kind: 'folder', path: 'Strata' });
  expect(fileChip(at('Strata/Chats/A chat.md'), null)).toEqual({ kind: 'note', path: 'Strata/Chats/A chat.md' });
});

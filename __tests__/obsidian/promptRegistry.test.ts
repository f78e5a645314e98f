import type { FileManager, Vault } from 'obsidian';
import { PromptRegistry } from '../../src/obsidian/promptRegistry';
import { startWorkbenchApp, type WorkbenchApp } from '../helpers/workbenchApp';

/**
 * The prompts folder over a real vault (the workbench's Vault on a copy of examples/vault, writing
 * to disk): prompts and their "Run prompt" commands follow the notes as they are created, edited,
 * renamed and deleted, through the vault's own events.
 */
let wb: WorkbenchApp;
let vault: Vault;
let folder: string;
let calls: string[];
let ran: string[];
let registry: PromptRegistry;

beforeEach(async () => {
  wb = await startWorkbenchApp();
  vault = wb.app.vault as unknown as Vault;
  folder = 'Strata/Prompts';
  calls = [];
  ran = [];
  const added = new Map<string, () => void>();
  registry = new PromptRegistry(
    vault,
    () => folder,
    {
      add: (id, name, run) => {
        calls.push(`add ${id} "${name}"`);
        added.set(id, run);
      },
      remove: (id) => {
        calls.push(`remove ${id}`);
        added.delete(id);
      },
    },
    (name) => ran.push(name),
  );
  registry.watch(() => undefined);
  await registry.reload();
  // The command's callback runs the prompt by name.
  runCommand = (id) => added.get(id)?.();
});
afterEach(() => wb.close());

let runCommand: (id: string) => void;
const names = () => registry.current.prompts.map((p) => p.name);
async function changed(action: Promise<unknown>): Promise<void> {
  await action;
  await registry.settled();
}

test('no folder yet: no prompts and no commands', () => {
  expect(names()).toEqual([]);
  expect(calls).toEqual([]);
});

test('notes created, edited, renamed and deleted in the folder keep the prompts and their commands current', async () => {
  await changed(vault.createFolder(folder));
  await changed(vault.create(`${folder}/Summarize.md`, '---\ndescription: Three bullets\n---\nSummarize {selection}'));
  expect(names()).toEqual(['Summarize']);
  expect(registry.current.prompts[0].description).toBe('Three bullets');
  expect(calls).toEqual(['add run-prompt-summarize "Run prompt: Summarize"']);
  runCommand('run-prompt-summarize');
  expect(ran).toEqual(['Summarize']);

  // A broken note is reported; the good one keeps its command.
  calls.length = 0;
  await changed(vault.create(`${folder}/Broken.md`, '---\ndescription: "open\n---\nText'));
  expect(names()).toEqual(['Summarize']);
  expect(registry.current.problems.map((p) => p.path)).toEqual([`${folder}/Broken.md`]);
  expect(calls).toEqual([]);

  // Fixed: it becomes a prompt with a command.
  const broken = vault.getFileByPath(`${folder}/Broken.md`);
  if (!broken) throw new Error('missing note');
  await changed(vault.modify(broken, 'Now fine: {input}'));
  expect(names()).toEqual(['Broken', 'Summarize']);
  expect(registry.current.problems).toEqual([]);
  expect(calls).toEqual(['add run-prompt-broken "Run prompt: Broken"']);

  // Renamed: the old command goes, the new one comes.
  calls.length = 0;
  const summarize = vault.getFileByPath(`${folder}/Summarize.md`);
  if (!summarize) throw new Error('missing note');
  await vault.createFolder(`${folder}/Sub`);
  await changed(vault.rename(summarize, `${folder}/Sub/Summary.md`));
  expect(names()).toEqual(['Broken', 'Summary']);
  expect(calls).toEqual(['remove run-prompt-summarize', 'add run-prompt-summary "Run prompt: Summary"']);

  // Deleted.
  calls.length = 0;
  const fine = vault.getFileByPath(`${folder}/Broken.md`);
  if (!fine) throw new Error('missing note');
  await changed((wb.app.fileManager as unknown as FileManager).trashFile(fine));
  expect(names()).toEqual(['Summary']);
  expect(calls).toEqual(['remove run-prompt-broken']);
  expect(registry.commandList()).toEqual([['run-prompt-summary', 'Run prompt: Summary']]);
});

test('a note outside the folder is not a prompt; moving it in makes it one, moving the folder away removes them all', async () => {
  await vault.createFolder(folder);
  await changed(vault.create('Strata/Elsewhere.md', 'Not a prompt {selection}'));
  expect(names()).toEqual([]);
  const note = vault.getFileByPath('Strata/Elsewhere.md');
  if (!note) throw new Error('missing note');
  await changed(vault.rename(note, `${folder}/Elsewhere.md`));
  expect(names()).toEqual(['Elsewhere']);
  const prompts = vault.getFolderByPath(folder);
  if (!prompts) throw new Error('missing folder');
  await changed(vault.rename(prompts, 'Strata/Old prompts'));
  expect(names()).toEqual([]);
  expect(calls).toEqual(['add run-prompt-elsewhere "Run prompt: Elsewhere"', 'remove run-prompt-elsewhere']);
});

test('changing the folder setting and reloading switches to that folder', async () => {
  await vault.createFolder('My prompts');
  await changed(vault.create('My prompts/Ask.md', '{input}'));
  expect(names()).toEqual([]);
  folder = 'My prompts/';
  await registry.reload();
  expect(names()).toEqual(['Ask']);
  expect(calls).toEqual(['add run-prompt-ask "Run prompt: Ask"']);
});

/**
 * The Obsidian adapter against the workbench's shim of the Obsidian API (workbench/shim/node.ts),
 * over a copy of the vault on disk: Vault.getMarkdownFiles/getFileByPath/getAbstractFileByPath/
 * read/create/createFolder/process and FileManager.trashFile. Everything else is real.
 */
import { ChatArchive } from '../../src/core/conversation/archive';
import { encodeChatNote } from '../../src/core/conversation/codec';
import { newConversation } from '../../src/core/conversation/model';
import { ChatBuilder } from '../helpers/chatBuilder';
import { PromptContextEngine } from '../../src/core/engine/engine';
import { promptFragments } from '../../src/core/systemPrompt';
import { ObsidianChatStore } from '../../src/obsidian/chatStore';
import { recordingApp, startWorkbenchApp, type WorkbenchApp } from '../helpers/workbenchApp';
import { tickingClock } from '../core/conversation/helpers';

let wb: WorkbenchApp;
beforeEach(async () => (wb = await startWorkbenchApp()));
afterEach(() => wb.close());
const fakeApp = () => recordingApp(wb);

const MODEL = 'gpt-4o';

async function turn(repo: ChatBuilder, text: string, reply: string) {
  const i = repo.addUserMessage(text);
  const assembly = repo.engine.assemble({ userText: text, items: [], fragments: promptFragments(), model: MODEL });
  repo.completeTurn(i, assembly, reply);
}

describe('ObsidianChatStore', () => {
  test('creates the folder and note with vault.create, updates only through vault.process, trashes via FileManager', async () => {
    const { app, vault, trashed } = fakeApp();
    const clock = tickingClock();
    const archive = new ChatArchive(new ObsidianChatStore(app), clock, '/Strata//Chats/');
    const repo = new ChatBuilder(newConversation({ provider: 'openai', model: MODEL }, clock), new PromptContextEngine(), clock);
    await turn(repo, 'First question', 'First answer');
    const { path } = await archive.save(repo.conversation);
    expect(path).toBe('Strata/Chats/2026-11-22 First question.md');
    expect(vault.calls).toEqual(['createFolder Strata', 'createFolder Strata/Chats', `create ${path}`]);

    await turn(repo, 'Second question', 'Second answer');
    await archive.save(repo.conversation);
    expect(vault.calls.slice(3)).toEqual([`process ${path}`]);
    expect(vault.files.get(path)).toBe(encodeChatNote(repo.conversation));

    expect((await archive.list()).map((c) => c.title)).toEqual(['First question']);
    await archive.delete(repo.conversation.id);
    expect(trashed).toEqual([path]);
  });

  test('an edit made in the editor while the chat is open is kept by the next save (merged inside vault.process)', async () => {
    const { app, vault } = fakeApp();
    const clock = tickingClock();
    const archive = new ChatArchive(new ObsidianChatStore(app), clock);
    const repo = new ChatBuilder(newConversation({ provider: 'openai', model: MODEL }, clock), new PromptContextEngine(), clock);
    await turn(repo, 'Question one', 'Answer one, with a tpyo.');
    const { path } = await archive.save(repo.conversation);

    // The user fixes the typo in the reply and tags the note while the next request runs; the
    // edit lands just before the save's process() call.
    vault.beforeProcess = (p) => {
      const text = vault.files.get(p) as string;
      vault.files.set(p, text.replace('with a tpyo.', 'with a typo fixed.').replace('strata:\n', 'tags: [garden]\nstrata:\n'));
      vault.beforeProcess = null;
    };
    await turn(repo, 'Question two', 'Answer two.');
    const result = await archive.save(repo.conversation);
    expect(result.edited).toEqual([0]);
    expect(result.warnings[0]).toContain('edited while the chat was open');
    const saved = vault.files.get(path) as string;
    expect(saved).toContain('Answer one, with a typo fixed.');
    expect(saved).toContain('Answer two.');
    expect(saved).toContain('tags:\n  - garden\n');
    expect(result.conversation.turns[0].reply).toBe('Answer one, with a typo fixed.');

    // Without a concurrent edit the next save writes exactly the conversation.
    const again = await archive.save(result.conversation);
    expect(again.edited).toEqual([]);
    expect(vault.files.get(path)).toBe(encodeChatNote(result.conversation));
  });
});

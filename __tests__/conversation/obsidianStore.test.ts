/**
 * The Obsidian adapter against a small in-memory stand-in for the parts of the Obsidian API it
 * uses (the app cannot run here): Vault.getMarkdownFiles/getFileByPath/getAbstractFileByPath/
 * read/create/createFolder/process and FileManager.trashFile. Everything else is real.
 */
jest.mock(
  'obsidian',
  () => ({
    normalizePath: (p: string) =>
      p
        .replace(/\\/g, '/')
        .replace(/\/+/g, '/')
        .replace(/^\/+|\/+$/g, '')
        .normalize('NFC') || '/',
  }),
  { virtual: true },
);

import type { App } from 'obsidian';
import { ChatArchive } from '../../src/core/conversation/archive';
import { encodeChatNote } from '../../src/core/conversation/codec';
import { newConversation } from '../../src/core/conversation/model';
import { ChatBuilder } from '../helpers/chatBuilder';
import { PromptContextEngine } from '../../src/core/engine/engine';
import { promptFragments } from '../../src/core/prompts';
import { ObsidianChatStore } from '../../src/obsidian/chatStore';
import { tickingClock } from './helpers';

interface FakeFile {
  path: string;
  basename: string;
  extension: string;
}

class FakeVault {
  files = new Map<string, string>();
  folders = new Set<string>();
  /** Called inside process() before the update runs: lets a test simulate an edit racing the save. */
  beforeProcess: ((path: string) => void) | null = null;
  calls: string[] = [];

  private handle(path: string): FakeFile {
    const name = path.split('/').pop() ?? path;
    return { path, basename: name.replace(/\.md$/, ''), extension: 'md' };
  }
  getMarkdownFiles(): FakeFile[] {
    return [...this.files.keys()].filter((p) => p.endsWith('.md')).map((p) => this.handle(p));
  }
  getFileByPath(path: string): FakeFile | null {
    return this.files.has(path) ? this.handle(path) : null;
  }
  getAbstractFileByPath(path: string): object | null {
    return this.files.has(path) ? this.handle(path) : this.folders.has(path) ? { path } : null;
  }
  createFolder(path: string): Promise<object> {
    this.calls.push(`createFolder ${path}`);
    if (this.folders.has(path)) return Promise.reject(new Error('Folder already exists.'));
    this.folders.add(path);
    return Promise.resolve({ path });
  }
  create(path: string, data: string): Promise<FakeFile> {
    this.calls.push(`create ${path}`);
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    if (parent && !this.folders.has(parent)) return Promise.reject(new Error(`Folder ${parent} does not exist.`));
    if (this.files.has(path)) return Promise.reject(new Error('File already exists.'));
    this.files.set(path, data);
    return Promise.resolve(this.handle(path));
  }
  read(file: FakeFile): Promise<string> {
    return Promise.resolve(this.files.get(file.path) ?? '');
  }
  process(file: FakeFile, fn: (data: string) => string): Promise<string> {
    this.calls.push(`process ${file.path}`);
    this.beforeProcess?.(file.path);
    const next = fn(this.files.get(file.path) ?? '');
    this.files.set(file.path, next);
    return Promise.resolve(next);
  }
}

function fakeApp() {
  const vault = new FakeVault();
  const trashed: string[] = [];
  const app = {
    vault,
    fileManager: {
      trashFile: (file: FakeFile) => {
        trashed.push(file.path);
        vault.files.delete(file.path);
        return Promise.resolve();
      },
    },
  };
  return { app: app as unknown as App, vault, trashed };
}

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

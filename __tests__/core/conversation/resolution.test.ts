import { mkdirSync, mkdtempSync, renameSync, rmSync, writeFileSync, appendFileSync, unlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContextChip } from '../../../src/core/context/items';
import { ChipResolver } from '../../../src/core/context/resolver';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { newConversation } from '../../../src/core/conversation/model';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { ChatBuilder } from '../../helpers/chatBuilder';
import { PromptContextEngine } from '../../../src/core/engine/engine';
import { promptFragments } from '../../../src/core/systemPrompt';
import { reReadLibraryNotes } from '../../../src/core/context/libraryNotes';
import { FsVault } from '../../../src/node/fsVault';
import { FsChatStore } from '../../../src/node/fsChatStore';
import { tickingClock } from './helpers';

const MODEL = 'gpt-4o';
const fragments = promptFragments();

let root: string;
let vaultDir: string;
let chatsDir: string;

function write(rel: string, text: string): void {
  const full = path.join(vaultDir, rel);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, text);
}
function move(from: string, to: string): void {
  mkdirSync(path.dirname(path.join(vaultDir, to)), { recursive: true });
  renameSync(path.join(vaultDir, from), path.join(vaultDir, to));
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'strata-resolve-'));
  vaultDir = path.join(root, 'vault');
  chatsDir = path.join(root, 'chats');
  write('A/alpha.md', '# Alpha\nAlpha is the first note.\n');
  write('A/beta.md', '# Beta\nBeta will be renamed.\n');
  write('gamma.md', '# Gamma\nGamma will be deleted.\n');
  write('X/delta.md', '# Delta\nDelta moves, and a namesake appears.\n');
  write('eps.md', '# Epsilon\nEpsilon will be edited.\n');
  write('sel.md', 'line 1\nline 2 selected\nline 3 selected\nline 4\n');
  write('F/f1.md', 'first in folder #topic\n');
  write('F/f2.md', 'second in folder\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const chips: ContextChip[] = [
  { kind: 'note', path: 'A/alpha.md' },
  { kind: 'note', path: 'A/beta.md' },
  { kind: 'note', path: 'gamma.md' },
  { kind: 'note', path: 'X/delta.md' },
  { kind: 'note', path: 'eps.md' },
  { kind: 'selection', path: 'sel.md', fromLine: 2, toLine: 3 },
  { kind: 'folder', path: 'F' },
  { kind: 'tag', tag: '#topic' },
  { kind: 'url', url: 'https://example.org/page', content: 'Page text <!-- not a comment --> with ## heading\n---\n' },
];

/** Two turns through the real resolver, engine, repository and a chat store on disk. */
async function buildChat(): Promise<{ path: string; engine: PromptContextEngine; archive: ChatArchive; repo: ChatBuilder }> {
  const clock = tickingClock();
  const engine = new PromptContextEngine();
  const repo = new ChatBuilder(newConversation({ provider: 'openai', model: MODEL }, clock), engine, clock);
  const resolver = new ChipResolver(new FsVault(vaultDir));
  for (const [text, attached] of [
    ['Read all of these.', chips],
    ['And alpha again.', [chips[0]]],
  ] as const) {
    const index = repo.addUserMessage(text, { chips: attached });
    const { items, problems } = await resolver.resolve(attached);
    const assembly = engine.assemble({ userText: text, items, problems, fragments, model: MODEL });
    repo.completeTurn(index, assembly, `reply to: ${text}`);
  }
  const archive = new ChatArchive(new FsChatStore(chatsDir), clock);
  const { path: saved } = await archive.save(repo.conversation);
  return { path: saved, engine, archive, repo };
}

async function nextTurn(engine: PromptContextEngine, vault: FsVault) {
  const resolver = new ChipResolver(vault);
  const current = await reReadLibraryNotes(resolver, engine.libraryNotes(), []);
  return engine.assemble({ userText: 'Next question.', items: [], fragments, model: MODEL, current });
}

describe('loading resolves context refs: path, then unique basename, else skip with a warning', () => {
  test('nothing changed: the next request is the unbroken session’s, byte for byte', async () => {
    const { path: saved, engine, archive } = await buildChat();
    const loaded = await archive.loadPath(saved);
    expect(loaded.warnings).toEqual([]);
    const restored = await rehydrate(loaded.conversation, new FsVault(vaultDir));
    expect(restored.issues).toEqual([]);
    const expected = await nextTurn(engine, new FsVault(vaultDir));
    const actual = await nextTurn(restored.engine, new FsVault(vaultDir));
    expect(actual.messages).toEqual(expected.messages);
    expect(actual.prefixChange).toBeNull();
  });

  test('a moved note with a unique name is found by basename, keeps its id, and the prefix holds', async () => {
    const { path: saved, engine, archive } = await buildChat();
    move('A/alpha.md', 'B/moved/alpha.md');
    const restored = await rehydrate((await archive.loadPath(saved)).conversation, new FsVault(vaultDir));
    expect(restored.issues).toEqual([
      expect.objectContaining({ kind: 'moved', id: 'A/alpha.md', candidates: ['B/moved/alpha.md'] }),
    ]);
    expect(restored.edited).toEqual([]);
    const item = restored.engine.libraryItems().find((i) => i.id === 'A/alpha.md');
    expect(item?.source).toBe('B/moved/alpha.md');
    const unbroken = engine.assemble({ userText: 'Next question.', items: [], fragments, model: MODEL });
    const actual = restored.engine.assemble({ userText: 'Next question.', items: [], fragments, model: MODEL });
    expect(actual.messages).toEqual(unbroken.messages);
    expect(actual.prefixChange).toBeNull();
  });

  test('a library item removed just before the chat was closed is still named on the next turn after reopening', async () => {
    const { engine, archive, repo } = await buildChat();
    expect(repo.engine).toBe(engine);
    expect(repo.removeFromLibrary('A/beta.md')).toBe(true);
    const { path: saved } = await archive.save(repo.conversation);
    const loaded = await archive.loadPath(saved);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.conversation.pending).toEqual([{ type: 'removed', id: 'A/beta.md' }]);
    const restored = await rehydrate(loaded.conversation, new FsVault(vaultDir));
    const next = await nextTurn(restored.engine, new FsVault(vaultDir));
    expect(next.prefixChange).toMatchObject({ reason: 'library-item-removed', detail: expect.stringContaining('A/beta.md') });
    expect(next.envelope.removed).toEqual(['A/beta.md']);
    expect(next.messages).toEqual((await nextTurn(engine, new FsVault(vaultDir))).messages);
  });

  test('a moved note stays under the freshness policy: an edit at its new path is sent as a new version', async () => {
    const { path: saved, archive } = await buildChat();
    move('A/alpha.md', 'B/moved/alpha.md');
    const restored = await rehydrate((await archive.loadPath(saved)).conversation, new FsVault(vaultDir));
    appendFileSync(path.join(vaultDir, 'B/moved/alpha.md'), 'Edited after the move.\n');
    const next = await nextTurn(restored.engine, new FsVault(vaultDir));
    expect(next.envelope.freshness).toEqual([expect.objectContaining({ id: 'A/alpha.md', status: 'updated', fromVersion: 1, toVersion: 2 })]);
    expect(next.envelope.full).toEqual(['A/alpha.md@2']);
    expect(next.messages[next.messages.length - 1].content).toContain('Edited after the move.');
  });

  test('renamed, deleted, ambiguous and edited notes: skipped or refreshed, each reported, next turn says note-edited', async () => {
    const { path: saved, archive } = await buildChat();
    move('A/beta.md', 'A/beta renamed.md');
    unlinkSync(path.join(vaultDir, 'gamma.md'));
    move('X/delta.md', 'Y/delta.md');
    write('Z/delta.md', 'another delta\n');
    appendFileSync(path.join(vaultDir, 'eps.md'), 'An edit made while the chat was closed.\n');

    const restored = await rehydrate((await archive.loadPath(saved)).conversation, new FsVault(vaultDir));
    const byId = new Map(restored.issues.map((i) => [i.id, i]));
    expect(byId.get('A/beta.md')?.kind).toBe('missing');
    expect(byId.get('gamma.md')?.kind).toBe('missing');
    expect(byId.get('X/delta.md')).toEqual(expect.objectContaining({ kind: 'ambiguous', candidates: ['Y/delta.md', 'Z/delta.md'] }));
    expect(byId.get('X/delta.md')?.message).toContain('Y/delta.md, Z/delta.md');
    expect(byId.get('eps.md')?.kind).toBe('edited');
    expect([...restored.dropped].sort()).toEqual(['A/beta.md', 'X/delta.md', 'gamma.md']);
    expect([...restored.edited].sort()).toEqual(['A/beta.md', 'X/delta.md', 'eps.md', 'gamma.md']);

    const ids = restored.engine.libraryItems().map((i) => i.id);
    expect(ids).not.toContain('gamma.md');
    expect(ids).toEqual(expect.arrayContaining(['A/alpha.md', 'eps.md', 'sel.md#L2-L3', 'folder:F', 'tag:#topic', 'https://example.org/page']));
    const eps = restored.engine.libraryItems().find((i) => i.id === 'eps.md');
    expect(eps?.content).toContain('An edit made while the chat was closed.');
    const url = restored.engine.libraryItems().find((i) => i.kind === 'url');
    expect(url?.content).toBe(chips[8].kind === 'url' ? chips[8].content : '');

    const next = await nextTurn(restored.engine, new FsVault(vaultDir));
    expect(next.prefixChange?.reason).toBe('note-edited');
    for (const id of ['A/beta.md', 'gamma.md', 'X/delta.md', 'eps.md']) expect(next.prefixChange?.detail).toContain(id);
  });

  test('selections are re-read by line range; folder and tag listings by listing again', async () => {
    const { path: saved, archive } = await buildChat();
    write('F/f3.md', 'a new note in the folder\n');
    const restored = await rehydrate((await archive.loadPath(saved)).conversation, new FsVault(vaultDir));
    const sel = restored.engine.libraryItems().find((i) => i.id === 'sel.md#L2-L3');
    expect(sel?.content).toBe('line 2 selected\nline 3 selected');
    expect(restored.issues.map((i) => [i.kind, i.id])).toEqual([['edited', 'folder:F']]);
    const folder = restored.engine.libraryItems().find((i) => i.id === 'folder:F');
    expect(folder?.content).toContain('F/f3.md');
  });
});

import { mkdirSync, mkdtempSync, rmSync, writeFileSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ContextChip } from '../../../src/core/context/items';
import { ChipResolver } from '../../../src/core/context/resolver';
import { ChatArchive } from '../../../src/core/conversation/archive';
import { newConversation } from '../../../src/core/conversation/model';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { PromptContextEngine } from '../../../src/core/engine/engine';
import { promptFragments } from '../../../src/core/systemPrompt';
import { reReadLibraryNotes } from '../../../src/core/context/libraryNotes';
import { FsVault } from '../../../src/node/fsVault';
import { FsChatStore } from '../../../src/node/fsChatStore';
import { ChatBuilder } from '../../helpers/chatBuilder';
import { minimalPdf } from '../../../testing/pdf/minimalPdf';
import { tickingClock } from './helpers';

/** Issue 31: a PDF attached in a chat is saved in the chat note by path, reopened exactly, and kept fresh. */

const MODEL = 'gpt-4o';
const fragments = promptFragments();
let root: string;
let vaultDir: string;
let chatsDir: string;

function write(rel: string, body: string | Uint8Array): void {
  const full = path.join(vaultDir, rel);
  mkdirSync(path.dirname(full), { recursive: true });
  writeFileSync(full, body);
}

beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'strata-pdfchat-'));
  vaultDir = path.join(root, 'vault');
  chatsDir = path.join(root, 'chats');
  write('Docs/Manual.pdf', minimalPdf({ pages: [{ lines: ['Vents open at 24 degrees.'] }, { lines: ['Water from below.'] }] }));
  write('Docs/Scan.pdf', minimalPdf({ pages: [{ image: true }] }));
  write('note.md', '# Note\nA note beside the PDFs.\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const chips: ContextChip[] = [{ kind: 'pdf', path: 'Docs/Manual.pdf' }, { kind: 'pdf', path: 'Docs/Scan.pdf' }, { kind: 'note', path: 'note.md' }];

async function buildChat() {
  const clock = tickingClock();
  const engine = new PromptContextEngine();
  const repo = new ChatBuilder(newConversation({ provider: 'openai', model: MODEL }, clock), engine, clock);
  const resolver = new ChipResolver(new FsVault(vaultDir));
  for (const [text, attached] of [
    ['Read the manual and the scan.', chips],
    ['The manual again.', [chips[0]]],
  ] as const) {
    const index = repo.addUserMessage(text, { chips: attached });
    const { items, problems } = await resolver.resolve(attached);
    const assembly = engine.assemble({ userText: text, items, problems, fragments, model: MODEL });
    repo.completeTurn(index, assembly, `reply to: ${text}`);
  }
  const archive = new ChatArchive(new FsChatStore(chatsDir), clock);
  const { path: saved } = await archive.save(repo.conversation);
  return { saved, engine, archive, repo };
}

async function nextTurn(engine: PromptContextEngine) {
  const current = await reReadLibraryNotes(new ChipResolver(new FsVault(vaultDir)), engine.libraryNotes(), []);
  return engine.assemble({ userText: 'Next question.', items: [], fragments, model: MODEL, current });
}

test('the first request sends the PDF in a note block with its pages, and the scan as a notice (golden)', async () => {
  const { repo } = await buildChat();
  const first = repo.conversation.turns[0];
  expect(first.chips).toEqual(chips);
  const engine = new PromptContextEngine();
  const { items } = await new ChipResolver(new FsVault(vaultDir)).resolve(chips);
  const sent = engine.assemble({ userText: 'Q', items, fragments, model: MODEL }).messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
  expect(sent).toContain(
    [
      '<note_context id="Docs/Manual.pdf" title="Manual.pdf">',
      'PDF Manual.pdf, 2 pages; page N is Docs/Manual.pdf#page=N.',
      '',
      '## Page 1',
      '',
      'Vents open at 24 degrees.',
      '',
      '## Page 2',
      '',
      'Water from below.',
      '</note_context>',
    ].join('\n'),
  );
  expect(sent).toContain(
    '<note_context id="Docs/Scan.pdf" title="Scan.pdf">\nPDF Scan.pdf, 1 page, has no text layer (a scan or images only): its text cannot be read, so none of it is sent.\n</note_context>',
  );
});

test('saved and reopened: the chips read back exactly, and the next request is the unbroken session’s, byte for byte', async () => {
  const { saved, engine, archive } = await buildChat();
  const store = new FsChatStore(chatsDir);
  const note = (await store.read(saved)) ?? '';
  expect(note).toContain('- PDF: [[Docs/Manual.pdf]]');
  const loaded = await archive.loadPath(saved);
  expect(loaded.warnings).toEqual([]);
  expect(loaded.conversation.turns[0].chips).toEqual(chips);
  const restored = await rehydrate(loaded.conversation, new FsVault(vaultDir));
  expect(restored.issues).toEqual([]);
  const expected = await nextTurn(engine);
  const actual = await nextTurn(restored.engine);
  expect(actual.messages).toEqual(expected.messages);
  expect(actual.prefixChange).toBeNull();
  // Saved again after reopening: the same note.
  const again = await archive.save(loaded.conversation);
  expect(await store.read(again.path)).toBe(note);
});

test('a PDF changed while in the library is sent again as a new version (freshness by its stat)', async () => {
  const { engine } = await buildChat();
  write('Docs/Manual.pdf', minimalPdf({ pages: [{ lines: ['Vents open at 26 degrees now.'] }] }));
  utimesSync(path.join(vaultDir, 'Docs/Manual.pdf'), new Date(2031, 0, 1), new Date(2031, 0, 1));
  const next = await nextTurn(engine);
  expect(next.envelope.freshness).toEqual([expect.objectContaining({ id: 'Docs/Manual.pdf', status: 'updated', fromVersion: 1, toVersion: 2 })]);
  expect(next.messages[next.messages.length - 1].content).toContain('Vents open at 26 degrees now.');
});

test('metadata lost: a PDF line of the context list rebuilds its library item', async () => {
  const { libraryFromContext } = await import('../../../src/core/conversation/contextList');
  const warnings: string[] = [];
  const turns = [{ status: 'complete' }] as unknown as Parameters<typeof libraryFromContext>[1];
  const refs = libraryFromContext([{ context: ['- PDF: [[Docs/Manual.pdf]]', '- PDF: `Docs/odd [name].pdf` · again'] }], turns, warnings);
  expect(refs).toEqual([
    { version: 1, hash: '', tokens: 0, enteredTurn: 1, id: 'Docs/Manual.pdf', kind: 'pdf', title: 'Manual.pdf', source: 'Docs/Manual.pdf' },
    { version: 1, hash: '', tokens: 0, enteredTurn: 1, id: 'Docs/odd [name].pdf', kind: 'pdf', title: 'odd [name].pdf', source: 'Docs/odd [name].pdf' },
  ]);
});

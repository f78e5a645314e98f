import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import { importCopilotChat, parseCopilotChat } from '../../../src/core/conversation/copilotImport';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { promptFragments } from '../../../src/core/systemPrompt';
import { FsVault } from '../../../src/node/fsVault';
import { ROOT, tickingClock } from './helpers';

// Samples of the Copilot plugin's saved-chat format, written for these tests.
const sample = (name: string) => readFileSync(path.join(__dirname, 'fixtures', name), 'utf8');

let vaultDir: string;
beforeAll(() => {
  vaultDir = mkdtempSync(path.join(os.tmpdir(), 'strata-copilot-'));
  cpSync(path.join(ROOT, 'examples', 'vault'), vaultDir, { recursive: true });
  // A namesake makes "Plan.md" ambiguous for chats that list notes by basename.
  writeFileSync(path.join(vaultDir, 'Reading', 'Plan.md'), '# Reading plan\n');
});
afterAll(() => rmSync(vaultDir, { recursive: true, force: true }));

describe('Copilot chat import', () => {
  test('parses messages, context lines and timestamps', () => {
    const chat = parseCopilotChat(sample('copilot-paths.md'));
    expect(chat).toEqual(
      expect.objectContaining({ epoch: 1772443800000, modelKey: 'gpt-4o|openai', topic: 'Greenhouse ventilation' }),
    );
    expect(chat.messages.map((m) => [m.sender, m.timestamp])).toEqual([
      ['user', '2026/03/02 10:30:00'],
      ['ai', '2026/03/02 10:30:12'],
      ['user', '2026/03/02 10:31:05'],
      ['ai', '2026/03/02 10:31:40'],
    ]);
    expect(chat.messages[0]).toEqual(
      expect.objectContaining({
        text: 'How big are the vents in the greenhouse plan?',
        notes: ['Projects/Greenhouse/Plan.md', 'Projects/Greenhouse/Ventilation.md'],
        tags: ['#seedlings'],
        urls: ['https://example.org/vents'],
      }),
    );
    expect(chat.messages[3].text).toBe('Tomatoes came up after a week; the peppers are slow.\n\n## What to do\n- keep the heat mat on\n- check again on Friday');
    expect(chat.messages[2].folders).toEqual(['Daily']);
  });

  test('imports a chat with full paths: turns, times, model, title and a Context Library that continues', async () => {
    const vault = new FsVault(vaultDir);
    const { conversation: c, warnings } = await importCopilotChat(sample('copilot-paths.md'), vault, tickingClock());
    expect(warnings).toEqual(['https://example.org/vents: Copilot did not save the page text; the URL is not in the Context Library']);
    expect(c).toEqual(expect.objectContaining({ title: 'Greenhouse ventilation', titleSource: 'generated', model: 'gpt-4o', provider: 'openai' }));
    expect(c.turns.map((t) => [t.status, t.text, t.reply?.slice(0, 20)])).toEqual([
      ['complete', 'How big are the vents in the greenhouse plan?', 'The roof vent is 1.2'],
      ['complete', 'And how are the seedlings doing?', 'Tomatoes came up aft'],
    ]);
    // Local wall-clock timestamps, placed in time with the zone offset that `epoch` implies (UTC+1 here).
    expect(c.turns.map((t) => [t.at, t.replyAt])).toEqual([
      [1772443800000, 1772443812000],
      [1772443865000, 1772443900000],
    ]);
    expect(c.library.map((r) => r.id)).toEqual([
      'Projects/Greenhouse/Plan.md',
      'Projects/Greenhouse/Ventilation.md',
      'tag:#seedlings',
      'Daily/2026-03-02.md',
      'Daily/2026-03-09.md',
      'Projects/Greenhouse/Seedlings.md',
      'folder:Daily',
    ]);

    // It saves as a Strata chat note, and reopens with nothing lost: the next request extends it.
    const note = encodeChatNote(c);
    const decoded = decodeChatNote(note, { id: 'x', now: 0 });
    expect(decoded.warnings).toEqual([]);
    expect(encodeChatNote(decoded.conversation)).toBe(note);
    const restored = await rehydrate(decoded.conversation, vault);
    expect(restored.issues).toEqual([]);
    const next = restored.engine.assemble({ userText: 'And the vents again?', items: [], fragments: promptFragments(), model: 'gpt-4o' });
    expect(next.prefixChange).toBeNull();
    expect(next.messages[1].content).toContain('<note_context id="Projects/Greenhouse/Plan.md"');
  });

  test('an old chat with basenames only (and CRLF line ends): unique names resolve, ambiguous and missing ones are reported', async () => {
    const text = sample('copilot-basenames.md').replace(/\n/g, '\r\n');
    const { conversation: c, warnings } = await importCopilotChat(text, new FsVault(vaultDir), tickingClock());
    expect(warnings).toEqual([
      'Plan.md: 2 notes have that name (Projects/Greenhouse/Plan.md, Reading/Plan.md); left out',
      'Missing note.md: not found in the vault; left out',
    ]);
    expect(c.turns[0].chips).toEqual([{ kind: 'note', path: 'Projects/Greenhouse/Seedlings.md' }]);
    expect(c.library.map((r) => r.id)).toEqual(['Projects/Greenhouse/Seedlings.md']);
    expect(c).toEqual(expect.objectContaining({ model: 'claude-3-5-sonnet-latest', provider: 'anthropic', title: 'Summarize my seedling notes' }));
    expect(c.turns.map((t) => t.status)).toEqual(['complete', 'failed']);
    expect(c.turns[1]).toEqual(expect.objectContaining({ text: 'Thanks, one more thing', at: 1741000030000 }));
    expect(c.turns[0].at).toBe(1741000000000);
  });

  test('no messages at all: an empty chat and a warning, not an exception', async () => {
    const { conversation, warnings } = await importCopilotChat('---\nepoch: nonsense\n---\n\njust some text\n', new FsVault(vaultDir), tickingClock());
    expect(conversation.turns).toEqual([]);
    expect(warnings).toEqual(['no **user**: or **ai**: messages were found']);
  });
});

import path from 'node:path';
import { decodeChatNote, encodeChatNote } from '../../../src/core/conversation/codec';
import { rehydrate } from '../../../src/core/conversation/rehydrate';
import { promptFragments } from '../../../src/core/systemPrompt';
import { loadScenario, recordScenario, ROOT } from './helpers';

const DEMO = path.join(ROOT, 'examples', 'scenarios', 'demo.json');
const RESEARCH = path.join(ROOT, 'examples', 'scenarios', 'research.json');
const fallback = { id: 'chat-fallback', now: 1_800_000_000_000 };

async function demoNote(file = DEMO) {
  const recorded = await recordScenario(file);
  return { ...recorded, note: encodeChatNote(recorded.conversation), vault: loadScenario(file).vault };
}

describe('a chat note edited by hand still loads', () => {
  test('edited message text is kept, reported, and the next turn says history-edited', async () => {
    // A scenario without note edits, so the only change is the hand edit.
    const { note, conversation, vault } = await demoNote(RESEARCH);
    const original = conversation.turns[1].text;
    const edited = note.replace(`\n${original}\n`, '\nIs the vent area enough for 14 m²?\n');
    const decoded = decodeChatNote(edited, fallback);
    expect(decoded.conversation.turns[1].text).toBe('Is the vent area enough for 14 m²?');
    expect(decoded.warnings).toEqual(['message 2: the user\'s text was edited by hand; the edited text is kept']);
    const restored = await rehydrate(decoded.conversation, vault);
    const next = restored.engine.assemble({ userText: 'next', items: [], fragments: promptFragments(), model: 'gpt-4o' });
    expect(restored.issues).toEqual([]);
    expect(next.prefixChange?.reason).toBe('history-edited');
    expect(next.messages.some((m) => m.content.includes('14 m²'))).toBe(true);
  });

  test('a repeated library line (copy-paste, sync conflict) loads with a warning instead of failing', async () => {
    const { note, vault } = await demoNote(RESEARCH);
    const lines = note.split('\n');
    const i = lines.findIndex((l) => /^> \{"item":\{"id":.*"enteredTurn":1\}\}$/.test(l));
    expect(i).toBeGreaterThan(0);
    lines.splice(i + 1, 0, lines[i]);
    const decoded = decodeChatNote(lines.join('\n'), fallback);
    const restored = await rehydrate(decoded.conversation, vault);
    expect(restored.issues.map((x) => x.message)).toEqual([expect.stringContaining('listed twice or out of order')]);
    const next = restored.engine.assemble({ userText: 'next', items: [], fragments: promptFragments(), model: 'gpt-4o' });
    expect(next.prefixChange).toBeNull();
  });

  test('no frontmatter at all: every message is recovered and the library is rebuilt from the context lists', async () => {
    const { note, conversation, vault } = await demoNote();
    const body = note.slice(note.indexOf('\n---\n') + 5);
    const decoded = decodeChatNote(body, fallback);
    expect(decoded.warnings[0]).toContain('no frontmatter');
    expect(decoded.conversation.turns.map((t) => [t.text, t.reply])).toEqual(conversation.turns.map((t) => [t.text, t.reply]));
    expect(decoded.conversation.turns.map((t) => t.tools)).toEqual(conversation.turns.map((t) => t.tools));
    const ids = decoded.conversation.library.map((r) => r.id);
    expect(ids).toEqual(expect.arrayContaining(['Projects/Greenhouse/Plan.md', 'Projects/Greenhouse/Ventilation.md', 'tag:#seedlings', 'folder:Projects/Greenhouse', 'Reading/The Market Gardener.md#L9-L13']));
    const restored = await rehydrate(decoded.conversation, vault);
    expect(restored.engine.turnCount).toBe(conversation.turns.length);
    expect(restored.engine.libraryItems().length).toBeGreaterThan(4);
  });

  test('garbled YAML: a visible warning, never an exception; messages still load', async () => {
    const { note, conversation } = await demoNote();
    const garbled = note.replace('strata:\n', 'strata: [unclosed\n  : {{\n');
    const decoded = decodeChatNote(garbled, fallback);
    expect(decoded.warnings.some((w) => w.includes('not valid YAML'))).toBe(true);
    expect(decoded.conversation.turns.map((t) => t.reply)).toEqual(conversation.turns.map((t) => t.reply));
  });

  test('wrong types in the metadata fall back field by field with warnings', () => {
    const note = [
      '---',
      'title: 42',
      'created: yesterday',
      'strata:',
      '  id: chat-x',
      '  session: {providerId: 3}',
      '  lastRequest: nonsense',
      '  library: [{id: a.md, kind: spaceship, source: a.md, version: 1, enteredTurn: 1}]',
      '  turns: [7, {status: complete, at: not-a-date, referenced: [1, 2]}]',
      '---',
      '',
      '## User · 1',
      '',
      'hello',
      '',
      '## Assistant · 1',
      '',
      'hi',
      '',
    ].join('\n');
    const decoded = decodeChatNote(note, fallback);
    expect(decoded.conversation.id).toBe('chat-x');
    expect(decoded.conversation.title).toBe('Untitled chat');
    expect(decoded.conversation.session).toBeNull();
    expect(decoded.conversation.library).toEqual([]);
    expect(decoded.conversation.turns).toHaveLength(1);
    expect(decoded.conversation.turns[0]).toEqual(expect.objectContaining({ text: 'hello', reply: 'hi', status: 'complete' }));
    expect(decoded.warnings.length).toBeGreaterThanOrEqual(5);
  });

  test('a turn deleted by hand: the rest align by number, library refs are renumbered', async () => {
    const { note, vault } = await demoNote();
    const start = note.indexOf('## User · 2');
    const end = note.indexOf('## User · 3');
    const decoded = decodeChatNote(note.slice(0, start) + note.slice(end), fallback);
    expect(decoded.warnings).toContain('1 turn(s) recorded in the frontmatter are no longer in the text and were left out');
    expect(decoded.warnings.some((w) => w.startsWith('Projects/Greenhouse/Ventilation.md (version 1) entered in a turn'))).toBe(true);
    expect(decoded.conversation.turns).toHaveLength(5);
    const plan2 = decoded.conversation.library.find((r) => r.id === 'Projects/Greenhouse/Plan.md' && r.version === 2);
    expect(plan2?.enteredTurn).toBe(3);
    const restored = await rehydrate(decoded.conversation, vault);
    expect(restored.engine.turnCount).toBe(5);
  });

  test('a message added by hand at the end loads as not answered (retryable)', async () => {
    const { note, conversation } = await demoNote();
    const decoded = decodeChatNote(`${note}## User\n\nA question typed into the note.\n`, fallback);
    const last = decoded.conversation.turns[decoded.conversation.turns.length - 1];
    expect(decoded.conversation.turns).toHaveLength(conversation.turns.length + 1);
    expect(last).toEqual(expect.objectContaining({ status: 'failed', text: 'A question typed into the note.' }));
  });

  test('text written before the first message and properties the user added are kept on save', async () => {
    const { note } = await demoNote();
    const withExtras = note.replace('strata:\n', 'tags: [ai, greenhouse]\nstrata:\n').replace('\n\n## User · 1', '\n\nMy notes about this chat.\n\n## User · 1');
    const decoded = decodeChatNote(withExtras, fallback);
    expect(decoded.warnings).toEqual([]);
    expect(decoded.conversation.preamble).toBe('My notes about this chat.\n\n');
    expect(decoded.conversation.extra).toEqual({ tags: ['ai', 'greenhouse'] });
    const again = encodeChatNote(decoded.conversation);
    expect(again).toContain('tags:\n  - ai\n  - greenhouse\n');
    expect(again).toContain('\nMy notes about this chat.\n\n## User · 1');
    expect(encodeChatNote(decodeChatNote(again, fallback).conversation)).toBe(again);
  });
});

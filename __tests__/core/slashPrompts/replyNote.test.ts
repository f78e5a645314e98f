import { noteNameFromTitle, uniqueNotePath } from '../../../src/core/chat/replyNote';

describe('a reply copied to a new note', () => {
  test('is named from the chat title, without characters file names and links cannot hold', () => {
    expect(noteNameFromTitle('Greenhouse: vents / fans?')).toBe('Greenhouse vents fans');
    expect(noteNameFromTitle('[[Plan]] #todo ^block | "quoted" <x>*')).toBe('Plan todo block quoted x');
    expect(noteNameFromTitle('...hidden')).toBe('hidden');
    expect(noteNameFromTitle('Ends with a dot.')).toBe('Ends with a dot');
    expect(noteNameFromTitle('tab\there\nnewline')).toBe('tab here newline');
    expect(noteNameFromTitle('')).toBe('Strata reply');
    expect(noteNameFromTitle(' / : ')).toBe('Strata reply');
  });

  test('a long title is cut at a word, not mid-word', () => {
    const name = noteNameFromTitle('word '.repeat(40));
    expect(name.length).toBeLessThanOrEqual(80);
    expect(name.endsWith('word')).toBe(true);
  });

  test('takes the next free name, as Obsidian numbers "Untitled 1"', () => {
    const taken = new Set(['Notes/Plan.md', 'Notes/Plan 1.md']);
    expect(uniqueNotePath('Notes', 'Plan', (p) => taken.has(p))).toBe('Notes/Plan 2.md');
    expect(uniqueNotePath('Notes/', 'Other', (p) => taken.has(p))).toBe('Notes/Other.md');
    expect(uniqueNotePath('/', 'Plan', () => false)).toBe('Plan.md');
    expect(uniqueNotePath('', 'Plan', (p) => p === 'Plan.md')).toBe('Plan 1.md');
  });
});

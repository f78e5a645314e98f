/**
 * Issue 26, finding 6: hostile custom-prompt notes expand in bounded time and size. A note of
 * thousands of placeholders with a long selection would have made a message of gigabytes; a
 * selection holding placeholders, or a prompt naming itself, is filled once and never again.
 */
import { expandPrompt, MAX_EXPANDED_CHARS } from '../../../src/core/slashPrompts/expand';
import { MAX_PROMPT_NOTE_CHARS, parsePromptNote, type CustomPrompt } from '../../../src/core/slashPrompts/promptNote';

function prompt(path: string, text: string): CustomPrompt {
  const parsed = parsePromptNote(path, text);
  if (!parsed.ok) throw new Error(parsed.problem.problem);
  return parsed.prompt;
}

const context = (selection: string | null, input = '') => ({ selection, activeNote: { path: 'Plan.md', link: '[[Plan]]' }, input });

test('90,000 {} placeholders and a 100 KB selection (9 GB): refused at once, nothing built', () => {
  const p = prompt('Prompts/Bomb.md', '{}'.repeat(90_000));
  const started = process.hrtime.bigint();
  const out = expandPrompt(p, context('x'.repeat(100_000)));
  expect(out.ok).toBe(false);
  if (!out.ok) expect(out.error).toMatch(/at most 1,000,000/);
  // Work, not a timing: the refusal stops counting at the limit (well under a second either way).
  expect(Number(process.hrtime.bigint() - started) / 1e9).toBeLessThan(5);
});

test('an expansion just under the limit is built; one character more is refused', () => {
  const p = prompt('Prompts/Edge.md', 'A{selection}B');
  const fits = expandPrompt(p, context('y'.repeat(MAX_EXPANDED_CHARS - 2)));
  expect(fits.ok && fits.text.length).toBe(MAX_EXPANDED_CHARS);
  expect(expandPrompt(p, context('y'.repeat(MAX_EXPANDED_CHARS - 1))).ok).toBe(false);
  // Typed words added after a prompt without {input} count too.
  const tail = prompt('Prompts/Tail.md', '{selection}');
  expect(expandPrompt(tail, context('z'.repeat(MAX_EXPANDED_CHARS - 5), 'more words')).ok).toBe(false);
});

test('placeholders inside the selection, the input or the link stay as they are (no second pass)', () => {
  const p = prompt('Prompts/Self.md', 'Fix: {selection} | {input} | {activeNote} /Self {}');
  const out = expandPrompt(p, { selection: '{selection}{input}{}', activeNote: { path: 'a.md', link: '[[{selection}]]' }, input: '{activeNote}' });
  expect(out.ok).toBe(true);
  if (out.ok) expect(out.text).toBe('Fix: {selection}{input}{} | {activeNote} | [[{selection}]] /Self {selection}{input}{}');
});

test('a huge prompt note is refused with a reason; a long one with few placeholders reads in linear time', () => {
  const huge = parsePromptNote('Prompts/Huge.md', 'word '.repeat(MAX_PROMPT_NOTE_CHARS));
  expect(huge.ok).toBe(false);
  if (!huge.ok) expect(huge.problem.problem).toMatch(/over the 200,000/);
  const long = prompt('Prompts/Long.md', `${' \t'.repeat(50_000)}\n${'{'.repeat(40_000)}{selection}${'}'.repeat(40_000)}\n${'\n'.repeat(10_000)}`);
  expect(long.uses.selection).toBe(true);
  const out = expandPrompt(long, context('S'));
  expect(out.ok && out.text.includes('{S}')).toBe(true);
});

import { replaceBlocks } from '../../../src/core/agent/tools/editNote';
import { appendText } from '../../../src/core/agent/tools/appendToNote';
import { changeProperties } from '../../../src/core/agent/tools/setProperties';
import { checkWritePath } from '../../../src/core/edits/writePaths';
import { appliesWithoutAsking } from '../../../src/core/edits/writePolicy';
import { diffText } from '../../../src/core/edits/diffText';
import { proposalOf } from '../../../src/core/edits/lineDiff';

describe('editNote search/replace blocks', () => {
  it('applies blocks in order; says which block is missing or ambiguous', () => {
    expect(replaceBlocks('a\nb\nc\n', [{ search: 'b', replace: 'B' }, { search: 'c', replace: 'C' }])).toEqual({ text: 'a\nB\nC\n' });
    expect(replaceBlocks('a\nb\n', [{ search: 'a', replace: 'x' }, { search: 'zzz', replace: '' }])).toEqual({ error: expect.stringContaining('block 2: its search text is not in the note') });
    expect(replaceBlocks('x x', [{ search: 'x', replace: 'y' }])).toEqual({ error: expect.stringContaining('block 1: its search text occurs more than once') });
    expect(replaceBlocks('x', [{ search: '', replace: 'y' }])).toEqual({ error: expect.stringContaining('block 1: search is empty') });
  });

  it('matches a note with Windows line ends from a search written with \\n', () => {
    expect(replaceBlocks('a\r\nb\r\nc', [{ search: 'a\nb', replace: 'A\nB' }])).toEqual({ text: 'A\r\nB\r\nc' });
  });
});

describe('appendToNote', () => {
  it('adds at the end, on its own line', () => {
    expect(appendText('a\nb', 'c')).toEqual({ text: 'a\nb\nc\n' });
    expect(appendText('a\n', 'c\n\n')).toEqual({ text: 'a\nc\n' });
    expect(appendText('', 'c')).toEqual({ text: 'c\n' });
  });

  it('adds at the end of a heading\'s section, before the next heading, keeping its blank lines', () => {
    const text = '# T\n\n## A\n- one\n\n## B\n- two\n';
    expect(appendText(text, '- three', 'A')).toEqual({ text: '# T\n\n## A\n- one\n- three\n\n## B\n- two\n' });
    expect(appendText(text, 'x', 'Missing')).toEqual({ error: expect.stringContaining('no heading "Missing"') });
  });
});

describe('setProperties', () => {
  it('sets and removes properties and tags in place, keeping comments, order and the list style', () => {
    const text = '---\ntags: [a, b] # mine\nstatus: active\nkeep: 1\n---\nbody\n';
    const out = changeProperties(text, { set: { status: 'done' }, remove: ['keep'], addTags: ['#c'], removeTags: ['a'] });
    expect(out).toEqual({ text: '---\ntags: [b, c] # mine\nstatus: done\n---\nbody\n' });
  });

  it('gives a note without frontmatter one at its top; an unclosed one is an error', () => {
    expect(changeProperties('body\n', { set: { n: 2 } })).toEqual({ text: '---\nn: 2\n---\nbody\n' });
    expect(changeProperties('---\na: 1\nbody\n', { set: { n: 2 } })).toEqual({ error: expect.stringContaining('no closing') });
  });
});

describe('where the agent may write', () => {
  const rules = { scope: '', hidden: ['Strata/Chats'], excluded: ['Private'] };
  it('normalizes paths and adds .md', () => {
    expect(checkWritePath(' Notes//New note ', rules)).toEqual({ path: 'Notes/New note.md' });
    expect(checkWritePath('./a\\b.md', rules)).toEqual({ path: 'a/b.md' });
  });
  it.each([
    ['../x.md', 'leaves the vault'],
    ['C:/x.md', 'not a vault path'],
    ['.trash/app.md', 'hidden'],
    ['Notes/.secret.md', 'hidden'],
    ['Strata/Chats/c.md', 'chats are saved'],
    ['Private/p.md', 'you excluded'],
    ['Notes/a:b.md', 'character'],
  ])('refuses %s', (input, reason) => {
    expect(checkWritePath(input, rules)).toEqual({ error: expect.stringContaining(reason) });
  });
  it('stays inside the project folder', () => {
    expect(checkWritePath('Other/x.md', { ...rules, scope: 'Projects/Alpha' })).toEqual({ error: expect.stringContaining('outside the project folder') });
    expect(checkWritePath('Projects/Alpha/x', { ...rules, scope: 'Projects/Alpha' })).toEqual({ path: 'Projects/Alpha/x.md' });
  });
  it('applies without asking only inside the chosen folders (both ends of a move)', () => {
    const auto = { mode: 'auto' as const, folders: ['Inbox'] };
    expect(appliesWithoutAsking(auto, 'Inbox/a.md')).toBe(true);
    expect(appliesWithoutAsking(auto, 'Inboxes/a.md')).toBe(false);
    expect(appliesWithoutAsking(auto, 'Inbox/a.md', 'Archive/a.md')).toBe(false);
    expect(appliesWithoutAsking({ mode: 'ask', folders: ['Inbox'] }, 'Inbox/a.md')).toBe(false);
  });
});

it('diffText prints hunks with their places in both texts', () => {
  const p = proposalOf({ id: 'p', kind: 'edit', path: 'A.md', baseText: 'a\nb\nc', proposedText: 'a\nB\nc\nd' });
  expect(diffText(p)).toBe(['--- A.md', '+++ A.md', '@@ -2,1 +2,1 @@ h1', '-b', '+B', '@@ -4,0 +4,1 @@ h2', '+d'].join('\n'));
});

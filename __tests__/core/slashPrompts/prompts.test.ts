import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { expandPrompt, type PromptContext } from '../../../src/core/slashPrompts/expand';
import { isPromptNotePath, loadPrompts, normalizePromptsFolder, promptCommandIds, type PromptNoteFile } from '../../../src/core/slashPrompts/library';
import { matchProblems, matchSlash, slashQuery } from '../../../src/core/slashPrompts/match';
import { parsePromptNote, type CustomPrompt } from '../../../src/core/slashPrompts/promptNote';

/** The fixture prompts folder, read from disk as the registry reads the vault: vault paths and text. */
const ROOT = path.join(__dirname, 'fixtures');
function readFolder(folder: string): PromptNoteFile[] {
  const out: PromptNoteFile[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(ROOT, rel))) {
      const child = `${rel}/${name}`;
      if (statSync(path.join(ROOT, child)).isDirectory()) walk(child);
      else out.push({ path: child, text: readFileSync(path.join(ROOT, child), 'utf8') });
    }
  };
  walk(folder);
  return out;
}

const library = loadPrompts(readFolder('Prompts'));
const prompt = (name: string): CustomPrompt => {
  const found = library.prompts.find((p) => p.name === name);
  if (!found) throw new Error(`no prompt ${name}`);
  return found;
};
const NONE: PromptContext = { selection: null, activeNote: null, input: '' };
const PLAN = { path: 'Projects/Greenhouse/Plan.md', link: '[[Plan]]' };

describe('prompt notes', () => {
  test('every usable note is a prompt named after it, sorted by name; descriptions come from the frontmatter', () => {
    expect(library.prompts.map((p) => p.name)).toEqual(['Ask', 'Explain note', 'Fix grammar', 'JSON example', 'Summarize', 'Translate']);
    expect(prompt('Summarize')).toMatchObject({
      path: 'Prompts/Summarize.md',
      description: 'Summarize the selected text in three bullet points',
      template: 'Summarize the following text in three bullet points:\n\n{selection}',
      uses: { selection: true, activeNote: false, input: false },
    });
    expect(prompt('Translate')).toMatchObject({ description: '', uses: { selection: true, activeNote: false, input: true } });
    expect(prompt('Explain note').uses).toEqual({ selection: false, activeNote: true, input: false });
    // Copilot's {} is the selection.
    expect(prompt('Fix grammar').uses.selection).toBe(true);
  });

  test('a broken note says why and is left out; the others are unaffected', () => {
    expect(library.problems).toEqual([
      { name: 'Broken yaml', path: 'Prompts/Broken yaml.md', problem: expect.stringMatching(/^the frontmatter is not valid YAML \(/) },
      { name: 'summarize', path: 'Prompts/Drafts/summarize.md', problem: 'another prompt note has the same name (Prompts/Summarize.md)' },
      { name: 'Only frontmatter', path: 'Prompts/Only frontmatter.md', problem: 'the note has no prompt text (write it below the frontmatter)' },
      { name: 'Unclosed', path: 'Prompts/Unclosed.md', problem: 'its frontmatter has no closing ---' },
    ]);
    // A description that is not text is dropped with a warning; the prompt itself works.
    expect(prompt('JSON example').description).toBe('');
    expect(library.warnings).toEqual(['JSON example: description is not text, so it is not shown']);
  });

  test('a note with CRLF line ends and a BOM reads the same', () => {
    const text = readFileSync(path.join(ROOT, 'Prompts/Summarize.md'), 'utf8').replace(/\n/g, '\r\n');
    const parsed = parsePromptNote('P/Summarize.md', `\ufeff${text}`);
    expect(parsed.ok && parsed.prompt.description).toBe('Summarize the selected text in three bullet points');
    expect(parsed.ok && parsed.prompt.template.replace(/\r/g, '')).toBe(prompt('Summarize').template);
  });

  test('the prompts folder: notes in it and its subfolders, whatever slashes the setting has', () => {
    expect(normalizePromptsFolder('/Strata//Prompts/ ')).toBe('Strata/Prompts');
    expect(isPromptNotePath('Strata/Prompts/', 'Strata/Prompts/Sub/A.md')).toBe(true);
    expect(isPromptNotePath('Strata/Prompts', 'Strata/Prompts.md')).toBe(false);
    expect(isPromptNotePath('Strata/Prompts', 'Strata/PromptsOld/A.md')).toBe(false);
    expect(isPromptNotePath('Strata/Prompts', 'Strata/Prompts/image.png')).toBe(false);
  });

  test('command ids are stable words; names that make the same id are told apart in name order', () => {
    const ids = promptCommandIds(library.prompts);
    expect(ids.get('Explain note')).toBe('run-prompt-explain-note');
    const clash = loadPrompts([
      { path: 'P/Fix it.md', text: 'a' },
      { path: 'P/fix-it!.md', text: 'b' },
      { path: 'P/Ünïcode ✓.md', text: 'c' },
      { path: 'P/✓.md', text: 'd' },
    ]).prompts;
    expect([...promptCommandIds(clash)]).toEqual([
      ['Fix it', 'run-prompt-fix-it'],
      ['fix-it!', 'run-prompt-fix-it-2'],
      ['Ünïcode ✓', 'run-prompt-ünïcode'],
      ['✓', 'run-prompt-prompt'],
    ]);
  });
});

describe('filling a prompt in', () => {
  test('{selection} is the selected text; {activeNote} is a link and the note is attached', () => {
    expect(expandPrompt(prompt('Summarize'), { ...NONE, selection: 'Vents open at 24 °C.' })).toEqual({
      ok: true,
      text: 'Summarize the following text in three bullet points:\n\nVents open at 24 °C.',
      attach: [],
      caret: null,
    });
    expect(expandPrompt(prompt('Explain note'), { ...NONE, activeNote: PLAN })).toEqual({
      ok: true,
      text: 'Explain [[Plan]] to someone who has never seen it. Keep the headings.',
      attach: ['Projects/Greenhouse/Plan.md'],
      caret: null,
    });
  });

  test('a prompt that needs a selection or a note that is not there says so', () => {
    expect(expandPrompt(prompt('Summarize'), { ...NONE, selection: '   ' })).toEqual({
      ok: false,
      error: 'The prompt "Summarize" uses {selection}: select text in a note, then run it again.',
    });
    expect(expandPrompt(prompt('Explain note'), NONE)).toEqual({ ok: false, error: 'The prompt "Explain note" uses {activeNote}: open a note, then run it again.' });
    const both = loadPrompts([{ path: 'P/Both.md', text: 'Compare {selection} with {ACTIVENOTE}' }]).prompts[0];
    expect(expandPrompt(both, NONE)).toEqual({
      ok: false,
      error: 'The prompt "Both" uses {selection}: select text in a note, and {activeNote}: open a note, then run it again.',
    });
    expect(expandPrompt(both, { ...NONE, selection: 'x', activeNote: PLAN })).toMatchObject({ ok: true, text: 'Compare x with [[Plan]]' });
  });

  test('{input} takes the words typed after the name; left empty, the caret waits there', () => {
    const selection = 'Bonjour';
    expect(expandPrompt(prompt('Translate'), { ...NONE, selection, input: ' German ' })).toMatchObject({ ok: true, text: 'Translate into German:\n\nBonjour', caret: null });
    const waiting = expandPrompt(prompt('Translate'), { ...NONE, selection });
    expect(waiting).toEqual({ ok: true, text: 'Translate into :\n\nBonjour', attach: [], caret: 'Translate into '.length });
    // Typed words with no {input} to go to follow the prompt's text.
    expect(expandPrompt(prompt('Fix grammar'), { ...NONE, selection: 'teh cat', input: 'British spelling' })).toMatchObject({
      ok: true,
      text: 'Fix the grammar and spelling of teh cat. Return only the corrected text.\n\nBritish spelling',
    });
  });

  test('other braces stay as they are, and a selection is never expanded again', () => {
    const expanded = expandPrompt(prompt('JSON example'), { ...NONE, activeNote: PLAN });
    expect(expanded).toMatchObject({ ok: true, text: 'Return {"title": "…", "tags": []} for [[Plan]]. Leave {FolderPath} and {unknown} as they are.' });
    expect(expandPrompt(prompt('Summarize'), { ...NONE, selection: 'literal {input} and {activeNote}' })).toMatchObject({
      ok: true,
      text: 'Summarize the following text in three bullet points:\n\nliteral {input} and {activeNote}',
    });
  });
});

describe('the / picker', () => {
  test('a / at the start of the message is a command; elsewhere it is a slash', () => {
    expect(slashQuery('/')).toBe('');
    expect(slashQuery('  /sum')).toBe('sum');
    expect(slashQuery('/Translate German')).toBe('Translate German');
    expect(slashQuery('and/or')).toBeNull();
    expect(slashQuery('see /etc')).toBeNull();
    expect(slashQuery('/sum\nmore')).toBeNull();
  });

  test('names match fuzzily; names the query starts come first', () => {
    const names = (q: string) => matchSlash(q, library.prompts).map((m) => m.prompt.name);
    expect(names('')).toEqual(library.prompts.map((p) => p.name));
    expect(names('fxgr')).toEqual(['Fix grammar']);
    expect(names('ex')[0]).toBe('Explain note');
    expect(names('zzz')).toEqual([]);
  });

  test('a whole name and more offers that prompt with the rest as its input', () => {
    expect(matchSlash('translate  German please', library.prompts)).toEqual([{ prompt: prompt('Translate'), input: 'German please' }]);
    // Still typing a longer name: that one first, then the shorter name with the rest as input.
    const prompts = loadPrompts([
      { path: 'P/Fix.md', text: '{input}' },
      { path: 'P/Fix grammar.md', text: '{selection}' },
    ]).prompts;
    expect(matchSlash('Fix gr', prompts).map((m) => [m.prompt.name, m.input])).toEqual([
      ['Fix grammar', ''],
      ['Fix', 'gr'],
    ]);
  });

  test('broken notes whose names match are listed with their reason', () => {
    expect(matchProblems('unclo', library.problems).map((p) => p.name)).toEqual(['Unclosed']);
    expect(matchProblems('', library.problems)).toHaveLength(4);
  });
});

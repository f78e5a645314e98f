import { trimSlashes } from '../../src/core/context/items';
import { parseCopilotChat } from '../../src/core/conversation/copilotImport';
import { titleFromText } from '../../src/core/conversation/model';
import { escapeContent } from '../../src/core/engine/escape';
import { parseWindows } from '../../src/core/tokens/modelWindows';
import { trimTrailingSlashes } from '../../src/core/trim';
import { chooseEncoding, decodeText } from '../../src/core/conversation/textBlock';
import { questionOf, replyChunks, seenContextIds } from '../../testing/providerServer/reply';

// Every regex in src/ was checked for super-linear backtracking (recheck); these are the inputs that
// made the vulnerable ones quadratic or cubic (seconds to hours at this size), now run on the fixed
// code. Each asserts the result: a regression shows as a test that takes many seconds.
const N = 100_000;

describe('regexes stay linear on 100k-character hostile input', () => {
  test('decodeText: a fenced message with a long run of spaces before its end', () => {
    const text = `x${' '.repeat(N)}y`;
    expect(decodeText(`\`\`\`strata-text\n${text}\n\`\`\``)).toEqual({ text, encoding: 'fenced' });
    const unclosed = `\`\`\`strata-text\n${text}`;
    expect(decodeText(unclosed)).toMatchObject({ text: unclosed, encoding: 'plain' });
  });

  test('chooseEncoding: a fence line of 100k tildes ending in a line separator opens a fence', () => {
    expect(chooseEncoding(`${'~'.repeat(N)}\u2028`)).toBe('fenced');
    expect(chooseEncoding(`${'`'.repeat(N)}\u2029x`)).toBe('fenced');
  });

  test('titleFromText: 50k unclosed wikilink openings', () => {
    expect(titleFromText('[['.repeat(N / 2))).toBe('New chat');
    expect(titleFromText(`Read [[Notes/A|the note]] ${'[['.repeat(N / 2)}`)).toBe('Read the note');
  });

  test('trimSlashes: a long run of slashes inside a path', () => {
    const inner = `a${'/'.repeat(N)}b`;
    expect(trimSlashes(`/${inner}/`)).toBe(inner);
    expect(trimSlashes('/'.repeat(N))).toBe('');
  });

  test('parseCopilotChat: a message with a long run of tabs before its last character', () => {
    const text = `hi${'\t'.repeat(N)}x`;
    expect(parseCopilotChat(`**user**: ${text}\n\n**ai**: ok\n`).messages.map((m) => m.text)).toEqual([text, 'ok']);
  });

  test('local provider server: unclosed context tags, whitespace-only replies, hostile reference lines', () => {
    expect(seenContextIds(['<tag_context<d'.repeat(N / 14)])).toEqual([]);
    expect(seenContextIds(['<note_context id="'.repeat(N / 18)])).toEqual([]);
    expect(seenContextIds([`${'<context_refs>'.repeat(N / 14)}<note_context id="a">`])).toEqual(['a']);
    expect(seenContextIds([`<context_refs>\n-\t${'\t'.repeat(N)}-${'\t'.repeat(N)}\n-\tb\n</context_refs>`])).toEqual([`-`, 'b']);
    expect(questionOf(`${'c<tag_context\u0000n'.repeat(N / 15)}`)).toBe('c<tag_context\u0000n'.repeat(N / 15).trim());
    expect(questionOf(`<tool_output>${'<tool_output>'.repeat(N / 13)}`)).toBe(`<tool_output>${'<tool_output>'.repeat(N / 13)}`);
    expect(replyChunks('\t'.repeat(N))).toEqual(['\t'.repeat(N)]);
    expect(replyChunks(`  a${'\t'.repeat(N)}b `)).toEqual([`  a${'\t'.repeat(N)}`, 'b ']);
  });
});

describe('regexes stay linear: helpers that replaced the vulnerable forms', () => {
  test('trimTrailingSlashes: base URLs and folders with a long run of slashes', () => {
    const inner = `https://x.org${'/'.repeat(N)}v1`;
    expect(trimTrailingSlashes(`${inner}///`)).toBe(inner);
    expect(trimTrailingSlashes(`\u0000${'/'.repeat(N)}\u0000/`)).toBe(`\u0000${'/'.repeat(N)}\u0000`);
  });

  test('parseWindows: lines of whitespace and long keys', () => {
    const key = `a${' '.repeat(N)}b`;
    expect(parseWindows(`${'\t'.repeat(N)}\ngpt-x = 5\n${key} : 7\n-\t${'\t'.repeat(N)}-${'\t'.repeat(N)}\n`)).toEqual({ 'gpt-x': 5, [key]: 7 });
    expect(parseWindows('a:b = 5\n  m:12  \r\n= 3\nno number = x')).toEqual({ 'a:b': 5, m: 12 });
  });

  test('escapeContent: blank lines, long runs after `<` and `[`', () => {
    expect(escapeContent('\n'.repeat(N))).toBe('\n'.repeat(N));
    expect(escapeContent(`<${' '.repeat(N)}x`)).toBe(`<${' '.repeat(N)}x`);
    expect(escapeContent(`<${'\u200b'.repeat(N)}/user>`)).toBe(`&lt;${'\u200b'.repeat(N)}/user>`);
    expect(escapeContent(`[${' '.repeat(N)}\n`.repeat(2))).toBe(`[${' '.repeat(N)}\n`.repeat(2));
    expect(escapeContent(`${' '.repeat(N)}[System Context]`)).toBe(`${' '.repeat(N)}\\[System Context]`);
  });
});

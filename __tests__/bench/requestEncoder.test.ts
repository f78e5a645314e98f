import { notesUnder } from '../helpers/notesUnder';
import { VAULT } from '../helpers/paths';
import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { paragraphsOf, RequestEncoder } from '../../bench/cache/encode';

const CASES = [
  'one line',
  'a\nb\n\nc\r\nd',
  'Fin.\n\nNext paragraph\n  indented\n- list\nÉté\n漢字\n123\n/path\n',
  "it's\n's not\n'tis\n\u00a0\nword",
  '```ts\nconst x = 1;\n```\nText after code.\n\n\n\nMore',
  ' \n \nA\t\nB   \n\nC',
  'emoji 🙂\n🙂 start\nstart 🙂',
  '<|endoftext|>\nplain <|endoftext|> text',
];

test('paragraphsOf cuts after a line break before a letter, and the paragraphs join back to the text', () => {
  expect(paragraphsOf('a\nb\n\n c\n1\nÉ')).toEqual(['a\n', 'b\n\n c\n1\n', 'É']);
  expect(paragraphsOf('')).toEqual(['']);
  for (const text of CASES) expect(paragraphsOf(text).join('')).toBe(text);
});

describe('RequestEncoder: a block encoded paragraph by paragraph gives the whole text\'s tokens', () => {
  test.each(['gpt-4o', 'gpt-4'])('%s', (model) => {
    const counter = tokenCounterFor(model);
    const encoder = new RequestEncoder(model, counter);
    const texts = [...CASES, ...notesUnder(VAULT, 300)];
    expect(texts.length).toBeGreaterThan(CASES.length);
    for (const text of texts) expect(encoder.blockTokens(text)).toEqual(counter.encode(text));
    // Again, from the memo.
    for (const text of texts.slice(0, 20)) expect(encoder.blockTokens(text)).toEqual(counter.encode(text));
  });
});

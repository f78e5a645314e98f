import { tokenCounterFor } from '../../src/core/tokens/tokenCounter';
import { RequestEncoder } from '../../bench/cache/encode';
import { CORPUS } from '../helpers/paths';
import { notesUnder } from '../helpers/notesUnder';

// The bench's paragraph-by-paragraph encoder over 300 real notes of the shared corpus (headings,
// lists, code, links, other scripts): the same tokens as the whole text.
describe('RequestEncoder over the shared corpus', () => {
  test.each(['gpt-4o', 'gpt-4'])('%s', (model) => {
    const counter = tokenCounterFor(model);
    const encoder = new RequestEncoder(model, counter);
    const texts = notesUnder(CORPUS, 300);
    expect(texts.length).toBe(300);
    for (const text of texts) expect(encoder.blockTokens(text)).toEqual(counter.encode(text));
  });
});

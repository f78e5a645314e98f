import fc from 'fast-check';
import { lineRange } from '../../../src/core/search/searchHits';

/** A hit's lines are cut out of its note without splitting all of it: the same text as a split. */
test('lineRange gives what split(/\\r\\n?|\\n/).slice().join("\\n") gives, for any line endings', () => {
  const text = fc.array(fc.constantFrom('a', 'b', '\n', '\r', '\r\n', ' '), { maxLength: 40 }).map((x) => x.join(''));
  fc.assert(
    fc.property(text, fc.integer({ min: 1, max: 12 }), fc.integer({ min: 0, max: 12 }), (note, from, more) => {
      for (const t of [note, note.replace(/\r/g, '')]) expect(lineRange(t, from, from + more)).toBe(t.split(/\r\n?|\n/).slice(from - 1, from + more).join('\n'));
    }),
    { numRuns: 3000 },
  );
});

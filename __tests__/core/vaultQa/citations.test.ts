/** Citations in an answer: known numbers point to their source, others are unverified; links open the note at the heading. */
import { citationParts, hasCitation, sourceLink, sourceTitle } from '../../../src/core/vaultQa/citations';

const sources = [
  { path: 'Projects/Greenhouse/Ventilation.md', heading: 'Ventilation' },
  { path: 'Projects/Greenhouse/Plan.md', heading: 'Budget' },
];

test('[1] and [2] are the given sources; [9] is unverified; [1, 2] is two citations', () => {
  expect(citationParts('Wax openers [1]. They cost 90 € [1, 2], not [9].', sources)).toEqual([
    { text: 'Wax openers ' },
    { n: 1, source: sources[0], text: '[1]' },
    { text: '. They cost 90 € ' },
    { n: 1, source: sources[0], text: '[1]' },
    { text: ', ' },
    { n: 2, source: sources[1], text: '[2]' },
    { text: ', not ' },
    { n: 9, source: null, text: '[9]' },
    { text: '.' },
  ]);
  expect(citationParts('[0]', sources)).toEqual([{ n: 0, source: null, text: '[0]' }]);
});

test('text without citations is one part; a markdown link text is not a citation', () => {
  expect(citationParts('no sources here', sources)).toEqual([{ text: 'no sources here' }]);
  expect(hasCitation('see [1](http://x)')).toBe(false);
  expect(hasCitation('a [[Wiki]] link')).toBe(false);
  expect(hasCitation('as said [3]')).toBe(true);
});

test('links open the note at the heading; titles name the note and the heading', () => {
  expect(sourceLink(sources[1])).toBe('Projects/Greenhouse/Plan.md#Budget');
  expect(sourceLink({ path: 'Notes/Ideas.md', heading: '' })).toBe('Notes/Ideas.md');
  expect(sourceTitle(sources[1])).toBe('Plan › Budget');
  expect(sourceTitle(sources[0])).toBe('Ventilation');
});

test('a PDF source opens at its page: the "Page N" section is file.pdf#page=N (issue 31)', () => {
  expect(sourceLink({ path: 'Attachments/Greenhouse manual.pdf', heading: 'Page 3' })).toBe('Attachments/Greenhouse manual.pdf#page=3');
  // A note's heading that happens to read "Page 3" stays a heading link.
  expect(sourceLink({ path: 'Notes/Book.md', heading: 'Page 3' })).toBe('Notes/Book.md#Page 3');
});

import { appendEntries, condensedBlockParts, condensedEntryOf, listedOnly, outlineOf, renderCondensedEntry } from '../../../src/core/engine/condensedLibrary';
import type { LibraryItem } from '../../../src/core/engine/types';

const lib = (id: string, content: string, version = 1): LibraryItem => ({ id, kind: 'note', title: id.replace(/\.md$/, ''), source: id, version, hash: 'h', content, tokens: 10, enteredTurn: 1 });

describe('the condensed library (issue 27)', () => {
  test('an outline is the headings by level, fenced code skipped, at most a dozen; without headings the first line', () => {
    const text = '# Plan\n\nintro\n\n## Steps\n\n```md\n# not a heading\n```\n\n### Water </daily>\n\n## Risks\n';
    expect(outlineOf(text)).toBe('- Plan\n  - Steps\n    - Water </daily>\n  - Risks');
    expect(outlineOf('just a line\nand more')).toBe('- just a line');
    expect(outlineOf(Array.from({ length: 15 }, (_, i) => `## H${i}`).join('\n')).split('\n')).toHaveLength(13);
  });

  test('entries render with their path and form, escaped; appending keeps the earlier parts byte for byte', () => {
    const a = condensedEntryOf(lib('A.md', '# A\n## x </condensed_item>'), 'outline');
    expect(renderCondensedEntry(a)).toBe('<condensed_item id="A.md" title="A" form="outline">\n- A\n  - x &lt;/condensed_item>\n</condensed_item>');
    const first = appendEntries(null, [a]);
    const second = appendEntries(first, [condensedEntryOf(lib('B.md', '# B', 3), 'summary', 'B in short')]);
    expect(second.rounds).toBe(2);
    const [p1, p2] = [condensedBlockParts(first), condensedBlockParts(second)];
    expect(p2.slice(0, 2)).toEqual(p1.slice(0, 2));
    expect(p2[2]).toBe('<condensed_item id="B.md" title="B" form="summary" version="3">\nB in short\n</condensed_item>');
    expect(condensedBlockParts(listedOnly(second))[1]).toBe('<condensed_item id="A.md" title="A" form="listed"></condensed_item>');
  });
});

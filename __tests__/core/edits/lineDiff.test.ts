import { joinLines, lineHunks, proposalOf, splitLines, wordMarks } from '../../../src/core/edits/lineDiff';

describe('lineDiff', () => {
  it('cuts a note into hunks in text order, lines without endings, ids h1.. ', () => {
    const p = proposalOf({ id: 'p1', kind: 'edit', path: 'A.md', baseText: 'a\nb\nc\nd\ne\n', proposedText: 'a\nB\nc\nd\nE\nf\n' });
    expect(p.hunks).toEqual([
      { id: 'h1', baseStart: 1, baseLines: ['b'], newLines: ['B'] },
      { id: 'h2', baseStart: 4, baseLines: ['e'], newLines: ['E', 'f'] },
    ]);
    expect(p.summary).toBe('Edit A.md: 2 hunks');
    expect(p.baseHash).toHaveLength(64);
  });

  it('keeps \\r inside lines so joining gives back the bytes', () => {
    const text = 'a\r\nb\r\n\r\nc';
    expect(joinLines(splitLines(text))).toBe(text);
  });

  it('an identical text has no hunks; a diff out of time is one hunk over the changed middle', () => {
    expect(proposalOf({ id: 'p', kind: 'edit', path: 'A.md', baseText: 'x', proposedText: 'x' }).hunks).toEqual([]);
    const base = Array.from({ length: 4000 }, (_, i) => `line ${i}`);
    const proposed = base.map((l, i) => (i % 2 === 0 ? `${l} changed` : l));
    const hunks = lineHunks(['head', ...base, 'tail'], ['head', ...proposed, 'tail'], 0);
    expect(hunks).toHaveLength(1);
    expect(hunks[0].baseStart).toBe(1);
  });

  it('marks the changed words; each side concatenates to its line', () => {
    const m = wordMarks('the quick brown fox', 'the slow brown fox jumps');
    expect(m.old.map((p) => p.text).join('')).toBe('the quick brown fox');
    expect(m.new.map((p) => p.text).join('')).toBe('the slow brown fox jumps');
    expect(m.old.filter((p) => p.changed).map((p) => p.text)).toEqual(['quick']);
    expect(m.new.filter((p) => p.changed).map((p) => p.text.trim())).toEqual(['slow', 'jumps']);
  });
});

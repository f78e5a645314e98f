import { lengthDivisor, meanLogChunks, noteBonus, noteEvidence } from '../../../src/core/search/noteEvidence';

describe('noteEvidence', () => {
  test('coverage is the share of the query idf a note matches anywhere; rarer terms weigh more', () => {
    const notes = noteEvidence(
      [
        { path: 'spread.md', score: 3, queryTerms: ['snooz'] },
        { path: 'spread.md', score: 2, queryTerms: ['tomorrow'] },
        { path: 'one.md', score: 4, queryTerms: ['tomorrow'] },
        { path: 'other.md', score: 1, queryTerms: ['tomorrow'] },
      ],
      10,
    );
    expect(notes.get('spread.md')?.coverage).toBe(1);
    expect(notes.get('spread.md')?.scores).toEqual([3, 2]);
    const one = notes.get('one.md')?.coverage ?? 0;
    expect(one).toBeGreaterThan(0);
    expect(one).toBeLessThan(0.5); // 'tomorrow' is in three notes, 'snooz' in one
  });

  test('the bonus counts the other chunks (decayed) and the coverage, never the chunk itself', () => {
    const evidence = { scores: [5, 4, 2], coverage: 0.5 };
    expect(noteBonus(evidence, 5, 10, { share: 0.1, decay: 0, coverage: 0 })).toBeCloseTo(0.4);
    expect(noteBonus(evidence, 4, 10, { share: 0.1, decay: 0.5, coverage: 0 })).toBeCloseTo(0.5 + 0.1);
    expect(noteBonus(evidence, 2, 10, { share: 0, decay: 0, coverage: 1.5 })).toBeCloseTo(7.5);
  });
});

describe('the length discount of coverage', () => {
  const lengths = (chunks: Record<string, number>) => ({ chunksOf: (p: string) => chunks[p] ?? 1, meanLogChunks: meanLogChunks(Object.values(chunks)) });

  test('a note longer than the mean (in ln(1 + chunks)) covers less; one at or below it keeps its coverage', () => {
    const sizes = lengths({ 'long.md': 40, 'short.md': 1, 'mean.md': 4 });
    const notes = noteEvidence(
      [
        { path: 'long.md', score: 3, queryTerms: ['snooz', 'tomorrow'] },
        { path: 'short.md', score: 3, queryTerms: ['snooz', 'tomorrow'] },
      ],
      10,
      sizes,
      1,
    );
    expect(notes.get('short.md')?.coverage).toBe(1);
    const divisor = Math.log(41) / sizes.meanLogChunks;
    expect(notes.get('long.md')?.coverage).toBeCloseTo(1 / divisor, 12);
    // Weight 0 (or no lengths): no discount.
    expect(noteEvidence([{ path: 'long.md', score: 3, queryTerms: ['x'] }], 10, sizes, 0).get('long.md')?.coverage).toBe(1);
    expect(noteEvidence([{ path: 'long.md', score: 3, queryTerms: ['x'] }], 10).get('long.md')?.coverage).toBe(1);
  });

  test('the divisor is never below 1 and grows with the weight', () => {
    const mean = { meanLogChunks: Math.log(5) };
    expect(lengthDivisor(1, mean, 1)).toBe(1);
    expect(lengthDivisor(4, mean, 1)).toBe(1);
    expect(lengthDivisor(24, mean, 1)).toBeCloseTo(2, 12);
    expect(lengthDivisor(24, mean, 0.5)).toBeCloseTo(1.5, 12);
    expect(lengthDivisor(24, { meanLogChunks: 0 }, 1)).toBe(1);
  });

  test('the mean is the same whatever order the notes come in (rankings stay deterministic)', () => {
    const counts = Array.from({ length: 500 }, (_, i) => 1 + ((i * 37) % 91));
    expect(meanLogChunks([...counts].reverse())).toBe(meanLogChunks(counts));
    expect(meanLogChunks([...counts].sort((a, b) => a - b))).toBe(meanLogChunks(counts));
    expect(meanLogChunks([])).toBe(0);
  });
});

import { noteBonus, noteEvidence } from '../../../src/core/search/noteEvidence';

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

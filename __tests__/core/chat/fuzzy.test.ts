import { fuzzyFilter, fuzzyScore } from '../../../src/core/fuzzy';

describe('fuzzy matching for the @ picker', () => {
  const paths = ['Daily/2026-03-02', 'Projects/Greenhouse/Plan', 'Projects/Greenhouse/Ventilation', 'Reading/The Market Gardener', '#greenhouse', 'Projects/Greenhouse'];
  const candidates = paths.map((p) => ({ item: p, text: p }));

  test('subsequences match; others do not', () => {
    expect(fuzzyScore('vntl', 'Projects/Greenhouse/Ventilation')).not.toBeNull();
    expect(fuzzyScore('xyz', 'Projects/Greenhouse/Ventilation')).toBeNull();
    expect(fuzzyScore('', 'anything')).toBe(0);
  });

  test('a contiguous match at a word start ranks first; ties keep the input order', () => {
    expect(fuzzyFilter('vent', candidates)[0]).toBe('Projects/Greenhouse/Ventilation');
    expect(fuzzyFilter('plan', candidates)[0]).toBe('Projects/Greenhouse/Plan');
    expect(fuzzyFilter('greenh', candidates)).toEqual(expect.arrayContaining(['#greenhouse', 'Projects/Greenhouse']));
    expect(fuzzyFilter('', candidates, 3)).toEqual(paths.slice(0, 3));
  });
});

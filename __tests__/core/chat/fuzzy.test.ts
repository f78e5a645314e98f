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

describe('names with spaces (issue 29 item 2)', () => {
  const paths = ['Piano Lessons/Lesson 4', 'Piano Lessons/api-docs', 'Projects/Greenhouse/Climate log', 'Projects/Greenhouse/Plan', 'Projects/Greenhouse/Ventilation'];
  const candidates = paths.map((p) => ({ item: p, text: p }));

  test('the whole typed text is matched, spaces included', () => {
    expect(fuzzyFilter('Lesson 4', candidates)[0]).toBe('Piano Lessons/Lesson 4');
    expect(fuzzyFilter('Climate l', candidates)).toEqual(['Projects/Greenhouse/Climate log']);
    expect(fuzzyFilter('Climate log', candidates)).toEqual(['Projects/Greenhouse/Climate log']);
  });

  test('several words match each word in order, not scattered letters', () => {
    expect(fuzzyFilter('green plan', candidates)).toEqual(['Projects/Greenhouse/Plan']);
    expect(fuzzyFilter('plan green', candidates)).toEqual([]);
    // Words typed on after a mention that was not picked match nothing.
    expect(fuzzyFilter('Plan about the vents', candidates)).toEqual([]);
  });
});

import { foldText, processTerm, terms, tokenize } from '../../../src/core/search/text';

describe('search text processing', () => {
  test('lowercases and folds Latin diacritics', () => {
    expect(tokenize('Crème Brûlée à la Ñandú')).toEqual(['creme', 'brulee', 'a', 'la', 'nandu']);
  });

  test('drops English stop words and stems the rest (the same on notes and queries)', () => {
    expect(terms('How do I make the tasks repeat?')).toEqual(['make', 'task', 'repeat']);
    expect(processTerm('recurring')).toBe(processTerm('recurs'));
    expect(processTerm('the')).toBeNull();
  });

  test('Thai text is cut into words, its vowel and tone marks kept', () => {
    const words = tokenize('ภาษาไทยเขียนติดกันโดยไม่มีการเว้นวรรคระหว่างคำ');
    expect(words.length).toBeGreaterThan(5);
    expect(words).toContain('ภาษา');
    expect(words).toContain('คำ'); // SARA AM is not decomposed into two characters
    expect(foldText('น้ำ')).toBe('น้ำ');
  });

  test('Japanese and Chinese are segmented; dakuten are kept', () => {
    expect(tokenize('東京の図書館で本を借りました')).toEqual(expect.arrayContaining(['東京', '図書館']));
    expect(foldText('が')).toBe('が');
    expect(tokenize('我喜欢学习中文')).toEqual(expect.arrayContaining(['喜欢', '学习', '中文']));
  });
});

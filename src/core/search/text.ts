import stem from 'wink-porter2-stemmer';

/**
 * Text processing shared by indexing and queries (the same steps on both sides, or terms would not
 * meet): lowercase, diacritics folded, words split, English stop words dropped, English stemmed.
 * Scripts written without spaces (Thai, Lao, Khmer, Myanmar, Chinese, Japanese) are cut into words
 * by Intl.Segmenter, so a Thai or Japanese note is searchable by its words.
 */

// Marks are stripped only after letters of alphabets where they are accents (é → e). Thai vowel
// and tone marks, Japanese dakuten and Devanagari signs are letters of the word: they stay.
const ACCENTED = /([\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;
const WORD = /[\p{L}\p{N}\p{M}]+/gu;
const UNSPACED = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u;
const LATIN_WORD = /^[a-z]+$/;
// WORD over ASCII: letters and digits.
const ASCII_WORD = /[a-z0-9]+/g;

// Thai and Lao are left as written: NFKD splits SARA AM (ำ) into two code points that NFC does not join again.
const NOT_THAI_LAO = /[^\p{Script=Thai}\p{Script=Lao}]+/gu;

// ASCII text has nothing to fold or segment: the common case skips both (same output, much faster).
// eslint-disable-next-line no-control-regex -- the ASCII range starts at U+0000 by definition
const NOT_ASCII = /[^\x00-\x7f]/;

/** Lowercase, fold Latin/Greek/Cyrillic diacritics (NFKD, strip marks), recompose the rest (NFC). */
export function foldText(text: string): string {
  if (!NOT_ASCII.test(text)) return text.toLowerCase();
  return text.toLowerCase().replace(NOT_THAI_LAO, (run) => run.normalize('NFKD').replace(ACCENTED, '$1').normalize('NFC'));
}

let segmenter: Intl.Segmenter | null = null;

function segmentWords(run: string): string[] {
  segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
  const out: string[] = [];
  for (const part of segmenter.segment(run)) if (part.isWordLike) out.push(part.segment);
  return out;
}

/** Folded words of a text, in order. Runs in unspaced scripts are segmented into words. */
export function tokenize(text: string): string[] {
  if (!NOT_ASCII.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
  const out: string[] = [];
  for (const match of foldText(text).matchAll(WORD)) {
    const word = match[0];
    if (UNSPACED.test(word)) out.push(...segmentWords(word));
    else out.push(word);
  }
  return out;
}

/** Folded words with their offsets in the original text (for snippets). Offsets index `text` itself. */
export function tokenizeWithOffsets(text: string): Array<{ word: string; start: number; end: number }> {
  const out: Array<{ word: string; start: number; end: number }> = [];
  for (const match of text.matchAll(WORD)) {
    const start = match.index;
    const raw = match[0];
    if (UNSPACED.test(raw)) {
      segmenter ??= new Intl.Segmenter('und', { granularity: 'word' });
      for (const part of segmenter.segment(raw)) {
        if (part.isWordLike) out.push({ word: foldText(part.segment), start: start + part.index, end: start + part.index + part.segment.length });
      }
    } else {
      out.push({ word: foldText(raw), start, end: start + raw.length });
    }
  }
  return out;
}

// A short English list: words that carry no topic. Question words matter for user questions only
// as filler ("how do I …"), so they are here too.
const STOP_WORDS = new Set(
  (
    'a about above after again against all am an and any are as at be because been before being below between both but by ' +
    'can could did do does doing down during each few for from further had has have having he her here hers herself him ' +
    'himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ' +
    'ours ourselves out over own same she should so some such than that the their theirs them themselves then there these ' +
    'they this those through to too under until up very was we were what when where which while who whom why will with ' +
    'would you your yours yourself yourselves s t don doesn didn isn aren wasn weren won wouldn shouldn can cannot ' +
    'get got want wants let lets'
  ).split(' '),
);

// Stemming is most of the indexing time and a vault repeats its words: remember recent stems.
const STEM_CACHE_LIMIT = 100_000;
const stems = new Map<string, string>();

/** One folded word to its index term: null for a stop word; English-looking words are stemmed (Porter2). */
export function processTerm(word: string): string | null {
  if (STOP_WORDS.has(word)) return null;
  if (word.length <= 2 || !LATIN_WORD.test(word)) return word;
  let stemmed = stems.get(word);
  if (stemmed === undefined) {
    if (stems.size >= STEM_CACHE_LIMIT) stems.clear();
    stemmed = stem(word);
    stems.set(word, stemmed);
  }
  return stemmed;
}

/** The index terms of a text, in order (stop words dropped). */
export function terms(text: string): string[] {
  const out: string[] = [];
  for (const word of tokenize(text)) {
    const term = processTerm(word);
    if (term) out.push(term);
  }
  return out;
}

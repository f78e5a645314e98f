/**
 * The local server's deterministic embedding: a hashed bag of features, L2-normalised, so tests
 * can check ranking without a network or a model. Features per word (lower-cased, diacritics
 * folded, stop words dropped): the crudely stemmed word, its character trigrams (half weight, so
 * "photograph" and "photographic" are near), and the word's concept from a tiny thesaurus, so a
 * paraphrase ("automobile" for "car", "physician" for "doctor") lands near the original the way a
 * real embedding model's would. Not a language model: just enough meaning to test fusion.
 */

export const DEFAULT_EMBEDDING_DIMS = 256;

const STOP_WORDS = new Set(
  'a an and are as at be but by can do does for from has have how i if in into is it its my of on or our so that the their them there these this to was we what when where which who why will with you your'.split(
    ' ',
  ),
);

/** Words that mean about the same thing share a concept feature (the paraphrase signal). */
const CONCEPTS: readonly (readonly string[])[] = [
  ['car', 'automobile', 'vehicle', 'auto'],
  ['doctor', 'physician', 'medic', 'clinician'],
  ['cheap', 'inexpensive', 'affordable', 'budget', 'low-cost'],
  ['buy', 'purchase', 'acquire', 'shop'],
  ['fix', 'repair', 'mend', 'restore'],
  ['big', 'large', 'huge', 'enormous'],
  ['small', 'little', 'tiny', 'compact'],
  ['fast', 'quick', 'rapid', 'speedy'],
  ['house', 'home', 'dwelling', 'residence'],
  ['begin', 'start', 'commence', 'launch'],
  ['end', 'finish', 'conclude', 'complete'],
  ['sleep', 'rest', 'nap', 'slumber'],
  ['money', 'cash', 'fund', 'finance'],
  ['illness', 'sickness', 'disease', 'ailment'],
  ['trip', 'journey', 'travel', 'voyage'],
  ['garden', 'yard', 'plant', 'flowerbed'],
  ['cook', 'bake', 'recipe', 'kitchen'],
  ['help', 'assist', 'support', 'aid'],
  ['error', 'bug', 'fault', 'defect'],
  ['meeting', 'appointment', 'session', 'call'],
];

function stem(word: string): string {
  // A few English suffixes, longest first; enough for "repairs/repairing/repaired" to meet.
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'ied', 'ers', 'er', 'es', 'ed', 'ly', 's']) {
    if (word.length > suffix.length + 2 && word.endsWith(suffix)) return word.slice(0, -suffix.length) + (suffix === 'ies' || suffix === 'ied' ? 'y' : '');
  }
  return word;
}

const CONCEPT_OF = new Map<string, number>();
CONCEPTS.forEach((words, index) => {
  for (const word of words) {
    if (!CONCEPT_OF.has(stem(word))) CONCEPT_OF.set(stem(word), index);
  }
});

/** Words of a text: lower-cased, diacritics folded, split on anything not a letter or digit. */
export function embeddingWords(text: string): string[] {
  const folded = text.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();
  return folded.split(/[^\p{L}\p{N}-]+/u).filter((w) => w.length > 0 && !STOP_WORDS.has(w));
}

/** FNV-1a, 32 bits: stable across runs and platforms. */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

function add(vector: Float64Array, feature: string, weight: number): void {
  const hash = fnv1a(feature);
  // The top bit picks the sign, so unrelated features cancel out on average instead of piling up.
  vector[hash % vector.length] += hash & 0x80000000 ? -weight : weight;
}

/** The embedding of `text` in `dims` dimensions, L2-normalised (all zeros for a text with no words). */
export function deterministicEmbedding(text: string, dims = DEFAULT_EMBEDDING_DIMS): number[] {
  const vector = new Float64Array(dims);
  for (const word of embeddingWords(text)) {
    const stemmed = stem(word);
    add(vector, `w:${stemmed}`, 1);
    const padded = `^${stemmed}$`;
    for (let i = 0; i + 3 <= padded.length; i++) add(vector, `t:${padded.slice(i, i + 3)}`, 0.5);
    const concept = CONCEPT_OF.get(stemmed);
    if (concept !== undefined) add(vector, `c:${concept}`, 2);
  }
  let norm = 0;
  for (const value of vector) norm += value * value;
  norm = Math.sqrt(norm);
  return Array.from(vector, (value) => (norm === 0 ? 0 : value / norm));
}

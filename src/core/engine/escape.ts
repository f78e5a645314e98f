import { CONFUSABLES } from './confusableTable';
import { SYSTEM_CONTEXT, WRAPPER_TAGS, type WrapperTag } from './wrappers';

// A wrapper is matched on its skeleton, the way a model may read it: default-ignorable code points
// (zero-width, soft hyphen, bidi marks, variation selectors, tags…) skipped anywhere after `<`, and
// every letter, the `<`, the slash and the brackets matched with their confusables (Cyrillic `е`,
// mathematical `𝐞`, `‹`, `〈`…). Ordinary text never matches, so it stays byte-identical.
const IGNORABLE_RANGES: readonly (readonly [number, number])[] = [
  [0xad, 0xad], [0x34f, 0x34f], [0x61c, 0x61c], [0x115f, 0x1160], [0x17b4, 0x17b5], [0x180b, 0x180f], [0x200b, 0x200f], [0x202a, 0x202e],
  [0x2060, 0x206f], [0x3164, 0x3164], [0xfe00, 0xfe0f], [0xfeff, 0xfeff], [0xffa0, 0xffa0], [0xfff0, 0xfff8], [0x1bca0, 0x1bca3],
  [0x1d173, 0x1d17a], [0xe0000, 0xe0fff],
];
const hex = (n: number) => `\\u{${n.toString(16)}}`;
const IGNORABLE = IGNORABLE_RANGES.map(([a, b]) => (a === b ? hex(a) : `${hex(a)}-${hex(b)}`)).join('');
const IGNORED = `[${IGNORABLE}]*`;
// What a model may still read as part of a tag: whitespace and ignorable code points after `<`, around the slash.
const JUNK = `[\\s${IGNORABLE}]*`;
/** The same within one line: a line-start pattern must not run over the lines after it (quadratic on blank lines). */
const LINE_JUNK = `[ \\t${IGNORABLE}]*`;

const escapeClass = (chars: string) => chars.replace(/[\\\]^-]/g, (c) => `\\${c}`);

/** One character as a pattern: itself or any of its confusables (or a multi-letter skeleton such as `rn`). */
function alike(char: string): string {
  const entry = CONFUSABLES[char.toLowerCase()];
  if (!entry) return char.replace(/[.*+?^${}()|[\]\\/]/g, (c) => `\\${c}`);
  const single = `[${escapeClass(char.toLowerCase() + entry.alike)}]`;
  return entry.sequences.length === 0 ? single : `(?:${single}|${entry.sequences.map((s) => [...s].map(alike).join(IGNORED)).join('|')})`;
}

const OPENER = alike('<');
const SLASH = alike('/');
const spelled = (word: string) => [...word].map(alike).join(IGNORED);
/** After a name: not a longer ASCII name (`<users` is text). */
const NAME_END = '(?![A-Za-z0-9_])';

const patterns = new Map<string, RegExp>();

/** One `<` (or look-alike) that starts one of `tags`, opening or closing. */
function tagPattern(tags: readonly WrapperTag[]): RegExp {
  const key = tags.join('|');
  let pattern = patterns.get(key);
  if (!pattern) {
    const names = tags.map(spelled).join('|');
    // What may follow an opener at all (junk, a slash, a name's first letter): one class tried
    // first, so a run of openers fails once per character rather than once per name.
    const firsts = escapeClass([...new Set(tags.map((t) => t[0]))].map((c) => c + (CONFUSABLES[c]?.alike ?? '') + (CONFUSABLES[c]?.sequences ?? []).map((q) => q[0]).join('')).join(''));
    const next = `(?=[\\s${IGNORABLE}${escapeClass('/' + CONFUSABLES['/'].alike)}${firsts}])`;
    // Each run of junk taken whole (a lookahead and its backreference: an atomic group), so a long
    // run is not given back one character at a time to retry every name.
    pattern = new RegExp(`${OPENER}(?=${next}(?=(${JUNK}))\\1(?:${SLASH}(?=(${JUNK}))\\2)?(?=[${firsts}])(?:${names})${NAME_END})`, 'giu');
    patterns.set(key, pattern);
  }
  return pattern;
}

/** One character of JUNK. */
function isJunk(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return /^\s$/u.test(char) || IGNORABLE_RANGES.some(([a, b]) => code >= a && code <= b);
}
/** An opener that is not a letter (`く` ends ordinary words; `‹` and `<` do not). */
const SYMBOL_OPENER = new RegExp(`^(?!\\p{L})${OPENER}$`, 'u');

/**
 * An opener at the very end of a text, junk after it allowed, escaped: the next piece of text
 * (another fragment, the next message) could complete it. Scanned from the end, so linear.
 */
function escapeTrailingOpener(text: string): string {
  let end = text.length;
  for (;;) {
    const code = text.codePointAt(end - 1) ?? 0;
    const size = end >= 2 && code >= 0xdc00 && code <= 0xdfff ? 2 : 1;
    const char = String.fromCodePoint(text.codePointAt(end - size) ?? 0);
    if (end === 0) return text;
    if (!isJunk(char)) return SYMBOL_OPENER.test(char) ? `${text.slice(0, end - size)}&lt;${text.slice(end)}` : text;
    end -= size;
  }
}

/** `[System Context]` (any case, spacing, ignorable code points, look-alike letters and brackets) at the start of a line. */
const SYSTEM_CONTEXT_LINE = new RegExp(
  `^(${LINE_JUNK})(${alike('[')}${JUNK}${SYSTEM_CONTEXT.slice(1, -1)
    .split(' ')
    .map(spelled)
    .join(`[\\s${IGNORABLE}]+`)}${JUNK}${alike(']')})`,
  'gimu',
);

/**
 * Escape text placed where only `tags` are structure: the `<` of any of them (exact or a near
 * miss) becomes `&lt;`, and a line starting `[System Context]` gets a backslash. Deterministic,
 * and ordinary text is left as it is.
 */
export function escapeTags(text: string, tags: readonly WrapperTag[]): string {
  return escapeTrailingOpener(text.replace(tagPattern(tags), '&lt;')).replace(SYSTEM_CONTEXT_LINE, '$1\\$2');
}

/** Escape content placed inside a wrapper: `<note_context` becomes `&lt;note_context`, for every registered wrapper. */
export function escapeContent(text: string): string {
  return escapeTags(text, WRAPPER_TAGS);
}

/**
 * Escape an attribute value (paths, titles, tool inputs) for a double-quoted attribute on one line.
 * A look-alike `<` (‹, 〈…) is kept unless it starts a wrapper name: a title may quote with ‹ ›.
 */
export function escapeAttr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/[<\uff1c\ufe64]/g, '&lt;')
    .replace(/[>\uff1e\ufe65]/g, '&gt;')
    .replace(/\r?\n|[\r\u2028\u2029]/g, ' ')
    .replace(tagPattern(WRAPPER_TAGS), '&lt;');
}

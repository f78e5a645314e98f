import { SYSTEM_CONTEXT, WRAPPER_TAGS, type WrapperTag } from './wrappers';

// What a model may still read as part of a tag: whitespace and zero-width characters after `<`,
// around the slash and between the letters of the name; full-width or small `<` and `/`.
const JUNK = '[\\s\\u200b-\\u200d\\u2060\\ufeff]*';
/** The same within one line: a line-start pattern must not run over the lines after it (quadratic on blank lines). */
const LINE_JUNK = '[ \\t\\u200b-\\u200d\\u2060\\ufeff]*';
const OPENER = '[<\\uff1c\\ufe64]';
const SLASH = '[/\\uff0f]';
const spelled = (word: string) => [...word].join('[\\u200b-\\u200d\\u2060\\ufeff]*');

const patterns = new Map<string, RegExp>();

/** One `<` (or look-alike) that starts one of `tags`, opening or closing; and one at the very end (the next piece of text could complete it). */
function tagPattern(tags: readonly WrapperTag[]): RegExp {
  const key = tags.join('|');
  let pattern = patterns.get(key);
  if (!pattern) {
    const names = tags.map(spelled).join('|');
    pattern = new RegExp(`${OPENER}(?=${JUNK}(?:${SLASH}${JUNK})?(?:${names})\\b|${JUNK}$)`, 'gi');
    patterns.set(key, pattern);
  }
  return pattern;
}

/** `[System Context]` (any case, spacing, zero-width characters, full-width brackets) at the start of a line. */
const SYSTEM_CONTEXT_LINE = new RegExp(
  `^(${LINE_JUNK})([\\[\\uff3b]${JUNK}${SYSTEM_CONTEXT.slice(1, -1)
    .split(' ')
    .map(spelled)
    .join('[\\s\\u200b-\\u200d\\u2060\\ufeff]+')}${JUNK}[\\]\\uff3d])`,
  'gim',
);

/**
 * Escape text placed where only `tags` are structure: the `<` of any of them (exact or a near
 * miss) becomes `&lt;`, and a line starting `[System Context]` gets a backslash. Deterministic,
 * and ordinary text is left as it is.
 */
export function escapeTags(text: string, tags: readonly WrapperTag[]): string {
  return text.replace(tagPattern(tags), '&lt;').replace(SYSTEM_CONTEXT_LINE, '$1\\$2');
}

/** Escape content placed inside a wrapper: `<note_context` becomes `&lt;note_context`, for every registered wrapper. */
export function escapeContent(text: string): string {
  return escapeTags(text, WRAPPER_TAGS);
}

/** Escape an attribute value (paths, titles, tool inputs) for a double-quoted attribute on one line. */
export function escapeAttr(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/"/g, '&quot;')
    .replace(/[<\uff1c\ufe64]/g, '&lt;')
    .replace(/[>\uff1e\ufe65]/g, '&gt;')
    .replace(/\r?\n|[\r\u2028\u2029]/g, ' ');
}

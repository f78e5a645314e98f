/**
 * Trimming a run of characters at an end of a string, in linear time. The regex forms (`/\/+$/`,
 * `/[ \t]+$/`) try the run from every position where it starts and fail at each until the end:
 * quadratic on a long run that is not at the end (a hostile path, note or setting).
 */

/** `text` without the characters of `chars` at its end. */
export function trimEndOf(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1])) end--;
  return end === text.length ? text : text.slice(0, end);
}

/** `text` without the characters of `chars` at its start. */
export function trimStartOf(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start])) start++;
  return start === 0 ? text : text.slice(start);
}

/** A path or URL without trailing slashes. */
export function trimTrailingSlashes(path: string): string {
  return trimEndOf(path, '/');
}

/** A path without leading or trailing slashes. */
export function trimSlashes(path: string): string {
  return trimStartOf(trimEndOf(path, '/'), '/');
}

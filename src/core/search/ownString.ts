/**
 * A copy of a string that shares no memory with the text it was cut from. V8 makes a substring of
 * 13 characters or more (slice, split, a regex match) a view into its parent, which the view keeps
 * alive: an index that kept a heading, word or link target cut from each note kept every note's
 * whole text (53 MB at 25,000 notes). Concatenation then slicing flattens into a string of its own.
 */
export function ownString(text: string): string {
  return text.length < 13 ? text : (' ' + text).slice(1);
}

import { splitFrontmatter } from '../markdown/frontmatter';

/**
 * A note's lines and headings as the agent's readNote sees them. Lines are numbered from 1 over the
 * whole file, frontmatter included, as the search numbers its hits (a localSearch result's
 * `lines 14-16` is readNote's startLine 14, endLine 16).
 */

export interface Heading {
  readonly level: number;
  readonly text: string;
  /** 1-based line of the heading. */
  readonly line: number;
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`+|~+)[ \t]*$/;

/** The note's lines; a final line break ends the last line (it does not start an empty one). */
export function noteLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r\n?|\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/** ATX headings outside frontmatter and fenced code (a '#' line in a code block is code). */
export function headingsOf(text: string): Heading[] {
  const lines = noteLines(text);
  const { body } = splitFrontmatter(text);
  const first = lines.length - noteLines(body).length; // lines taken by the frontmatter
  const headings: Heading[] = [];
  let fence: string | null = null;
  for (let i = Math.max(0, first); i < lines.length; i++) {
    const line = lines[i];
    if (fence !== null) {
      const close = FENCE_CLOSE.exec(line);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(line);
    if (open) {
      fence = open[1];
      continue;
    }
    const heading = HEADING.exec(line);
    if (heading) headings.push({ level: heading[1].length, text: (heading[2] ?? '').trim(), line: i + 1 });
  }
  return headings;
}

/**
 * The line range of a heading's section: the heading line to the line before the next heading of
 * the same or a higher level (sub-headings stay inside), trailing blank lines left out.
 */
export function sectionRange(lines: readonly string[], headings: readonly Heading[], index: number): { start: number; end: number } {
  const heading = headings[index];
  let end = lines.length;
  for (let j = index + 1; j < headings.length; j++) {
    if (headings[j].level <= heading.level) {
      end = headings[j].line - 1;
      break;
    }
  }
  while (end > heading.line && lines[end - 1].trim() === '') end--;
  return { start: heading.line, end };
}

/** The heading path of each heading (outermost first), as the search labels chunks. */
export function headingPaths(headings: readonly Heading[]): string[][] {
  const stack: Heading[] = [];
  return headings.map((heading) => {
    while (stack.length > 0 && stack[stack.length - 1].level >= heading.level) stack.pop();
    stack.push(heading);
    return stack.map((h) => h.text);
  });
}

const fold = (text: string): string => text.replace(/^#+\s*/, '').replace(/\s+/g, ' ').trim().toLowerCase();

/**
 * The headings a model's `heading` argument names, in note order: the heading text (any case, with
 * or without its '#' marks), else a heading path (`Growing › Pests`, `Growing > Pests`,
 * `Growing#Pests`) whose last part is the heading and earlier parts its ancestors, else the one
 * heading whose text contains it.
 */
export function findHeadings(headings: readonly Heading[], wanted: string): number[] {
  const target = fold(wanted);
  if (target === '') return [];
  const all = headings.map((_, i) => i);
  const exact = all.filter((i) => fold(headings[i].text) === target);
  if (exact.length > 0) return exact;
  const parts = wanted
    .replace(/^#+\s*/, '')
    .split(/\s*(?:›|>|#)\s*/)
    .map(fold)
    .filter((p) => p !== '');
  if (parts.length > 1) {
    const paths = headingPaths(headings).map((p) => p.map(fold));
    const byPath = all.filter((i) => {
      const path = paths[i];
      if (path[path.length - 1] !== parts[parts.length - 1]) return false;
      let at = 0;
      for (const ancestor of path.slice(0, -1)) if (at < parts.length - 1 && ancestor === parts[at]) at++;
      return at === parts.length - 1;
    });
    if (byPath.length > 0) return byPath;
  }
  const containing = all.filter((i) => fold(headings[i].text).includes(target));
  return containing.length === 1 ? containing : [];
}

export interface Excerpt {
  /** The lines shown, 1-based inclusive (end < start when nothing is shown). */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** True when the range was cut at the character limit: lines end + 1 .. wantedEnd were left out. */
  readonly cut: boolean;
  readonly wantedEnd: number;
}

/**
 * Lines start..end (1-based, inclusive), as many whole lines as fit in limit characters (a first
 * line longer than the limit on its own is cut inside the line, so something is always shown).
 */
export function excerpt(lines: readonly string[], start: number, end: number, limit: number): Excerpt {
  const out: string[] = [];
  let size = 0;
  let last = start - 1;
  for (let n = start; n <= end; n++) {
    const line = lines[n - 1];
    const cost = line.length + (out.length > 0 ? 1 : 0);
    if (size + cost > limit) {
      if (out.length === 0) {
        out.push(`${line.slice(0, limit)} …[line cut at ${limit} characters]`);
        last = n;
      }
      break;
    }
    out.push(line);
    size += cost;
    last = n;
  }
  return { start, end: last, text: out.join('\n'), cut: last < end, wantedEnd: end };
}

import type { VaultReader } from '../ports/vault';

/** A turn's expectation: the section of a note whose text should reach the request (issue 15's measure). */
export interface ExpectedSection {
  readonly note: string;
  readonly heading: string;
}

export interface ExpectationResult extends ExpectedSection {
  /** Some line of the section's own text (not its heading) is in the request. */
  readonly reached: boolean;
  /** The section was not found in the note (the scenario is wrong, or the note changed). */
  readonly missing?: true;
}

const HEADING = /^ {0,3}(#{1,6})[ \t]+(.+?)[ \t#]*$/;
/** Lines shorter than this are too common ("```", "- [ ]") to tell whether the section was sent. */
const MIN_LINE_CHARS = 24;

/** The body lines of the first section headed `heading` (up to the next heading of its level or above). */
export function sectionLines(text: string, heading: string): string[] | null {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => HEADING.exec(l)?.[2].trim() === heading.trim());
  if (start < 0) return null;
  const level = (HEADING.exec(lines[start]) as RegExpExecArray)[1].length;
  const body: string[] = [];
  for (const line of lines.slice(start + 1)) {
    const h = HEADING.exec(line);
    if (h && h[1].length <= level) break;
    if (!h && line.trim().length >= MIN_LINE_CHARS) body.push(line.trim());
  }
  return body;
}

/** Whether each expected section reached the request text (read from the vault as the turn saw it). */
export async function checkExpectations(expected: readonly ExpectedSection[], requestText: string, vault: VaultReader): Promise<ExpectationResult[]> {
  const out: ExpectationResult[] = [];
  for (const e of expected) {
    const text = await vault.read(e.note);
    const lines = text === null ? null : sectionLines(text, e.heading);
    if (!lines || lines.length === 0) out.push({ ...e, reached: false, missing: true });
    else out.push({ ...e, reached: lines.some((l) => requestText.includes(l)) });
  }
  return out;
}

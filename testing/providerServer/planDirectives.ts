/**
 * The `[[plan …]]` directives that script the artifact planner's answer (format in ./reply.ts):
 * parsed here for ./plannerScript.ts, and stripped from the chat reply's echo by ./toolScript.ts
 * (as `[[tool …]]` directives are).
 */

export type PlanDirective =
  /** `[[plan {json}]]`: the planner answers this JSON. */
  | { readonly kind: 'answer'; readonly json: string }
  /** `[[plan invalid]]`: the planner answers malformed JSON. */
  | { readonly kind: 'invalid' }
  /** `[[plan error]]`: the planner request gets HTTP 500. */
  | { readonly kind: 'error' }
  /** `[[plan slow]]` or `[[plan slow MS]]`: the planner answers after a wait. */
  | { readonly kind: 'slow'; readonly ms: number };

export interface PlanDirectiveSpan {
  readonly directive: PlanDirective;
  /** Where it starts (blanks before it included, so stripping leaves no double spaces) and ends. */
  readonly start: number;
  readonly end: number;
}

/** Past the planner's default 30 s timeout, so the workbench shows the fallback. */
export const DEFAULT_SLOW_PLAN_MS = 35_000;

const OPENING = '[[plan';
const CLOSING = ']]';
// Right after `[[plan`: blanks, then a keyword (and a wait for `slow`), then `]]` (sticky).
const KEYWORD = /[ \t]+(invalid|error|slow)(?:[ \t]+(\d{1,7}))?[ \t]*\]\]/y;
const BEFORE_JSON = /[ \t]+(?=\{)/y;
// A JSON answer ends at the first `]]` where it parses; a bound keeps a line of `]]` cheap.
const MAX_CLOSINGS_TRIED = 32;

function parses(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** The directive opening at `at` (its `[[plan`), with where it ends; null when the text there is no directive. */
function directiveAt(line: string, at: number): { directive: PlanDirective; end: number } | null {
  const after = at + OPENING.length;
  KEYWORD.lastIndex = after;
  const keyword = KEYWORD.exec(line);
  if (keyword) {
    const end = KEYWORD.lastIndex;
    if (keyword[1] === 'slow') return { directive: { kind: 'slow', ms: keyword[2] !== undefined ? Number(keyword[2]) : DEFAULT_SLOW_PLAN_MS }, end };
    return { directive: { kind: keyword[1] === 'error' ? 'error' : 'invalid' }, end };
  }
  BEFORE_JSON.lastIndex = after;
  if (!BEFORE_JSON.exec(line)) return null;
  const from = BEFORE_JSON.lastIndex;
  let close = line.indexOf(CLOSING, from);
  for (let tried = 0; close >= 0 && tried < MAX_CLOSINGS_TRIED; tried++) {
    const json = line.slice(from, close);
    if (parses(json)) return { directive: { kind: 'answer', json }, end: close + CLOSING.length };
    close = line.indexOf(CLOSING, close + 1);
  }
  return null;
}

/** The plan directives of one line, in order; a `[[plan` that forms none is plain text. */
export function planDirectivesIn(line: string): PlanDirectiveSpan[] {
  const out: PlanDirectiveSpan[] = [];
  let previousEnd = 0;
  for (let at = line.indexOf(OPENING); at >= 0; ) {
    const found = directiveAt(line, at);
    if (!found) {
      at = line.indexOf(OPENING, at + 1);
      continue;
    }
    let start = at;
    while (start > previousEnd && (line[start - 1] === ' ' || line[start - 1] === '\t')) start--;
    out.push({ directive: found.directive, start, end: found.end });
    previousEnd = found.end;
    at = line.indexOf(OPENING, found.end);
  }
  return out;
}

/** Every plan directive of a text, line by line. */
export function planDirectives(text: string): PlanDirective[] {
  return text.split('\n').flatMap((line) => planDirectivesIn(line).map((span) => span.directive));
}

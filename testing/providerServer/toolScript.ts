/**
 * Scripted tool calling: the `[[tool NAME JSON]]` directives of the last user-authored message,
 * which step of the script a request is at, and the reply it gets (tool calls, or the text reply
 * with what the tools returned). The format is documented in ./reply.ts; the wire shapes live in
 * each API's handler and the per-API reading of a conversation in ./toolTurns.ts.
 */
import { planDirectivesIn } from './planDirectives';
import { deterministicReply } from './reply';

/** One scripted call: a declared tool's name and its arguments. */
export interface ScriptedCall {
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** The arguments as sent on the wire: compact JSON. */
  readonly arguments: string;
}

export interface ToolResult {
  /** The tool that produced it (found through its call id), or `unknown`. */
  readonly name: string;
  readonly text: string;
}

/** What a request holds that the script depends on, read per API by ./toolTurns.ts. */
export interface ToolConversation {
  /** Tool names the request declares. */
  readonly declared: ReadonlySet<string>;
  /** Text of the last user-authored message (a tool result is not user-authored). */
  readonly userText: string;
  /** Assistant tool-call turns after that message. */
  readonly callTurns: number;
  /** Tool results after that message, in order. */
  readonly results: readonly ToolResult[];
}

export type ScriptedReply =
  /** `step` is 1-based; `calls` is never empty. */
  | { readonly kind: 'calls'; readonly step: number; readonly calls: readonly ScriptedCall[] }
  | { readonly kind: 'text'; readonly text: string };

const OPENING = '[[tool';
const CLOSING = ']]';
// Right after `[[tool`: blanks, the name, blanks (sticky, so it never scans further).
const NAME = /[ \t]+([A-Za-z_][A-Za-z0-9_]*)[ \t]+/y;

function parseArgs(json: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(json);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

interface Directive {
  readonly name: string;
  readonly args: Record<string, unknown>;
  /** Where it starts (blanks before it included, so stripping leaves no double spaces) and ends. */
  readonly start: number;
  readonly end: number;
}

/**
 * The directives of one line, in order. A directive's JSON runs to the first `]]` after its name
 * (so JSON holding `]]` cannot be written); a `[[tool` that does not form a directive (bad name,
 * no `]]`, JSON that is not an object) is plain text. Linear: the closing `]]` found for one
 * opening is reused by the openings before it.
 */
function lineDirectives(line: string): Directive[] {
  const out: Directive[] = [];
  let close = -1;
  let previousEnd = 0;
  for (let at = line.indexOf(OPENING); at >= 0; ) {
    if (close < at + OPENING.length) close = line.indexOf(CLOSING, at + OPENING.length);
    if (close < 0) break;
    NAME.lastIndex = at + OPENING.length;
    const name = NAME.exec(line);
    const args = name && NAME.lastIndex <= close ? parseArgs(line.slice(NAME.lastIndex, close)) : undefined;
    if (!name || !args) {
      at = line.indexOf(OPENING, at + 1);
      continue;
    }
    let start = at;
    while (start > previousEnd && (line[start - 1] === ' ' || line[start - 1] === '\t')) start--;
    previousEnd = close + CLOSING.length;
    out.push({ name: name[1], args, start, end: previousEnd });
    at = line.indexOf(OPENING, previousEnd);
  }
  return out;
}

/** The script's steps (one per line holding directives), keeping only calls to `declared` tools. */
export function parseScript(text: string, declared: ReadonlySet<string>): ScriptedCall[][] {
  const steps: ScriptedCall[][] = [];
  for (const line of text.split('\n')) {
    const calls = lineDirectives(line)
      .filter((d) => declared.has(d.name))
      .map((d) => ({ name: d.name, args: d.args, arguments: JSON.stringify(d.args) }));
    if (calls.length > 0) steps.push(calls);
  }
  return steps;
}

/**
 * `text` without its directives (`[[tool …]]`, and the planner's `[[plan …]]`, ./planDirectives.ts);
 * a line that held directives and is left blank is dropped.
 */
export function stripDirectives(text: string): string {
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    const directives: { start: number; end: number }[] = [...lineDirectives(line), ...(line.includes('[[plan') ? planDirectivesIn(line) : [])];
    if (directives.length === 0) {
      lines.push(line);
      continue;
    }
    directives.sort((a, b) => a.start - b.start);
    let kept = '';
    let from = 0;
    for (const d of directives) {
      // One inside another (a `[[plan` in a tool's JSON): the outer one is already cut.
      if (d.start < from) continue;
      kept += line.slice(from, d.start);
      from = d.end;
    }
    kept += line.slice(from);
    if (kept.trim().length > 0) lines.push(kept);
  }
  return lines.join('\n');
}

/** Deterministic call id: `<prefix>_<step>_<i>`, both 1-based. */
export function callId(prefix: string, step: number, index: number): string {
  return `${prefix}_${step}_${index + 1}`;
}

/** What usage counts as a reply's output tokens: its text, or for tool calls the calls as JSON. */
export function outputText(reply: ScriptedReply): string {
  return reply.kind === 'text' ? reply.text : JSON.stringify(reply.calls.map((c) => ({ name: c.name, arguments: c.args })));
}

/** Streaming pieces of an arguments string: 2 or 3, split between code points, joining back to it. */
export function argumentPieces(json: string): string[] {
  const chars = Array.from(json);
  const parts = chars.length >= 3 ? 3 : 2;
  const pieces: string[] = [];
  for (let k = 0; k < parts; k++) {
    pieces.push(chars.slice(Math.floor((chars.length * k) / parts), Math.floor((chars.length * (k + 1)) / parts)).join(''));
  }
  return pieces.filter((p) => p.length > 0);
}

/** ` Tools used: a, b.` and ` Sources: [1].` for the tool results a text reply follows. */
function resultsSuffix(results: readonly ToolResult[]): string {
  if (results.length === 0) return '';
  let suffix = ` Tools used: ${results.map((r) => r.name).join(', ')}.`;
  // A numbered source catalog (localSearch) lets the client's citation handling be tested.
  if (results.some((r) => /^\[1\] /m.test(r.text))) suffix += ' Sources: [1].';
  return suffix;
}

/**
 * The reply to a request: the next step's calls while the script has steps left, else text
 * (followed by ` Images: N.` when the request holds N image parts).
 */
export function scriptedReply(conversation: ToolConversation, allTexts: readonly string[], images = 0): ScriptedReply {
  const steps = parseScript(conversation.userText, conversation.declared);
  if (conversation.callTurns < steps.length) {
    return { kind: 'calls', step: conversation.callTurns + 1, calls: steps[conversation.callTurns] };
  }
  const text = deterministicReply(allTexts, stripDirectives(conversation.userText)) + resultsSuffix(conversation.results) + (images > 0 ? ` Images: ${images}.` : '');
  return { kind: 'text', text };
}

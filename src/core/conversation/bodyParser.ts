import { z } from 'zod';
import { lazySchema } from '../lazySchema';
import { LIFECYCLES, type PromptFragment, type ToolOutput } from '../engine/types';
import { decodeText, ROLE_HEADING, STRATA_CALLOUT } from './textBlock';
import { readCompactionCallout, SUMMARY_CALLOUT, type BodyCompaction } from './compactionCallout';
import { decodePartialCallout, PARTIAL_CALLOUT } from './partialCallout';

/**
 * A chat note's body read into its parts: the preamble before the first message, each message pair
 * with the callouts under it, page texts by `id@version`, compaction summaries at their boundaries.
 * Only headings and strata callouts are structure: anything else is message text. Never throws:
 * whatever does not read is left out with a warning.
 */

/** One message pair as the body has it (noteDecoder.ts pairs it with its record). */
export interface BodyMessage {
  n: number | null;
  text: string | null;
  reply: string | null;
  failed: boolean;
  /** What had arrived of a cut reply (partialCallout.ts). */
  partial?: string;
  sent?: string;
  dynamic?: PromptFragment[];
  tools: ToolOutput[];
  context: string[];
  /**
   * The text read from a strata fence with more blank lines before it than the one after its
   * heading (a damaged note). A plain text may start that way too (its first line only is escaped):
   * noteDecoder.ts keeps this one only when its hash is the record's.
   */
  textFenced?: string;
  replyFenced?: string;
}

export interface ParsedBody {
  preamble: string;
  turns: BodyMessage[];
  urls: Map<string, string>;
  compactions: BodyCompaction[];
}

interface Structure {
  readonly line: number;
  readonly kind: 'user' | 'assistant' | 'callout';
  readonly n: number | null;
  readonly callout?: string;
}

export function parseBody(lines: readonly string[], warnings: string[]): ParsedBody {
  const structure: Structure[] = [];
  lines.forEach((line, i) => {
    // Structure lines start with `#` or `>`: the others (nearly all) skip the patterns.
    const first = line.charCodeAt(0);
    if (first !== 0x23 && first !== 0x3e) return;
    const role = ROLE_HEADING.exec(line);
    if (role) {
      structure.push({ line: i, kind: role[1].toLowerCase() === 'user' ? 'user' : 'assistant', n: role[2] ? Number(role[2]) : null });
      return;
    }
    const callout = STRATA_CALLOUT.exec(line);
    if (callout) structure.push({ line: i, kind: 'callout', n: null, callout: callout[1].toLowerCase() });
  });
  const out: ParsedBody = { preamble: '', turns: [], urls: new Map(), compactions: [] };
  const firstLine = structure.length > 0 ? structure[0].line : lines.length;
  out.preamble = firstLine === 0 ? '' : lines.slice(0, firstLine).join('\n') + (firstLine < lines.length ? '\n' : '');
  let current: BodyMessage | null = null;
  const newTurn = (n: number | null): BodyMessage => ({ n, text: null, reply: null, failed: false, tools: [], context: [] });
  structure.forEach((s, k) => {
    const end = k + 1 < structure.length ? structure[k + 1].line : lines.length;
    const segment = lines.slice(s.line + 1, end).join('\n') + (end < lines.length ? '\n' : '');
    if (s.kind === 'user') {
      current = newTurn(s.n);
      out.turns.push(current);
      const read = messageText(segment, warnings);
      current.text = read.text;
      if (read.fenced !== undefined) current.textFenced = read.fenced;
    } else if (s.kind === 'assistant') {
      const open: BodyMessage | null = current;
      if (!open || open.reply !== null || (s.n !== null && open.n !== null && s.n !== open.n)) {
        warnings.push(`a reply (${s.n ?? 'unnumbered'}) has no user message before it; kept with an empty one`);
        current = newTurn(s.n);
        current.text = '';
        out.turns.push(current);
      }
      const read = messageText(segment, warnings);
      (current as BodyMessage).reply = read.text;
      if (read.fenced !== undefined) (current as BodyMessage).replyFenced = read.fenced;
    } else if (s.callout === SUMMARY_CALLOUT) {
      // Before the message that follows it: its boundary is the answered messages above it.
      out.compactions.push(readCompactionCallout(lines[s.line], calloutLines(SUMMARY_CALLOUT, segment, warnings), out.turns.length));
    } else {
      readCallout(s.callout ?? '', segment, current, out, warnings);
    }
  });
  return out;
}

/** A message block: one blank line after the heading, the encoded text, one blank line before the next heading. */
function messageText(segment: string, warnings: string[]): { text: string; fenced?: string } {
  let block = segment.startsWith('\n') ? segment.slice(1) : segment;
  if (block.endsWith('\n\n')) block = block.slice(0, -2);
  else if (block.endsWith('\n')) block = block.slice(0, -1);
  const decoded = decodeText(block);
  if (decoded.warning) warnings.push(decoded.warning);
  const fenced = decoded.encoding === 'plain' ? fencedAfterBlankLines(block) : undefined;
  return fenced === undefined ? { text: decoded.text } : { text: decoded.text, fenced };
}

/** The text of a closed strata fence that starts the block after blank lines; undefined when there is none. */
function fencedAfterBlankLines(block: string): string | undefined {
  let at = 0;
  while (at < block.length && ' \t\r\n'.includes(block[at])) at++;
  const lineStart = block.lastIndexOf('\n', at) + 1;
  if (lineStart === 0 || !block.startsWith('```', lineStart)) return undefined;
  const decoded = decodeText(block.slice(lineStart));
  return decoded.encoding === 'plain' ? undefined : decoded.text;
}

/** A callout's lines without their `> `; text after the callout (not quoted) is reported. */
function calloutLines(type: string, segment: string, warnings: string[]): string[] {
  const lines = segment.split('\n');
  const inside: string[] = [];
  for (const line of lines) {
    if (!line.startsWith('>')) break;
    // `> ` (or `>`) taken off by a slice, as the chat data's lines are: no regex copy per line.
    inside.push(line.slice(line.charCodeAt(1) === 0x20 ? 2 : 1));
  }
  const trailing = lines.slice(inside.length).join('\n').trim();
  if (trailing) warnings.push(`text after a ${type} callout is not part of any message and was left out: "${trailing.slice(0, 60)}"`);
  return inside;
}

function readCallout(type: string, segment: string, turn: BodyMessage | null, out: ParsedBody, warnings: string[]): void {
  const inside = calloutLines(type, segment, warnings);
  if (type === 'failed') {
    if (turn) turn.failed = true;
    return;
  }
  if (type === 'context') {
    if (turn) turn.context = inside.filter((l) => l.startsWith('- '));
    return;
  }
  if (type === PARTIAL_CALLOUT) {
    const partial = decodePartialCallout(inside);
    if (partial.warning) warnings.push(partial.warning);
    if (turn && partial.text) turn.partial = partial.text;
    return;
  }
  const json = inside.filter((l) => !/^```/.test(l)).join('\n');
  let payload: unknown;
  try {
    payload = JSON.parse(json);
  } catch {
    warnings.push(`a ${type} callout could not be read and was left out`);
    return;
  }
  const where = turn ? `message ${turn.n ?? '?'}` : 'the note';
  if (!turn && type !== 'url') {
    warnings.push(`a ${type} callout before the first message was left out`);
    return;
  }
  switch (type) {
    case 'sent':
      if (typeof payload === 'string' && turn) turn.sent = payload;
      else warnings.push(`${where}: the sent text is not a string; left out`);
      return;
    case 'turn-context': {
      const dynamic = TurnContextPayload().safeParse(payload);
      if (dynamic.success && turn) turn.dynamic = dynamic.data;
      else warnings.push(`${where}: the turn context could not be read; left out`);
      return;
    }
    case 'tool': {
      const tool = ToolPayload().safeParse(payload);
      if (tool.success && turn) turn.tools.push(tool.data);
      else warnings.push(`${where}: a tool output could not be read; left out`);
      return;
    }
    case 'url': {
      const page = PagePayload().safeParse(payload);
      if (page.success) out.urls.set(`${page.data.id}@${page.data.version}`, page.data.content);
      else warnings.push(`${where}: a page text could not be read; left out`);
      return;
    }
    default:
      warnings.push(`${where}: unknown callout strata-${type}; left out`);
  }
}

const TurnContextPayload = lazySchema(() => z.array(z.object({ id: z.string(), lifecycle: z.enum(LIFECYCLES), text: z.string() })) satisfies z.ZodType<PromptFragment[]>);
const ToolPayload = lazySchema(() => z.object({ name: z.string(), input: z.string(), output: z.string() }) satisfies z.ZodType<ToolOutput>);
const PagePayload = lazySchema(() => z.object({ id: z.string(), version: z.number(), content: z.string() }));

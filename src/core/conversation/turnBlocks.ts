import type { ChatTurn, ItemRef } from './model';
import { encodeText } from './textBlock';
import { encodePartialCallout } from './partialCallout';

/**
 * The text a turn writes of itself in the chat note: its messages under their headings, and the
 * folded callouts of what the note keeps for the machine (not answered, a cut reply, the sent text,
 * the turn context, tool outputs, page texts). Pure: encodeMemo.ts keeps what it writes.
 */

/** What a turn writes of itself (its context list and page texts depend on the library: written apart). */
export interface MessageBlocks {
  readonly n: number;
  /** The user's message, and the not-answered and partial-reply callouts. */
  readonly head: string;
  /** The sent text, turn context and tool callouts. */
  readonly tail: string;
  /** The reply (empty without one). */
  readonly reply: string;
}

/** A turn's own parts: a pure function of the turn and its number. */
export function writeTurnParts(turn: ChatTurn, n: number): MessageBlocks {
  let head = section(`## User · ${n}`, turn.text);
  if (turn.status !== 'complete') head += failedCallout(turn);
  if (turn.status !== 'complete' && turn.partial) head += encodePartialCallout(turn.partial);
  let tail = '';
  if (turn.sent !== undefined) tail += jsonCallout('sent', 'Sent to the model', turn.sent);
  if (turn.dynamic.length > 0) tail += jsonCallout('turn-context', 'Turn context', turn.dynamic);
  for (const tool of turn.tools) tail += jsonCallout('tool', `Tool: ${oneLine(tool.name)}`, tool);
  return { n, head, tail, reply: turn.reply !== undefined ? section(`## Assistant · ${n}`, turn.reply) : '' };
}

/** A page's text (a URL item of the library), under the turn it entered in. */
export function writePageCallout(item: ItemRef): string {
  return jsonCallout('url', `Page text: ${oneLine(item.source)}`, { id: item.id, version: item.version, content: item.content ?? '' });
}

function section(heading: string, text: string): string {
  return `${heading}\n\n${encodeText(text)}\n\n`;
}

function failedCallout(turn: ChatTurn): string {
  const reason = turn.error ? `: ${oneLine(turn.error)}` : '';
  return `> [!strata-failed] Not answered${reason}\n> This message was not answered. Retry it from the chat.\n\n`;
}

/** One line of display text: no line breaks (or other controls), no markup that could open a block. */
function oneLine(text: string): string {
  const flat = text.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').replace(/[[\]<>`]/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 119)}…` : flat;
}

function jsonCallout(type: string, title: string, payload: unknown): string {
  // One JSON line: JSON never holds a raw line break, and a line starting with `>` cannot end the callout early.
  return `> [!strata-${type}]- ${title}\n> \`\`\`json\n> ${JSON.stringify(payload)}\n> \`\`\`\n\n`;
}

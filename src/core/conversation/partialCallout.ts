import { decodeQuoted, encodeQuoted, type DecodedText } from './textBlock';

/** The callout type (`> [!strata-partial]-`) holding a cut reply's partial text. */
export const PARTIAL_CALLOUT = 'partial';

/**
 * What had arrived of a reply that was cut (stopped, stalled, broken off), kept in the chat note
 * under the message it did not answer, so reopening the chat shows what the user had read: a
 * folded callout with the text quoted as a summary's is (textBlock.ts). It is never sent to the
 * model (only answered turns are history), and it goes when the message is sent again. Notes
 * written before it existed have no such callout and read as before.
 */
export function encodePartialCallout(partial: string): string {
  return `> [!strata-${PARTIAL_CALLOUT}]- Partial reply (shown, never sent to the model)\n${encodeQuoted(partial)}\n\n`;
}

/** The partial text back from the callout's lines (their `> ` taken off). */
export function decodePartialCallout(lines: readonly string[]): DecodedText {
  return decodeQuoted(lines);
}

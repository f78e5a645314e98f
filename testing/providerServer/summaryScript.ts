/**
 * Scripted artifact summaries (format in ./reply.ts): a request whose system text starts with the
 * summary instructions' first line (SUMMARY_MARKER, src/core/planning/summarize.ts) is answered with
 * an extractive summary of the document in its user message, instead of the chat reply: each
 * heading with the first sentence under it, as a list, within the word limit the request gives.
 * Deterministic, so the planner's summaries can be tested and measured offline.
 */
import { SUMMARY_MARKER } from '../../src/core/planning/summarize';
import type { ScriptedReply } from './toolScript';

const HEADING = /^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$/;
const LIMIT = /^Length: at most (\d+) words\.$/m;
const DOCUMENT = /^Document .*:$/m;

export function isSummaryRequest(systemTexts: readonly string[]): boolean {
  return systemTexts.some((text) => text.trimStart().startsWith(SUMMARY_MARKER));
}

function firstSentence(line: string): string {
  const text = line.replace(/^[-*+>\s]+|^\d+\.\s+/g, '').trim();
  const end = text.search(/[.!?](\s|$)/);
  return end < 0 ? text.slice(0, 200) : text.slice(0, end + 1);
}

/** The summary of the document in a summary request's user text. */
export function scriptedSummary(userText: string): string {
  const limit = Number(LIMIT.exec(userText)?.[1] ?? 200);
  const at = DOCUMENT.exec(userText);
  const lines = (at ? userText.slice(at.index + at[0].length) : userText).split('\n');
  const out: string[] = [];
  let words = 0;
  let heading: string | null = 'Opening';
  for (const line of lines) {
    const h = HEADING.exec(line);
    if (h) {
      heading = h[1];
      continue;
    }
    if (heading === null || line.trim() === '' || line.trim().startsWith('```') || line.trim().startsWith('---')) continue;
    const entry = `- ${heading}: ${firstSentence(line)}`;
    heading = null;
    const count = entry.split(/\s+/).length;
    if (words + count > limit) break;
    out.push(entry);
    words += count;
  }
  return out.length > 0 ? out.join('\n') : 'The document has no text to summarize.';
}

/** The summary reply to a summary request; null for any other request. */
export function summaryTurn(view: { readonly systemTexts: readonly string[]; readonly userText: string }): ScriptedReply | null {
  return isSummaryRequest(view.systemTexts) ? { kind: 'text', text: scriptedSummary(view.userText) } : null;
}

import type { CompactionEvent } from '../conversation/records/compaction';
import type { LiveChat } from '../conversation/liveChat';
import type { CompactionRecord } from '../conversation/model';
import type { Usage } from '../usage';

/**
 * A compaction the chat's engine just applied (the pipeline's over the threshold, or condensing on
 * request), as the chat keeps it: the event, the summary text and masking the engine renders, when,
 * and what the summary cost. Recorded in the chat; false when the engine has none (nothing to record).
 */
export function recordCompaction(chat: LiveChat, event: CompactionEvent, at: number, costOf?: (model: string, usage: Usage) => number | null): boolean {
  const compaction = chat.engine.currentCompaction();
  if (!compaction) return false;
  const summary = event.summary;
  const cost = summary ? (costOf ? costOf(summary.model, summary.usage) : null) : 0;
  const forms = compaction.toolForms && compaction.toolForms.length > 0 ? { toolForms: compaction.toolForms } : {};
  const record: CompactionRecord = { ...event, text: compaction.text, maskedThrough: compaction.maskedThrough, masking: compaction.masking, ...forms, at, cost };
  chat.recordCompaction(record);
  return true;
}

/** What a compaction without a summary leaves out of what the model sees, in words; null for a summary. */
export function omittedWarning(event: CompactionEvent): string | null {
  if (event.fallback === undefined) return null;
  const messages = 2 * event.turnsDropped;
  return `Condensed without a summary (${event.fallback}): ${messages} earlier messages are omitted from what the model sees. They stay in the chat.`;
}

/** Condensing on request, said back: what was condensed and the next request's size before and after. */
export function condensedMessage(event: CompactionEvent | null): string {
  if (!event) return 'Nothing to condense: the earlier messages are already condensed or too short to be worth a summary, and the newest ones always stay.';
  const fmt = (n: number) => n.toLocaleString('en-US');
  const range = event.through === 1 ? 'turn 1' : `turns 1–${event.through}`;
  const shortened = event.outputsShortened ? `, ${event.outputsShortened} earlier tool output${event.outputsShortened === 1 ? '' : 's'} shortened` : '';
  return `Condensed: ${range} ${event.kind === 'summary' ? 'summarized' : 'omitted'}${shortened}; the next request goes from ${fmt(event.tokensBefore)} to ${fmt(event.tokensAfter)} tokens.`;
}

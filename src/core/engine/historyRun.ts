import type { ChatMessage } from './messages';
import type { HistoryTurn, MessageSegment, SummarySegment } from './types';

/** A history segment of L4: a kept turn's message, or the summary that opens history under a compaction. */
export type HistorySegment = SummarySegment | MessageSegment;

/** A message with the blocks it was joined from (SEP between them), so tokens can be counted per block. */
export interface RenderedMessage extends ChatMessage {
  readonly parts: readonly string[];
}

/**
 * History as the last assembly rendered it, extended turn by turn. History only grows between two
 * deliberate events (a compaction, a removal, a truncation, a rendering switch: each clears the
 * run), so an assembly at turn 1,000 renders, hashes and counts the turns committed since the last
 * one, and copies the rest, instead of walking 2,000 messages again. Every list here is append-only;
 * an assembly takes copies, so an envelope handed out never changes under its holder.
 */
export class HistoryRun {
  /** The kept turns L4 was built from, and L4 itself: segments, their hashes, their token sum (per tokenizer). */
  turns: readonly object[] = [];
  summary: SummarySegment | null = null;
  encoding = '';
  segments: HistorySegment[] = [];
  segmentHashes: string[] = [];
  segmentTokens = 0;
  records: HistoryTurn[] = [];

  /** The converter's part: the messages of `rendered` segments (a summary has none: it leads the next user message). */
  rendered = 0;
  messages: RenderedMessage[] = [];
  /** Blocks waiting for the next user message (the summary, when no kept turn follows it yet). */
  lead: string[] = [];

  /** The engine's part, aligned with `messages`: as providers get them, their hashes, their tokens. */
  plain: ChatMessage[] = [];
  hashes: string[] = [];
  messageTokens = 0;

  /** True when `turns` under `summary` with `encoding` continue what the run holds (then only new turns are added). */
  continues(turns: readonly object[], summary: SummarySegment | null, encoding: string): boolean {
    if (summary !== this.summary || encoding !== this.encoding || turns.length < this.turns.length) return false;
    for (let i = 0; i < this.turns.length; i++) if (turns[i] !== this.turns[i]) return false;
    return true;
  }

  /** Start again (history changed other than by growing). */
  clear(summary: SummarySegment | null = null, encoding = ''): void {
    this.turns = [];
    this.summary = summary;
    this.encoding = encoding;
    this.segments = [];
    this.segmentHashes = [];
    this.segmentTokens = 0;
    this.records = [];
    this.rendered = 0;
    this.messages = [];
    this.lead = [];
    this.plain = [];
    this.hashes = [];
    this.messageTokens = 0;
  }
}

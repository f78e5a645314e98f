import type { CompletedTurn } from '../engine/completedTurn';
import { maskLines } from '../engine/masking';
import type { ChatMessage } from '../engine/messages';
import type { ChatProvider } from '../ports/chatModel';
import { tokenCounterFor } from '../tokens/tokenCounter';
import { addUsage, ZERO_USAGE, type Usage } from '../usage';

/** What a summary is made from: the previous summary and the turns this compaction drops. */
export interface SummaryInput {
  /** The previous compaction's summary text, folded into this one. */
  readonly previous: string | null;
  /** The newly dropped turns, oldest first. */
  readonly turns: readonly CompletedTurn[];
  /** Notes (and other items) the dropped turns attached or referred to, as vault paths or ids. */
  readonly notes: readonly string[];
  /** The summary should stay under this many tokens. */
  readonly maxTokens: number;
}

export interface SummaryOutput {
  readonly text: string;
  /** Tokens the summarizing calls used (zero for the offline summarizer). */
  readonly usage: Usage;
  readonly calls: number;
  readonly model: string;
  readonly provider: string;
}

export interface Summarizer {
  summarize(input: SummaryInput, signal: AbortSignal): Promise<SummaryOutput>;
}

/** Seed 001's focus, plus the notes as wikilinks so the user (and the model) can follow them. */
export const SUMMARY_INSTRUCTIONS = [
  'You condense a conversation between a user and an assistant about notes in their Obsidian vault, so the assistant can continue it without the full text.',
  'Write a summary focusing on:',
  '1. What the user asked for.',
  '2. What was done: answers given, decisions made, queries or code produced.',
  '3. The current state of the work.',
  '4. Pending tasks and open questions.',
  '5. Which notes were discussed, as [[wikilinks]].',
  'Keep important technical details (names, numbers, settings, queries, code identifiers). Leave out pleasantries.',
  'If a previous summary is given, fold it in: the result replaces it.',
  'Write plain markdown with short headed sections, no preamble.',
].join('\n');

/** `[[Folder/Note]]` for a vault path (the extension of a markdown note dropped); other ids as they are. */
export function wikilink(id: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(id)) return id;
  return `[[${id.replace(/\.md$/i, '')}]]`;
}

const TOOL_LINES = 40;

/** One dropped turn as the summarizer reads it (tool outputs cut to head and tail: the summary needs their gist). */
export function transcriptOf(turn: CompletedTurn): string {
  const parts = [`### Turn ${turn.turn}`, `User: ${turn.userText}`];
  for (const tool of turn.tools) parts.push(`Tool ${tool.name}(${tool.input}):\n${maskLines(tool.output, TOOL_LINES).text}`);
  parts.push(`Assistant: ${turn.reply}`);
  return parts.join('\n');
}

function notesLine(notes: readonly string[]): string {
  return notes.length > 0 ? `Notes attached or referred to in these turns: ${notes.map(wikilink).join(', ')}` : '';
}

/** The request for one summarizing call. */
export function summaryMessages(previous: string | null, transcript: string, notes: readonly string[], maxTokens: number): ChatMessage[] {
  const words = Math.max(60, Math.floor(maxTokens * 0.7));
  const user = [
    previous ? `Previous summary:\n${previous}` : '',
    `Conversation to condense:\n${transcript}`,
    notesLine(notes),
    `Write the summary in at most ${words} words.`,
  ]
    .filter(Boolean)
    .join('\n\n');
  return [
    { role: 'system', content: SUMMARY_INSTRUCTIONS },
    { role: 'user', content: user },
  ];
}

/**
 * Summaries from a chat model (the summary model setting, or the chat's own). A transcript longer
 * than `chunkTokens` is summarized in chunks, each folding the summary so far into the next.
 */
export class ProviderSummarizer implements Summarizer {
  constructor(
    private readonly provider: ChatProvider,
    private readonly chunkTokens: number,
  ) {}

  async summarize(input: SummaryInput, signal: AbortSignal): Promise<SummaryOutput> {
    const counter = tokenCounterFor(this.provider.config.model);
    const chunks: string[][] = [[]];
    let size = 0;
    for (const turn of input.turns) {
      const text = transcriptOf(turn);
      const tokens = counter.count(text);
      if (size > 0 && size + tokens > this.chunkTokens) {
        chunks.push([]);
        size = 0;
      }
      chunks[chunks.length - 1].push(text);
      size += tokens;
    }
    let summary = input.previous;
    let usage = ZERO_USAGE;
    let model = this.provider.config.model;
    for (const chunk of chunks) {
      const result = await this.provider.send({ messages: summaryMessages(summary, chunk.join('\n\n'), input.notes, input.maxTokens), signal });
      if (signal.aborted) throw new DOMException('The summary was stopped.', 'AbortError');
      usage = addUsage(usage, result.usage);
      model = result.model ?? model;
      summary = result.text.trim();
      if (!summary) throw new Error('the summary model returned an empty summary');
    }
    return { text: summary ?? '', usage, calls: chunks.length, model, provider: this.provider.config.id };
  }
}

/**
 * A deterministic, offline summarizer (the prompt inspector, the benchmarks, tests): for each
 * dropped turn the user's request and the first sentence of the reply, then the notes as
 * wikilinks, within the size a model's summary would have. Costs nothing.
 */
export class ExtractiveSummarizer implements Summarizer {
  constructor(private readonly model = 'offline') {}

  summarize(input: SummaryInput, signal: AbortSignal): Promise<SummaryOutput> {
    if (signal.aborted) return Promise.reject(new DOMException('The summary was stopped.', 'AbortError'));
    const counter = tokenCounterFor(this.model);
    const lines: string[] = [];
    if (input.previous) lines.push('## Earlier', input.previous.replace(/^## (Earlier|Asked and answered|Notes discussed)\n?/gm, ''));
    lines.push('## Asked and answered');
    for (const turn of input.turns) lines.push(`- ${firstWords(turn.userText, 16)} → ${firstWords(turn.reply.replace(/[#>`*_[\]]/g, ''), 14)}`);
    if (input.notes.length > 0) lines.push('## Notes discussed', input.notes.map(wikilink).join(', '));
    let text = lines.join('\n');
    // Older lines go first when the summary outgrows its room (a model would compress them too).
    const budget = Math.floor(input.maxTokens * 0.8);
    while (counter.count(text) > budget && lines.length > 3) {
      const drop = lines.findIndex((l) => l.startsWith('- '));
      if (drop < 0) break;
      lines.splice(drop, 1);
      text = lines.join('\n');
    }
    return Promise.resolve({ text, usage: ZERO_USAGE, calls: 0, model: this.model, provider: 'offline' });
  }
}

function firstWords(text: string, n: number): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ');
  return words.length <= n ? words.join(' ') : `${words.slice(0, n).join(' ')}…`;
}

/** The marker a compaction writes when turns are dropped without a summary. */
export function omissionText(previous: string | null, messages: number, notes: readonly string[]): string {
  const marker = `[${messages} earlier message${messages === 1 ? '' : 's'} omitted]`;
  return [previous, marker, notes.length > 0 ? `Notes attached in them: ${notes.map(wikilink).join(', ')}` : ''].filter(Boolean).join('\n\n');
}

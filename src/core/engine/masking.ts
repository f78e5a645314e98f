import type { ToolOutput } from './types';

/**
 * Observation masking (seed 001): at a compaction, tool outputs and code blocks in the history that
 * is kept are cut to their head and tail. Only at a compaction (never per turn, which would rewrite
 * the cached prefix every turn); the turn that produced them always gets them whole.
 */
export interface MaskingLimits {
  /** Tool outputs longer than this many lines are masked. */
  readonly maxOutputLines: number;
  /** Fenced code blocks longer than this many lines are masked. */
  readonly maxCodeLines: number;
}

export const DEFAULT_MASKING: MaskingLimits = { maxOutputLines: 200, maxCodeLines: 500 };

/** The marker that replaces the middle of a masked text. */
export function truncatedMarker(lines: number): string {
  return `[... ${lines} lines truncated ...]`;
}

/**
 * Lines over `maxLines`: the first and last third are kept around a marker naming how many were cut
 * (the seed's rule). Idempotent: a masked text is short enough to be left alone.
 */
export function maskLines(text: string, maxLines: number): { text: string; masked: boolean } {
  const lines = text.split('\n');
  if (maxLines <= 0 || lines.length <= maxLines) return { text, masked: false };
  const keep = Math.max(1, Math.floor(maxLines / 3));
  const cut = lines.length - 2 * keep;
  return { text: [...lines.slice(0, keep), truncatedMarker(cut), ...lines.slice(-keep)].join('\n'), masked: true };
}

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * Every fenced code block whose body is longer than `maxLines` is masked (fences kept). An unclosed
 * fence runs to the end of the text, as markdown reads it.
 */
export function maskCodeBlocks(text: string, maxLines: number): { text: string; masked: number } {
  if (maxLines <= 0 || !text.includes('```') && !text.includes('~~~')) return { text, masked: 0 };
  const lines = text.split('\n');
  const out: string[] = [];
  let masked = 0;
  let i = 0;
  while (i < lines.length) {
    const open = FENCE.exec(lines[i]);
    out.push(lines[i]);
    i++;
    if (!open) continue;
    const fence = open[1];
    let end = i;
    while (end < lines.length && !lines[end].trimStart().startsWith(fence)) end++;
    const body = lines.slice(i, end).join('\n');
    const result = maskLines(body, maxLines);
    if (result.masked) masked++;
    if (end > i) out.push(result.text);
    i = end;
    if (i < lines.length) {
      out.push(lines[i]);
      i++;
    }
  }
  return { text: out.join('\n'), masked };
}

/** What a history turn carries that masking can shorten. */
export interface MaskableExchange {
  readonly userText: string;
  readonly reply: string;
  readonly tools: readonly ToolOutput[];
}

/** A turn with its large tool outputs and code blocks masked, and how many were. Unchanged parts keep their identity. */
export function maskTurn<T extends MaskableExchange>(turn: T, limits: MaskingLimits): { turn: T; masked: number } {
  let masked = 0;
  const tools = turn.tools.map((tool) => {
    const result = maskLines(tool.output, limits.maxOutputLines);
    if (!result.masked) return tool;
    masked++;
    return { ...tool, output: result.text };
  });
  const user = maskCodeBlocks(turn.userText, limits.maxCodeLines);
  const reply = maskCodeBlocks(turn.reply, limits.maxCodeLines);
  masked += user.masked + reply.masked;
  if (masked === 0) return { turn, masked: 0 };
  return { turn: { ...turn, userText: user.text, reply: reply.text, tools }, masked };
}

import type { CompletedTurn } from '../engine/completedTurn';
import { outputHash, type ToolForm } from '../engine/toolForms';
import type { ToolOutput } from '../engine/types';
import type { TokenCounter } from '../tokens/tokenCounter';
import { toolArtifact } from './artifacts';
import type { ArtifactSummarizer } from './summarize';
import { SummaryCache } from './summaryCache';
import { supersededText, toolDigest } from './toolDigest';

/*
 * Historical tool outputs as artifacts (issue 27, seed 004): at a compaction (never per turn: that
 * would rewrite the cached prefix every turn), the kept turns' tool outputs are decided again. The
 * newest turn's stay whole (the next question is most likely about them); an older one is left out
 * when a later kept turn made the same call, else sent as a summary (model path, a large output and a
 * summary model) or a digest (offline: a search as its sources, a note as its outline, a page as its
 * first paragraph), each saying how to fetch it again. Small outputs stay verbatim.
 */

export interface ToolFormOptions {
  /** Outputs under this many tokens stay verbatim (a digest would save too little to matter). */
  readonly minTokens: number;
  /** The model path: summaries of large outputs by the summary model. Null or absent: offline only. */
  readonly summarizer?: ArtifactSummarizer | null;
  readonly cache?: SummaryCache;
  /** Outputs from this many characters get a model summary (seed 004's 10K-character row). */
  readonly summaryMinChars?: number;
}

export const DEFAULT_TOOL_FORMS: ToolFormOptions = { minTokens: 300, summaryMinChars: 10_000 };

/** Tokens a model summary of a tool output may take. */
const SUMMARY_TOKENS = 400;

/** What a later compaction of the same turns writes again: the focus a summary was written for. */
function focusOf(turn: CompletedTurn): string {
  const question = turn.userText.replace(/\s+/g, ' ').trim().slice(0, 300);
  return `what a later question in this chat may need from it; it was read for: ${question}`;
}

function callKey(tool: ToolOutput): string {
  return `${tool.name}\n${tool.input}`;
}

/**
 * The forms of the kept turns' tool outputs (`kept`: the turns after the compaction's boundary, oldest
 * first). A form the previous compaction decided for the same output is kept as it was, so a later
 * compaction does not rewrite what it already shortened.
 */
export async function planToolForms(
  kept: readonly CompletedTurn[],
  previous: readonly ToolForm[] | undefined,
  counter: TokenCounter,
  options: ToolFormOptions,
  signal: AbortSignal,
): Promise<ToolForm[]> {
  if (kept.length < 2) return [];
  const newest = kept[kept.length - 1].turn;
  // The last kept turn that made each call (name and input): an earlier one is superseded by it.
  const lastCall = new Map<string, number>();
  for (const turn of kept) for (const tool of turn.tools) lastCall.set(callKey(tool), turn.turn);
  const before = new Map((previous ?? []).map((f) => [`${f.turn}:${f.index}:${f.hash}`, f]));
  const forms: ToolForm[] = [];
  for (const turn of kept) {
    if (turn.turn === newest) break;
    for (let index = 0; index < turn.tools.length; index++) {
      const tool = turn.tools[index];
      const hash = outputHash(tool.output);
      const kept = before.get(`${turn.turn}:${index}:${hash}`);
      if (kept) {
        forms.push(kept);
        continue;
      }
      const tokens = counter.count(tool.output);
      if (tokens < options.minTokens) continue;
      const by = lastCall.get(callKey(tool)) ?? turn.turn;
      if (by > turn.turn) {
        forms.push({ turn: turn.turn, index, kind: 'excluded', hash, text: supersededText(tool, turn.turn, by) });
        continue;
      }
      const summary = await summaryOf(tool, turn, index, tokens, counter, options, signal);
      if (summary !== null) {
        forms.push({ turn: turn.turn, index, kind: 'summary', hash, text: summary });
        continue;
      }
      const digest = toolDigest(tool, turn.turn);
      if (digest !== null) forms.push({ turn: turn.turn, index, kind: 'digest', hash, text: digest });
    }
  }
  return forms;
}

/** A model summary of a large output (from the summary cache when it has one), or null: then the digest. */
async function summaryOf(
  tool: ToolOutput,
  turn: CompletedTurn,
  index: number,
  tokens: number,
  counter: TokenCounter,
  options: ToolFormOptions,
  signal: AbortSignal,
): Promise<string | null> {
  const summarizer = options.summarizer;
  if (!summarizer || tool.output.length < (options.summaryMinChars ?? Infinity)) return null;
  const artifact = toolArtifact(tool, turn.turn, index, counter, true);
  const focus = focusOf(turn);
  const cache = options.cache;
  // Keyed by the call, not the turn: the same output read in another turn or chat is not summarized again.
  const key = SummaryCache.key(`tool:${callKey(tool)}`, artifact.hash, focus);
  let text = (await cache?.get(key))?.text;
  if (text === undefined) {
    try {
      const out = await summarizer.summarize(artifact, focus, SUMMARY_TOKENS, signal);
      text = out.text.trim();
      if (text !== '') await cache?.set(key, { text, model: out.model });
    } catch {
      // The user's stop stops the compaction; a failed summary falls back to the digest.
      if (signal.aborted) throw new DOMException('Condensing was stopped.', 'AbortError');
      return null;
    }
  }
  if (text === '') return null;
  const again = tool.name === 'readNote' || tool.name === 'fetchUrl' ? ` Call ${tool.name} again for the whole text.` : '';
  const out = `[Summary of the ${tool.name} output of turn ${turn.turn} (${tokens} tokens in full), written when the conversation was condensed.${again}]\n${text}`;
  // A summary that saves little is not worth leaving the words for.
  return counter.count(out) * 2 <= tokens ? out : null;
}

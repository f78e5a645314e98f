import type { InputBudget } from '../../src/core/budget/budget';
import { summaryReserve } from '../../src/core/budget/plan';
import type { Summarizer } from '../../src/core/budget/summarizer';
import { renderCompaction } from '../../src/core/engine/compaction';
import { DEFAULT_MASKING } from '../../src/core/engine/masking';
import type { CompletedTurn } from '../../src/core/engine/completedTurn';
import type { ChatMessage } from '../../src/core/engine/messages';
import { renderItem } from '../../src/core/engine/render';
import type { LibraryItem } from '../../src/core/engine/types';
import type { ReplayedTurn } from '../../src/core/scenario/replay';
import { countMessagesTokens, TOKENS_PER_MESSAGE, TOKENS_REPLY_PRIMING, type TokenCounter } from '../../src/core/tokens/tokenCounter';
import { paragraphsOf } from '../cache/encode';
import { appendOnlyRequests } from '../cache/layouts';

/**
 * The budgeted comparison layouts, built from one unbudgeted replay (the engine's own items, tools,
 * texts and replies), so they carry the same information as Strata's budgeted requests. Each turn's
 * user message is the append-only transcript's: tool outputs, the item versions not sent before,
 * the question; a turn is that message and its reply.
 */

const SEP = '\n\n';

/** Paragraph counts per counter: the baselines count requests that differ by a summary or a turn, over the same paragraphs. */
const paragraphCounts = new WeakMap<TokenCounter, Map<string, number>>();

/**
 * countMessagesTokens of the request. A real encoding's count is the sum of the paragraphs' counts
 * (paragraphsOf: no token spans a cut), so each paragraph is counted once per counter; the counter's
 * own memo would hash every whole message again each time.
 */
export function requestTokens(messages: readonly ChatMessage[], counter: TokenCounter): number {
  if (counter.encoding === 'estimate') return countMessagesTokens(counter, messages.map((m) => m.content));
  let memo = paragraphCounts.get(counter);
  if (!memo) {
    memo = new Map();
    paragraphCounts.set(counter, memo);
  }
  let total = TOKENS_REPLY_PRIMING;
  for (const m of messages) {
    total += TOKENS_PER_MESSAGE;
    for (const paragraph of paragraphsOf(m.content)) {
      let n = memo.get(paragraph);
      if (n === undefined) {
        n = counter.count(paragraph);
        memo.set(paragraph, n);
      }
      total += n;
    }
  }
  return total;
}

interface Transcript {
  readonly system: ChatMessage;
  /** Turn i's user message (index i − 1). */
  readonly users: readonly ChatMessage[];
  readonly replies: readonly string[];
}

function transcriptOf(turns: readonly ReplayedTurn[]): Transcript {
  const requests = appendOnlyRequests(turns);
  return {
    system: requests[0][0],
    users: requests.map((r) => r[r.length - 1]),
    replies: turns.map((t) => t.reply),
  };
}

/** Turns from..to−1 (0-based) as user/assistant pairs; `lead` opens the first user message. */
function history(t: Transcript, from: number, to: number, lead: string): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (let k = from; k < to; k++) {
    const user = t.users[k];
    out.push(k === from && lead ? { role: 'user', content: `${lead}${SEP}${user.content}` } : user, { role: 'assistant', content: t.replies[k] });
  }
  return out;
}

/**
 * A per-turn sliding window: each request is the system prompt, the newest earlier turns that fit
 * the budget (contiguous from the end: the first turn that does not fit ends the window), and this
 * turn's message, recomputed every turn. Whatever falls out is gone, attached note text included.
 */
export function slidingWindowRequests(turns: readonly ReplayedTurn[], budget: InputBudget, counter: TokenCounter): ChatMessage[][] {
  const t = transcriptOf(turns);
  return turns.map((_, i) => {
    let size = requestTokens([t.system, t.users[i]], counter);
    let from = i;
    while (from > 0) {
      const pair = requestTokens([t.users[from - 1], { role: 'assistant', content: t.replies[from - 1] }], counter) - 3;
      if (size + pair > budget.tokens) break;
      size += pair;
      from--;
    }
    return [t.system, ...history(t, from, i, ''), t.users[i]];
  });
}

export interface ThresholdCompaction {
  /** Before this turn (1-based). */
  readonly turn: number;
  /** Turns 1..through condensed. */
  readonly through: number;
}

/** How many turns a simple compaction keeps verbatim: a fixed number, or as many as fit the target. */
export type KeepPolicy = { readonly turns: number } | 'target';

/**
 * A simple compact-at-threshold chat: when a request would pass the threshold, the oldest turns are
 * summarized, keeping the newest `keep` turns (seed 001: the newest messages), or as many as fit the
 * compaction target (as Strata's planner aims); the summary plus every note attached in condensed
 * turns opens the first user message, then the kept history. The notes sit after the summary, so
 * each compaction sends them again; nothing is masked or put off. A manual condense compacts the same way. Summaries come from
 * `summarizer`, fed the engine's completed turns.
 */
export async function compactAtThresholdRequests(
  turns: readonly ReplayedTurn[],
  completed: readonly CompletedTurn[],
  budget: InputBudget,
  summarizer: Summarizer,
  counter: TokenCounter,
  keep: KeepPolicy,
  /** Turns (1-based) before which the user condenses by hand (the scenario's `condense`). */
  manual: ReadonlySet<number> = new Set(),
): Promise<{ requests: ChatMessage[][]; compactions: ThresholdCompaction[] }> {
  const t = transcriptOf(turns);
  const reserve = summaryReserve(budget);
  const requests: ChatMessage[][] = [];
  const compactions: ThresholdCompaction[] = [];
  const entered: LibraryItem[] = [];
  const removed = new Set<string>();
  let through = 0;
  let summary = '';

  /** The latest version of each item that entered in turns 1..upTo, in the order those versions entered. */
  const carried = (upTo: number): LibraryItem[] => {
    const latest = new Map<string, LibraryItem>();
    for (const item of entered) if (item.enteredTurn <= upTo && !removed.has(item.id)) latest.set(item.id, item);
    return entered.filter((item) => latest.get(item.id) === item);
  };
  const lead = (upTo: number, text: string): string =>
    upTo === 0 ? '' : [renderCompaction({ through: upTo, kind: 'summary', text, maskedThrough: upTo, masking: DEFAULT_MASKING }), ...carried(upTo).map(renderItem)].join(SEP);
  const build = (i: number, upTo: number, text: string): ChatMessage[] => {
    const l = lead(upTo, text);
    const current = upTo === i && l ? { role: 'user' as const, content: `${l}${SEP}${t.users[i].content}` } : t.users[i];
    return [t.system, ...history(t, upTo, i, l), current];
  };

  for (let i = 0; i < turns.length; i++) {
    for (const id of turns[i].assembly.envelope.removed) removed.add(id);
    let request = build(i, through, summary);
    if (i > through && (manual.has(i + 1) || requestTokens(request, counter) > budget.threshold)) {
      let next = through + 1;
      if (keep === 'target') {
        // The earliest boundary whose request, with the summary at its reserve, fits the target.
        while (next < i && requestTokens(build(i, next, ''), counter) + reserve > budget.target) next++;
      } else {
        next = Math.min(i, Math.max(next, i - keep.turns));
      }
      const notes = [...new Set(entered.filter((item) => item.enteredTurn > through && item.enteredTurn <= next).map((item) => item.source))];
      const out = await summarizer.summarize({ previous: summary || null, turns: completed.slice(through, next), notes, maxTokens: reserve }, new AbortController().signal);
      summary = out.text;
      through = next;
      compactions.push({ turn: i + 1, through });
      request = build(i, through, summary);
    }
    requests.push(request);
    for (const s of turns[i].assembly.envelope.layers.L3.segments) if (s.type === 'item') entered.push(s.item);
  }
  return { requests, compactions };
}

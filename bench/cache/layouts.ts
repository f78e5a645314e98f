import type { ChatMessage } from '../../src/core/engine/messages';
import { renderItem, renderTool } from '../../src/core/engine/render';
import type { LibraryItem } from '../../src/core/engine/types';
import type { ReplayedTurn } from '../../src/core/scenario/replay';
import type { TokenCounter } from '../../src/core/tokens/tokenCounter';

/**
 * The comparison layouts, built from one replay of a scenario (the engine's own resolved items,
 * tools, texts and replies), so every layout carries the same information.
 */

const SEP = '\n\n';

/** L1 as a plain system prompt (no library instruction: the other layouts need none). */
function systemText(turn: ReplayedTurn): string {
  return turn.assembly.envelope.layers.L1.segments.map((s) => s.text).join(SEP);
}

/** Items (new versions) this turn brings, in order. */
function newItems(turn: ReplayedTurn): LibraryItem[] {
  return turn.assembly.envelope.layers.L3.segments.flatMap((s) => (s.type === 'item' ? [s.item] : []));
}

function toolBlocks(turn: ReplayedTurn): string[] {
  return turn.assembly.envelope.layers.L3.segments.flatMap((s) => (s.type === 'tool' ? [renderTool(s.tool)] : []));
}

function userText(turn: ReplayedTurn): string {
  return turn.assembly.envelope.layers.L5.segments[0].text;
}

/**
 * Naive: every turn sends the system prompt, the raw history, then one user message with this
 * turn's tool outputs, every item attached so far (latest version, in full) and the question.
 * An item the user removed is no longer sent.
 */
export function naiveRequests(turns: readonly ReplayedTurn[]): ChatMessage[][] {
  const attached = new Map<string, LibraryItem>();
  const history: ChatMessage[] = [];
  return turns.map((turn) => {
    for (const id of turn.assembly.envelope.removed) attached.delete(id);
    for (const item of newItems(turn)) attached.set(item.id, item);
    const user = [...toolBlocks(turn), ...[...attached.values()].map(renderItem), userText(turn)].join(SEP);
    const request: ChatMessage[] = [{ role: 'system', content: systemText(turn) }, ...history, { role: 'user', content: user }];
    history.push({ role: 'user', content: userText(turn) }, { role: 'assistant', content: turn.reply });
    return request;
  });
}

/**
 * Append-only transcript (the practical best): each request is the previous one plus its reply
 * plus one user message with this turn's tool outputs, the item versions not sent before, and the
 * question. Nothing is ever re-sent or rewritten (so a removed item simply stays in the transcript).
 */
export function appendOnlyRequests(turns: readonly ReplayedTurn[]): ChatMessage[][] {
  const sent = new Set<string>();
  let transcript: ChatMessage[] = [];
  return turns.map((turn, index) => {
    if (index === 0) transcript = [{ role: 'system', content: systemText(turn) }];
    else transcript = [...transcript, { role: 'assistant', content: turns[index - 1].reply }];
    const fresh = newItems(turn).filter((item) => !sent.has(`${item.id}@${item.hash}`));
    for (const item of fresh) sent.add(`${item.id}@${item.hash}`);
    const user = [...toolBlocks(turn), ...fresh.map(renderItem), userText(turn)].join(SEP);
    transcript = [...transcript, { role: 'user', content: user }];
    return transcript;
  });
}

export interface LowerBound {
  readonly tokens: number;
  readonly pieces: number;
}

/**
 * The information lower bound: every distinct piece of input counted once, in tokens: the system
 * prompt, each item version, each user message, each tool output, and each reply that a later
 * request carries (the last reply is output only, never input). A tool output that recurs word for
 * word is counted once; `toolsPerTurn` counts it in every turn that produces it (the issue's
 * append-only reference for budget-chat, 1.21×, matches that count).
 */
export function lowerBound(turns: readonly ReplayedTurn[], counter: TokenCounter, options: { toolsPerTurn?: boolean } = {}): LowerBound {
  const seen = new Set<string>();
  let tokens = 0;
  const add = (key: string, text: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    tokens += counter.count(text);
  };
  turns.forEach((turn, index) => {
    add(`system\u0000${systemText(turn)}`, systemText(turn));
    for (const item of newItems(turn)) add(`item\u0000${item.id}\u0000${item.hash}`, item.content);
    for (const s of turn.assembly.envelope.layers.L3.segments) if (s.type === 'tool') add(`tool\u0000${options.toolsPerTurn ? `${index}\u0000` : ''}${s.tool.output}`, s.tool.output);
    add(`user\u0000${index}`, userText(turn));
    if (index < turns.length - 1) add(`reply\u0000${index}`, turn.reply);
  });
  return { tokens, pieces: seen.size };
}

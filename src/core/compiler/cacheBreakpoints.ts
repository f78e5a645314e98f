import type { ChatMessage } from '../engine/messages';

/** Where an explicit cache breakpoint (Anthropic `cache_control`) goes: a message, and a block of it. */
export interface CacheBreakpoint {
  readonly messageIndex: number;
  /** The block of a message sent as several (ChatMessage.blocks); absent: its last block. */
  readonly block?: number;
  readonly reason: 'system' | 'library' | 'history' | 'turn';
}

/** Anthropic accepts at most four breakpoints per request. */
export const MAX_BREAKPOINTS = 4;

/** How many blocks before a breakpoint Anthropic checks for a cached prefix (its documented lookback). */
const LOOKBACK_BLOCKS = 20;

/**
 * Breakpoints for a request: end of the stable system block (L1, and L2 in the seed rendering), or,
 * when the system message carries stable parts as blocks, the end of each part (its anchors: the next
 * request after a compaction reads up to there); end of the reused history (the previous reply:
 * everything up to it was sent last turn); end of the final user message (written now, read by the
 * next turn). The turn and history breakpoints come first; anchors take what is left of the four,
 * latest first. Deterministic, in request order.
 */
export function placeCacheBreakpoints(messages: readonly ChatMessage[]): CacheBreakpoint[] {
  const last = messages.length - 1;
  if (last < 0) return [];
  const tail: CacheBreakpoint[] = [];
  const historyEnd = last - 1;
  if (historyEnd > 0 && messages[historyEnd].role !== 'system') tail.push({ messageIndex: historyEnd, reason: 'history' });
  tail.push({ messageIndex: last, reason: 'turn' });
  const head: CacheBreakpoint[] = [];
  const first = messages[0];
  if (first.role === 'system' && last > 0) {
    const anchors = first.blocks && first.blocks.length > 1 ? (first.anchors ?? []) : [];
    if (anchors.length === 0) head.push({ messageIndex: 0, reason: 'system' });
    else {
      const kept = anchors.slice(-(MAX_BREAKPOINTS - tail.length));
      // A breakpoint left over goes 20 blocks before the first anchor (then 40, …): Anthropic looks back
      // 20 blocks from each, so a compaction that carried more than 20 turns' items still finds the
      // previous request's anchor. Free: writes span the same blocks either way.
      const extra: number[] = [];
      for (let at = kept[0] - LOOKBACK_BLOCKS; at > 0 && kept.length + extra.length < MAX_BREAKPOINTS - tail.length; at -= LOOKBACK_BLOCKS) extra.unshift(at);
      head.push(...[...extra, ...kept].map((block) => ({ messageIndex: 0, block, reason: 'library' as const })));
    }
  }
  return [...head, ...tail].slice(-MAX_BREAKPOINTS);
}

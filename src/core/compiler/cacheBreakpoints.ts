import type { ChatMessage } from '../engine/messages';

/** Where an explicit cache breakpoint (Anthropic `cache_control`) goes, by message index. */
export interface CacheBreakpoint {
  readonly messageIndex: number;
  readonly reason: 'system' | 'history' | 'turn';
}

/** Anthropic accepts at most four breakpoints per request. */
export const MAX_BREAKPOINTS = 4;

/**
 * Breakpoints for a request: end of the stable system block (L1, and L2 in the seed rendering); end
 * of the reused history (the previous reply: everything up to it was sent last turn); end of the
 * final user message (written now, read by the next turn). Deterministic, at most four.
 */
export function placeCacheBreakpoints(messages: readonly ChatMessage[]): CacheBreakpoint[] {
  const out: CacheBreakpoint[] = [];
  const last = messages.length - 1;
  if (last < 0) return out;
  if (messages[0].role === 'system' && last > 0) out.push({ messageIndex: 0, reason: 'system' });
  const historyEnd = last - 1;
  if (historyEnd > 0 && messages[historyEnd].role !== 'system') out.push({ messageIndex: historyEnd, reason: 'history' });
  out.push({ messageIndex: last, reason: 'turn' });
  return out.slice(0, MAX_BREAKPOINTS);
}

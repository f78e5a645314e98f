import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { MAX_BREAKPOINTS, type CacheBreakpoint } from '../core/compiler/cacheBreakpoints';
import type { ChatMessage } from '../core/engine/messages';

/** Plain conversion for providers that cache automatically (OpenAI, compatible endpoints). */
export function toLangChainMessages(messages: readonly ChatMessage[]): BaseMessage[] {
  return messages.map((message) => {
    switch (message.role) {
      case 'system':
        return new SystemMessage(message.content);
      case 'user':
        return new HumanMessage(message.content);
      case 'assistant':
        return new AIMessage(message.content);
    }
  });
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/** Stands in for an empty message (deterministic, so the cached prefix stays stable). */
export const EMPTY_TEXT = '(empty)';

/**
 * Anthropic conversion: each message becomes one text block; the blocks of the messages named by
 * `breakpoints` carry `cache_control: {type: 'ephemeral'}` (at most four, Anthropic's limit: the
 * first four distinct indices are kept). Leading system messages become the request's system
 * blocks. Anthropic has no system role inside the conversation, so a later system message is sent
 * as user content (consecutive user messages are merged by the adapter, which keeps the blocks and
 * their cache_control).
 */
export function toAnthropicMessages(messages: readonly ChatMessage[], breakpoints: readonly CacheBreakpoint[] = []): BaseMessage[] {
  const marked = new Set<number>();
  for (const bp of breakpoints) {
    if (marked.size >= MAX_BREAKPOINTS) break;
    if (Number.isInteger(bp.messageIndex) && bp.messageIndex >= 0 && bp.messageIndex < messages.length) marked.add(bp.messageIndex);
  }
  let leadingSystem = true;
  return messages.map((message, index) => {
    // Anthropic rejects empty or whitespace-only text blocks; an empty reply in history would fail every later turn.
    const text = message.content.trim() === '' ? EMPTY_TEXT : message.content;
    const block = { type: 'text' as const, text, ...(marked.has(index) ? { cache_control: EPHEMERAL } : {}) };
    if (message.role !== 'system') leadingSystem = false;
    if (message.role === 'system' && leadingSystem) return new SystemMessage({ content: [block] });
    if (message.role === 'assistant') return new AIMessage({ content: [block] });
    return new HumanMessage({ content: [block] });
  });
}

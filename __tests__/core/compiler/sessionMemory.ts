import type { ChatMessage } from '../../../src/core/engine/messages';
import type { CompiledRequest } from '../../../src/core/compiler/messageCompiler';
import type { ProviderTarget, SessionCapability } from '../../../src/core/compiler/session';
import type { TurnSender } from './conversation';

/**
 * A session-stateful provider reduced to its memory: what Claude Code's session transcript would
 * hold. A resumed call sees the session's memory followed by the request; the reply joins it.
 * (The real CLI is exercised in __tests__/providers/claudeCode.)
 */
export class SessionMemoryProvider implements TurnSender {
  readonly capabilities: SessionCapability;
  readonly sessions = new Map<string, ChatMessage[]>();
  /** What the model saw on each call: memory + request. */
  readonly seen: ChatMessage[][] = [];
  failNext: Error | null = null;
  private calls = 0;

  constructor(
    readonly target: ProviderTarget,
    stateful = true,
  ) {
    this.capabilities = { sessionResumption: stateful };
  }

  send(compiled: CompiledRequest): Promise<{ text: string; sessionId?: string }> {
    this.calls += 1;
    const memory = compiled.sessionId ? (this.sessions.get(compiled.sessionId) ?? []) : [];
    const context = [...memory, ...compiled.messages];
    this.seen.push(context);
    if (this.failNext) {
      const error = this.failNext;
      this.failNext = null;
      return Promise.reject(error);
    }
    const text = `Reply ${this.calls}.`;
    if (!this.capabilities.sessionResumption) return Promise.resolve({ text });
    const sessionId = compiled.sessionId ?? `session-${this.calls}`;
    this.sessions.set(sessionId, [...context, { role: 'assistant', content: text }]);
    return Promise.resolve({ text, sessionId });
  }
}

/** How many times `needle` occurs in the text. */
export function occurrences(haystack: string, needle: string): number {
  if (!needle) return 0;
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + needle.length)) count += 1;
  return count;
}

export function joined(messages: readonly ChatMessage[]): string {
  return messages.map((m) => `${m.role}: ${m.content}`).join('\n\n');
}

import type { TurnAssembly } from '../engine/turnAssembly';
import type { ChatMessage } from '../engine/messages';
import { renderSystemContext, renderUserText } from '../engine/render';

const SEP = '\n\n';

/** Dynamic L1 fragments as the seed sends them on resume: `[System Context]: …`, one per fragment. */
export function systemContext(assembly: TurnAssembly): string[] {
  return assembly.envelope.layers.L1.segments
    .filter((s) => s.lifecycle === 'dynamic')
    .map((s) => renderSystemContext(s.text));
}

/**
 * This turn's user message for a resumed session: dynamic fragments as [System Context], then L3
 * (tools, references, items entering now) and L5. The static system prompt stays out: the session has it.
 */
export function deltaUserMessage(assembly: TurnAssembly): ChatMessage {
  const { L3, L5 } = assembly.envelope.layers;
  const parts = [...systemContext(assembly), ...L3.segments.map((s) => s.text), ...L5.segments.map((s) => renderUserText(s.text))];
  const images = assembly.envelope.images ?? [];
  return { role: 'user', content: parts.join(SEP), ...(images.length > 0 ? { images } : {}) };
}

/**
 * What the provider has not seen: the stateless messages after the cursor, with this turn's user
 * message (the last one) rebuilt for resume. Earlier unseen turns keep their rendering: each carries
 * the library items that entered in it, so items added since the cursor travel with them.
 */
export function messagesAfterCursor(assembly: TurnAssembly, cursor: number): ChatMessage[] {
  const unseen = assembly.messages.slice(cursor + 1, -1);
  return mergeConsecutiveUsers([...unseen, deltaUserMessage(assembly)]);
}

/** Providers want user/assistant alternation: consecutive user contents become one user message (images kept, in order). */
export function mergeConsecutiveUsers(messages: readonly ChatMessage[]): ChatMessage[] {
  const out: ChatMessage[] = [];
  for (const m of messages) {
    const last = out[out.length - 1];
    if (last && last.role === 'user' && m.role === 'user') {
      const images = [...(last.images ?? []), ...(m.images ?? [])];
      out[out.length - 1] = { role: 'user', content: last.content + SEP + m.content, ...(images.length > 0 ? { images } : {}) };
    } else out.push(m);
  }
  return out;
}

import { sha256Hex } from '../../core/hash';
import type { ToolCall } from '../../core/conversation/records/agent';

/**
 * Gemini's function calls carry no id, and LangChain gives each a random one. Calls are saved with
 * the chat and sent again (to another provider, after a switch), so they get ids derived from what
 * they are instead: the call's name and arguments, and its place in the reply.
 */
export function deterministicCallIds(calls: readonly ToolCall[]): ToolCall[] {
  return calls.map((call, i) => ({ ...call, id: `call_${sha256Hex(`${call.name}\u0000${JSON.stringify(call.args)}`).slice(0, 16)}_${i + 1}` }));
}

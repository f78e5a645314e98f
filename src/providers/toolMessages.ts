import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import type { ToolSpec } from '../core/agent/types';
import type { AgentStep, ToolCall } from '../core/conversation/records/agent';

/** The OpenAI function-tool shape: what bindTools takes for every provider (ChatAnthropic converts it). */
export interface FunctionTool {
  readonly type: 'function';
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Record<string, unknown> };
}

export function functionTools(tools: readonly ToolSpec[]): FunctionTool[] {
  return tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: { ...t.parameters } } }));
}

/** The model's side of a step: its text (possibly empty) and its calls, as LangChain's AIMessage carries them. */
function callMessage(step: AgentStep): AIMessage {
  return new AIMessage({
    content: step.text,
    tool_calls: step.calls.map((c) => ({ id: c.id, name: c.name, args: { ...c.args }, type: 'tool_call' as const })),
  });
}

/**
 * OpenAI Chat Completions and Responses: per step, the assistant's calls, then one tool message per
 * result (LangChain writes them as `tool` messages, or `function_call` / `function_call_output`
 * items for Responses). `callsSeen`: the session already holds the calls; only results are sent.
 */
export function openAiStepMessages(steps: readonly AgentStep[], callsSeen = false): BaseMessage[] {
  const out: BaseMessage[] = [];
  for (const step of steps) {
    if (!callsSeen) out.push(callMessage(step));
    for (const r of step.results) out.push(new ToolMessage({ content: r.content, tool_call_id: r.callId, name: r.name, status: r.isError ? 'error' : 'success' }));
  }
  return out;
}

const EPHEMERAL = { type: 'ephemeral' } as const;

/**
 * Anthropic: per step, the assistant's tool_use blocks, then one user message of tool_result blocks
 * (an error flagged `is_error`). The last result block of the last step carries a cache breakpoint
 * when `markLast`, so the next step reads everything up to it from the cache.
 */
export function anthropicStepMessages(steps: readonly AgentStep[], markLast: boolean): BaseMessage[] {
  const out: BaseMessage[] = [];
  steps.forEach((step, s) => {
    out.push(callMessage(step));
    const lastStep = s === steps.length - 1;
    const blocks = step.results.map((r, i) => ({
      type: 'tool_result' as const,
      tool_use_id: r.callId,
      // Anthropic rejects an empty tool_result text block; an empty output still says so.
      content: r.content.trim() === '' ? '(no output)' : r.content,
      ...(r.isError ? { is_error: true } : {}),
      ...(markLast && lastStep && i === step.results.length - 1 ? { cache_control: EPHEMERAL } : {}),
    }));
    if (blocks.length > 0) out.push(new HumanMessage({ content: blocks }));
  });
  return out;
}

/** Tool calls of a LangChain reply, with an id for each (some OpenAI-compatible servers send none). */
export function toolCallsOf(message: unknown, fallbackPrefix: string): ToolCall[] {
  const raw = (message as { tool_calls?: unknown }).tool_calls;
  if (!Array.isArray(raw)) return [];
  return raw.flatMap((c: unknown, i) => {
    const call = c as { id?: unknown; name?: unknown; args?: unknown };
    if (typeof call.name !== 'string' || call.name === '') return [];
    const args = call.args && typeof call.args === 'object' && !Array.isArray(call.args) ? (call.args as Record<string, unknown>) : {};
    const id = typeof call.id === 'string' && call.id !== '' ? call.id : `${fallbackPrefix}_${i + 1}`;
    return [{ id, name: call.name, args }];
  });
}

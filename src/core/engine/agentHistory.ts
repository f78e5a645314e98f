import { renderTool } from './render';
import type { ChatMessage, ToolStep } from './messages';
import type { AgentHistory, ToolOutput } from './types';

/*
 * Agent turns in history as the provider's own tool messages (issue 27). The loop sends each step as
 * the assistant's tool calls and the tool results; the request after the turn used to move those
 * results into the turn's user message as blocks, which broke the provider's cache right after the
 * turn's first request. Here the turn keeps its steps (calls without results) and its tool outputs (the
 * results, in call order, saved in the chat note like any tool output); history builds the steps
 * again from both, byte for byte what the loop sent, and masked with the tool outputs at a compaction.
 */

/** The plain record of what the loop did, in the shape the chat keeps (records/agent.ts AgentTurn). */
export interface AgentRecordLike {
  readonly stop: string;
  readonly steps: readonly {
    readonly text: string;
    readonly calls: readonly { readonly id: string; readonly name: string; readonly args: Readonly<Record<string, unknown>>; readonly isError: boolean }[];
  }[];
}

/**
 * What history replays natively of an agent turn: its steps with calls, when the loop answered (a
 * turn stopped at the step limit got a final note after its steps, and goes as blocks, as before).
 */
export function agentHistoryOf(agent: AgentRecordLike | undefined): AgentHistory | undefined {
  if (!agent || agent.stop !== 'answered') return undefined;
  const steps = agent.steps.filter((s) => s.calls.length > 0).map((s) => ({ text: s.text, calls: s.calls.map(({ id, name, args, isError }) => ({ id, name, args, isError })) }));
  return steps.length > 0 ? { steps } : undefined;
}

/** Calls across the steps: the number of the turn's last tool outputs that are their results. */
export function agentCallCount(agent: AgentHistory): number {
  let n = 0;
  for (const s of agent.steps) n += s.calls.length;
  return n;
}

/**
 * The steps with their results, from the turn's tools (the last ones, one per call). Null when the
 * tools do not hold a result for every call (then the turn goes as blocks).
 */
export function toolStepsOf(agent: AgentHistory, tools: readonly ToolOutput[]): ToolStep[] | null {
  const count = agentCallCount(agent);
  if (count === 0 || tools.length < count) return null;
  let at = tools.length - count;
  const steps: ToolStep[] = [];
  for (const step of agent.steps) {
    const results: ToolStep['results'][number][] = [];
    for (const call of step.calls) {
      const tool = tools[at++];
      // The outputs are the calls' own, in order: anything else (a hand-edited note) goes as blocks.
      if (tool.name !== call.name) return null;
      results.push({ callId: call.id, name: call.name, content: tool.output, isError: call.isError });
    }
    steps.push({ text: step.text, calls: step.calls.map(({ id, name, args }) => ({ id, name, args })), results });
  }
  return steps;
}

/** A step's tokens as the agent loop counts them: each result and its arguments, and a fixed framing per call. */
export function stepTokens(steps: readonly ToolStep[], count: (text: string) => number): number {
  let tokens = 0;
  for (const step of steps) {
    tokens += step.text === '' ? 0 : count(step.text);
    step.calls.forEach((call, i) => {
      tokens += count(step.results[i]?.content ?? '') + count(JSON.stringify(call.args)) + 16;
    });
  }
  return tokens;
}

/**
 * The messages with every agent turn's steps folded back into text: its tool outputs appended to the
 * user message before it, as blocks. For a request that binds no tools (a provider refuses tool
 * messages without tool definitions) and for providers that take text only (Claude Code).
 */
export function foldSteps(messages: readonly ChatMessage[]): ChatMessage[] {
  if (!messages.some((m) => m.steps && m.steps.length > 0)) return [...messages];
  const out: ChatMessage[] = [];
  for (const m of messages) {
    if (!m.steps || m.steps.length === 0) {
      out.push(m);
      continue;
    }
    const { steps, ...plain } = m;
    const blocks = steps.flatMap((s) => s.calls.map((call, i) => renderTool({ name: call.name, input: stableArgs(call.args), output: s.results[i]?.content ?? '' })));
    const before = out[out.length - 1];
    if (before && before.role === 'user') out[out.length - 1] = { ...before, content: [before.content, ...blocks].join('\n\n') };
    else out.push({ role: 'user', content: blocks.join('\n\n') });
    out.push(plain);
  }
  return out;
}

function stableArgs(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]));
  }
  return value;
}

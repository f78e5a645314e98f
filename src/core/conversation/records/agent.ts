import type { ToolOutput } from '../../engine/types';
import type { Usage } from '../../usage';

/*
 * The agent's turn as the chat keeps it (issue 14): the calls the model made, the results Strata gave
 * back, each step measured, and how the loop ended. Plain data beside the chat model, which holds it;
 * the agent (src/core/agent) produces it and re-exports these names.
 */

/** One call the model asked for. `id` is the provider's own (call_…, toolu_…): results must quote it. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/** What Strata answered to one call: the tool's text, or a clear error text (never an exception). */
export interface ToolResult {
  readonly callId: string;
  readonly name: string;
  readonly content: string;
  readonly isError: boolean;
}

/**
 * One step of the loop: the model's message (any text it wrote before calling, and its calls) and
 * the results of those calls, in call order. Sent back in the provider's tool format, in order, so
 * each step's request starts with the previous step's request byte for byte.
 */
export interface AgentStep {
  readonly text: string;
  readonly calls: readonly ToolCall[];
  readonly results: readonly ToolResult[];
}

/** One tool call as the view and the chat note show it: what was asked, how big the answer was, how long it took. */
export interface CallRecord {
  readonly id: string;
  readonly name: string;
  readonly args: Readonly<Record<string, unknown>>;
  /** Characters of the result. */
  readonly chars: number;
  readonly ms: number;
  readonly isError: boolean;
}

/** One model call of the loop, measured: the cached share per step is the point of the byte-for-byte extension. */
export interface StepRecord {
  /** The model's text before its calls (empty for most). */
  readonly text: string;
  readonly calls: readonly CallRecord[];
  readonly usage: Usage;
  readonly usageReported: boolean;
  /** Tokens of the request as Strata counted it (what the budget checked). */
  readonly promptTokens: number;
}

export type LoopStop = 'answered' | 'step-limit';
/** How a saved agent turn's loop ended: 'interrupted' when it failed or was stopped mid-loop. */
export type AgentStop = LoopStop | 'interrupted';


/**
 * An agent turn as the chat keeps it (frontmatter): how the loop ended and each model call with its
 * tool calls (name, arguments, result size, time) and usage. The tool outputs themselves are the
 * turn's `tools` (context blocks of the turn, saved in the note body like any tool output).
 */
export interface AgentTurn {
  readonly stop: AgentStop;
  readonly steps: readonly StepRecord[];
}

/** The loop's tool results as the turn's context blocks: name, arguments (JSON), output; in call order. */
export function toolOutputsOf(steps: readonly AgentStep[]): ToolOutput[] {
  return steps.flatMap((step) =>
    step.calls.map((call) => {
      const result = step.results.find((r) => r.callId === call.id);
      return { name: call.name, input: stableJson(call.args), output: result?.content ?? '' };
    }),
  );
}

/** JSON with object keys sorted: the same arguments always render the same bytes. */
export function stableJson(value: unknown): string {
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

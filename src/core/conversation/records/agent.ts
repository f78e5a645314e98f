import type { ToolOutput } from '../../engine/types';
import type { AgentStop, StepRecord } from '../../agent/loop';
import type { AgentStep } from '../../agent/types';

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

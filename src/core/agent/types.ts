/**
 * The agent's vocabulary (issue 14): tool calls the model makes, the results Strata gives back, and
 * the steps of a loop. Plain data, so a chat note can save them and every provider can convert them
 * into its own tool message format.
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

/** A tool as a provider is told about it: name, description, JSON Schema of its arguments. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

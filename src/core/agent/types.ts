/**
 * The agent's vocabulary (issue 14): tool calls the model makes, the results Strata gives back, and
 * the steps of a loop. Plain data, so a chat note can save them and every provider can convert them
 * into its own tool message format.
 */

/** A tool as a provider is told about it: name, description, JSON Schema of its arguments. */
export interface ToolSpec {
  readonly name: string;
  readonly description: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

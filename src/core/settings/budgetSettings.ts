/* The budget's settings, beside the other settings; src/core/budget reads them and re-exports these names. */

/** The budget settings (seed 001's context settings), as the settings store them. */
export interface BudgetSettings {
  /** Most tokens one request may carry, whatever the model's window. */
  readonly maxContextTokens: number;
  /** Tokens kept free for the reply. */
  readonly reservedOutputTokens: number;
  /** Condense by itself when a request would pass the threshold. */
  readonly autoCondense: boolean;
  /** Share of the budget (0.5–0.95) at which a chat condenses. */
  readonly condenseThreshold: number;
  /** Newest messages kept verbatim by a compaction when they fit under the threshold. */
  readonly keepMessages: number;
  /** Tool outputs in condensed history longer than this are masked (head and tail). */
  readonly maxOutputLines: number;
  /** Code blocks in condensed history longer than this are masked (head and tail). */
  readonly maxCodeLines: number;
  /** Summarize dropped turns with a model (otherwise they are omitted with a marker). */
  readonly summarize: boolean;
  /** `provider-id/model` for summaries; empty: the chat's own model. */
  readonly summaryModel: string;
  /**
   * The max output tokens set for this provider/model: when set, it is the reserve (the input
   * budget is the window less it), so no request asks for more than the window.
   */
  readonly maxOutputTokens?: number;
}

export const DEFAULT_BUDGET_SETTINGS: BudgetSettings = {
  maxContextTokens: 100_000,
  reservedOutputTokens: 4_096,
  autoCondense: true,
  condenseThreshold: 0.8,
  keepMessages: 4,
  maxOutputLines: 200,
  maxCodeLines: 500,
  summarize: true,
  summaryModel: '',
};

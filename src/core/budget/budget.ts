import { encodingForModel } from '../tokens/encodings';
import { modelWindow } from '../tokens/modelWindows';
import type { BudgetSettings } from '../settings/budgetSettings';

/** Share of the budget a compaction aims for, so many turns append before the next one. */
export const COMPACTION_TARGET = 0.5;

/** Token counts for models without a bundled tokenizer are estimates: this share of the budget is kept as margin. */
export const ESTIMATE_MARGIN = 0.15;

/** The input budget of one request, and where it comes from. */
export interface InputBudget {
  readonly model: string;
  readonly window: number;
  /** Tokens kept for the reply (the setting, at most half the window; or the model's max output, when set). */
  readonly reserve: number;
  readonly maxContextTokens: number;
  /** Tokens a request may carry: min(max context tokens, window − reserve), less the margin for estimated counts. */
  readonly tokens: number;
  /** Over this many tokens, the chat condenses (when auto-condense is on). */
  readonly threshold: number;
  /** What a compaction aims for. */
  readonly target: number;
  /** The counts are estimates (no bundled tokenizer for this model): the budget keeps a margin. */
  readonly estimated: boolean;
  readonly autoCondense: boolean;
}

export function inputBudget(model: string, settings: BudgetSettings, windows: Readonly<Record<string, number>> = {}): InputBudget {
  const overrides: Record<string, { contextWindow: number }> = {};
  for (const [name, contextWindow] of Object.entries(windows)) overrides[name] = { contextWindow };
  const window = modelWindow(model, overrides).contextWindow;
  // A max output set for the model is kept free whole (at most the window less one token of input).
  const reserve =
    settings.maxOutputTokens !== undefined
      ? Math.min(Math.max(1, settings.maxOutputTokens), window - 1)
      : Math.min(Math.max(0, settings.reservedOutputTokens), Math.floor(window / 2));
  const estimated = encodingForModel(model) === 'estimate';
  const raw = Math.min(Math.max(1, settings.maxContextTokens), window - reserve);
  const tokens = estimated ? Math.floor(raw * (1 - ESTIMATE_MARGIN)) : raw;
  const threshold = Math.floor(tokens * Math.min(0.95, Math.max(0.5, settings.condenseThreshold)));
  return {
    model,
    window,
    reserve,
    maxContextTokens: settings.maxContextTokens,
    tokens,
    threshold,
    target: Math.floor(tokens * COMPACTION_TARGET),
    estimated,
    autoCondense: settings.autoCondense,
  };
}

/** Where a request stands against its budget. */
export type BudgetStatus = 'fits' | 'over-threshold' | 'over-budget';

export function budgetStatus(promptTokens: number, budget: InputBudget): BudgetStatus {
  if (promptTokens > budget.tokens) return 'over-budget';
  if (promptTokens > budget.threshold) return 'over-threshold';
  return 'fits';
}

export function formatTokens(n: number): string {
  return n.toLocaleString('en-US');
}

import { budgetStatus, type BudgetStatus, type InputBudget } from '../budget/budget';
import type { TurnAssembly } from '../engine/engine';

export type UsageLayer = 'system' | 'library' | 'turn' | 'history' | 'message';

export const USAGE_LAYERS: readonly { id: UsageLayer; label: string; layer: 'L1' | 'L2' | 'L3' | 'L4' | 'L5' }[] = [
  { id: 'system', label: 'System', layer: 'L1' },
  { id: 'library', label: 'Library', layer: 'L2' },
  { id: 'turn', label: 'This turn', layer: 'L3' },
  { id: 'history', label: 'History', layer: 'L4' },
  { id: 'message', label: 'Message', layer: 'L5' },
];

/** Tokens of one request (sent, or the next one as it would go now) by layer, against the input budget. */
export interface ContextUsage {
  readonly model: string;
  /** The model's whole window (input and output). */
  readonly window: number;
  readonly budget: InputBudget;
  /** The request as the provider receives it (all messages plus per-message overhead). */
  readonly promptTokens: number;
  readonly layers: Readonly<Record<UsageLayer, number>>;
  /** promptTokens / budget, 0..1 (above 1: over the budget; never sent). */
  readonly fraction: number;
  readonly status: BudgetStatus;
  /** Tokens until the chat condenses (0 when past the threshold). */
  readonly untilCondense: number;
}

export function contextUsageOf(assembly: TurnAssembly, budget: InputBudget): ContextUsage {
  const { envelope } = assembly;
  const layers = {} as Record<UsageLayer, number>;
  for (const { id, layer } of USAGE_LAYERS) layers[id] = envelope.layers[layer].tokens;
  return {
    model: envelope.model,
    window: budget.window,
    budget,
    promptTokens: assembly.promptTokens,
    layers,
    fraction: budget.tokens > 0 ? assembly.promptTokens / budget.tokens : 0,
    status: budgetStatus(assembly.promptTokens, budget),
    untilCondense: Math.max(0, budget.threshold - assembly.promptTokens),
  };
}

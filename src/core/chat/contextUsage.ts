import { budgetStatus, type BudgetStatus, type InputBudget } from '../budget/budget';
import type { TurnAssembly } from '../engine/turnAssembly';
import { condensedBlockParts } from '../engine/condensedLibrary';
import { tokenCounterFor } from '../tokens/tokenCounter';

export type UsageLayer = 'system' | 'library' | 'turn' | 'history' | 'message';

/** The layers in the user's words (the usage panel's legend); `hint` says what each holds. */
export const USAGE_LAYERS: readonly { id: UsageLayer; label: string; hint: string; layer: 'L1' | 'L2' | 'L3' | 'L4' | 'L5' }[] = [
  { id: 'system', label: 'Instructions', hint: 'System prompt, memory and mode', layer: 'L1' },
  { id: 'library', label: 'Notes in this chat', hint: 'Every note attached so far (the Context Library), each sent once', layer: 'L2' },
  { id: 'turn', label: 'New this turn', hint: 'Notes attached now that the chat has not seen yet', layer: 'L3' },
  { id: 'history', label: 'Conversation', hint: 'Earlier messages and replies (after condensing: the summary and the newest messages)', layer: 'L4' },
  { id: 'message', label: 'Your message', hint: 'The message being sent', layer: 'L5' },
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
  if (envelope.condensedLibrary) layers.library = libraryTokens(assembly);
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

/** The library's share with condensed items counted as sent: their compact block, not their whole text. */
function libraryTokens({ envelope }: TurnAssembly): number {
  const condensed = new Set((envelope.condensedLibrary?.entries ?? []).map((e) => `${e.id}@${e.version}`));
  const counter = tokenCounterFor(envelope.model);
  let tokens = 0;
  for (const s of envelope.layers.L2.segments) if (!condensed.has(`${s.item.id}@${s.item.version}`)) tokens += s.tokens;
  for (const part of condensedBlockParts(envelope.condensedLibrary ?? null)) tokens += counter.count(part);
  return tokens;
}

import type { Usage } from '../core/usage';
import { longestSubstringMatch as longestMatch, lowerKeys } from '../core/nameMatch';

/** Prices in USD per million tokens. */
export interface ModelPrice {
  readonly input: number;
  /** Prompt tokens served from the provider's cache. */
  readonly cachedInput: number;
  /** Prompt tokens written to the cache (Anthropic: 1.25 × input for the 5-minute lifetime). Defaults to input. */
  readonly cacheWrite?: number;
  readonly output: number;
  /** Explicit cache storage (Gemini cachedContents), per million tokens per hour. */
  readonly cacheStoragePerHour?: number;
}

/** Gemini family price: implicit and explicit cache reads at 0.1 × input, storage per million tokens per hour. */
function gemini(input: number, output: number, storagePerHour: number): ModelPrice {
  return { input, cachedInput: round(input * 0.1), output, cacheStoragePerHour: storagePerHour };
}

/** Anthropic family price: cache reads at 0.1 × input, 5-minute cache writes at 1.25 × input. */
function anthropic(input: number, output: number): ModelPrice {
  return { input, cachedInput: round(input * 0.1), cacheWrite: round(input * 1.25), output };
}

function round(value: number): number {
  return Math.round(value * 1e6) / 1e6;
}

/**
 * List prices (standard tier) as published by OpenAI and Anthropic. Matched by substring of the
 * model name, longest pattern first, like modelWindow(), so dated snapshots
 * ("claude-sonnet-4-20250514", "gpt-4o-2024-08-06") find their family. Prices change: users can
 * override any entry in settings.
 */
const TABLE: Readonly<Record<string, ModelPrice>> = {
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  // gpt-3.5-turbo-0125; no prompt caching discount on this family.
  'gpt-3.5-turbo': { input: 0.5, cachedInput: 0.5, output: 1.5 },
  o1: { input: 15, cachedInput: 7.5, output: 60 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  // Codex CLI's small model (gpt-5-codex is priced as gpt-5, which the longest match gives it).
  'codex-mini': { input: 1.5, cachedInput: 0.375, output: 6 },
  'claude-opus-4': anthropic(15, 75),
  'claude-opus-4-5': anthropic(5, 25),
  'claude-3-opus': anthropic(15, 75),
  sonnet: anthropic(3, 15),
  'claude-haiku-4-5': anthropic(1, 5),
  'claude-3-5-haiku': anthropic(0.8, 4),
  'claude-3-haiku': anthropic(0.25, 1.25),
  // Google AI Studio list prices, prompts up to 200k tokens (Pro doubles above); thinking is billed as output.
  'gemini-3-pro': gemini(2, 12, 4.5),
  'gemini-3-flash': gemini(0.5, 3, 1),
  'gemini-2.5-pro': gemini(1.25, 10, 4.5),
  'gemini-2.5-flash': gemini(0.3, 2.5, 1),
  'gemini-2.5-flash-lite': gemini(0.1, 0.4, 1),
  'gemini-2.0-flash': { input: 0.1, cachedInput: 0.025, output: 0.4, cacheStoragePerHour: 1 },
};

export type PriceOverrides = Readonly<Record<string, ModelPrice>>;

/** Price of a model: a user override (exact name, then substring), then the table; null when unknown. */
export function priceOf(model: string, overrides: PriceOverrides = {}): ModelPrice | null {
  const exact = overrides[model];
  if (exact) return exact;
  const name = model.toLowerCase();
  return longestMatch(name, lowerKeys(overrides)) ?? longestMatch(name, TABLE) ?? null;
}

/** What one call cost, split by the way each token was billed. */
export interface Cost {
  readonly usd: number;
  readonly inputUsd: number;
  readonly cachedReadUsd: number;
  readonly cacheWriteUsd: number;
  readonly outputUsd: number;
  /** Explicit cache storage (Gemini), present only when the call started some. */
  readonly cacheStorageUsd?: number;
}

/**
 * Cost of one call, or null when the model's price is unknown. Prompt tokens are billed in three
 * parts: cached reads at the cached price, cache writes at the write price, the rest at the input
 * price (Usage.inputTokens includes both cached parts).
 */
export function costOf(model: string, usage: Usage, overrides: PriceOverrides = {}): Cost | null {
  const price = priceOf(model, overrides);
  if (!price) return null;
  const uncached = Math.max(0, usage.inputTokens - usage.cachedReadTokens - usage.cacheWriteTokens);
  const inputUsd = (uncached * price.input) / 1e6;
  const cachedReadUsd = (usage.cachedReadTokens * price.cachedInput) / 1e6;
  const cacheWriteUsd = (usage.cacheWriteTokens * (price.cacheWrite ?? price.input)) / 1e6;
  const outputUsd = (usage.outputTokens * price.output) / 1e6;
  const storageUsd = ((usage.cacheStorageTokenHours ?? 0) * (price.cacheStoragePerHour ?? 0)) / 1e6;
  const storage = storageUsd > 0 ? { cacheStorageUsd: storageUsd } : {};
  return { usd: inputUsd + cachedReadUsd + cacheWriteUsd + outputUsd + storageUsd, inputUsd, cachedReadUsd, cacheWriteUsd, outputUsd, ...storage };
}

/** Total over many calls (a chat, or a turn with planner calls). Unknown prices are counted, not guessed. */
export interface CostTotal {
  readonly usd: number;
  readonly calls: number;
  /** Calls whose model price is unknown: their cost is not in `usd`. */
  readonly unknownCalls: number;
}

export function sumCosts(costs: readonly (Cost | null)[]): CostTotal {
  let usd = 0;
  let unknownCalls = 0;
  for (const cost of costs) {
    if (cost) usd += cost.usd;
    else unknownCalls++;
  }
  return { usd, calls: costs.length, unknownCalls };
}

/** "$0.0123", "unknown price", or "$0.0123 + unknown price for 1 call". */
export function formatCost(cost: Cost | CostTotal | null): string {
  if (!cost) return 'unknown price';
  const usd = formatUsd(cost.usd);
  if ('unknownCalls' in cost && cost.unknownCalls > 0) {
    if (cost.unknownCalls === cost.calls) return 'unknown price';
    return `${usd} + unknown price for ${cost.unknownCalls} call${cost.unknownCalls === 1 ? '' : 's'}`;
  }
  return usd;
}

function formatUsd(usd: number): string {
  if (usd === 0) return '$0';
  if (usd < 0.0001) return '<$0.0001';
  return `$${usd < 1 ? usd.toFixed(4) : usd.toFixed(2)}`;
}

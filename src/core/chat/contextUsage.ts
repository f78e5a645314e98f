import type { TurnAssembly } from '../engine/engine';
import { modelWindow } from '../tokens/modelWindows';

export type UsageLayer = 'system' | 'library' | 'turn' | 'history' | 'message';

export const USAGE_LAYERS: readonly { id: UsageLayer; label: string; layer: 'L1' | 'L2' | 'L3' | 'L4' | 'L5' }[] = [
  { id: 'system', label: 'System', layer: 'L1' },
  { id: 'library', label: 'Library', layer: 'L2' },
  { id: 'turn', label: 'This turn', layer: 'L3' },
  { id: 'history', label: 'History', layer: 'L4' },
  { id: 'message', label: 'Message', layer: 'L5' },
];

/** Tokens of one request by layer against the model's window. */
export interface ContextUsage {
  readonly model: string;
  readonly window: number;
  readonly maxOutput: number;
  /** The request as the provider receives it (all messages plus per-message overhead). */
  readonly promptTokens: number;
  readonly layers: Readonly<Record<UsageLayer, number>>;
  /** promptTokens / window, 0..1 (may exceed 1: the request would not fit). */
  readonly fraction: number;
}

export function contextUsageOf(assembly: TurnAssembly, overrides: Readonly<Record<string, number>> = {}): ContextUsage {
  const { envelope } = assembly;
  const windowOverrides: Record<string, { contextWindow: number }> = {};
  for (const [model, contextWindow] of Object.entries(overrides)) windowOverrides[model] = { contextWindow };
  const window = modelWindow(envelope.model, windowOverrides);
  const layers = {} as Record<UsageLayer, number>;
  for (const { id, layer } of USAGE_LAYERS) layers[id] = envelope.layers[layer].tokens;
  return {
    model: envelope.model,
    window: window.contextWindow,
    maxOutput: window.maxOutput,
    promptTokens: assembly.promptTokens,
    layers,
    fraction: window.contextWindow > 0 ? assembly.promptTokens / window.contextWindow : 0,
  };
}

/** Room kept for the reply when checking that a request fits: the model's max output, at most 8k and a quarter of the window. */
export const REPLY_RESERVE_CAP = 8_192;

/**
 * Null when the request fits the model's window with room for a reply; otherwise a message that
 * says by how much and what to do. Checked before sending: an over-long request is never sent
 * (the provider would reject it, or worse, cut it silently), and the user's message is kept.
 */
export function windowOverflow(usage: ContextUsage): string | null {
  const reserve = Math.min(usage.maxOutput, REPLY_RESERVE_CAP, Math.floor(usage.window / 4));
  const limit = usage.window - reserve;
  if (usage.promptTokens <= limit) return null;
  const fmt = (n: number) => n.toLocaleString('en-US');
  return (
    `This request is ${fmt(usage.promptTokens)} tokens; ${usage.model} takes ${fmt(usage.window)}, ` +
    `of which ${fmt(reserve)} are kept for the reply. Remove large items from the Context Library, ` +
    `attach less, switch to a model with a larger window, or start a new chat. Your message is kept.`
  );
}

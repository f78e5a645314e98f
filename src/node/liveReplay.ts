import { advance, compile, type CompiledRequest } from '../core/compiler/messageCompiler';
import type { ProviderSession } from '../core/compiler/session';
import type { EngineOptions } from '../core/engine/engine';
import { replayScenario, type ReplayedTurn, type ReplayOptions } from '../core/scenario/replay';
import type { Scenario } from '../core/scenario/scenario';
import type { VaultReader } from '../core/ports/vault';
import type { Usage } from '../core/usage';
import { costOf, type Cost } from '../providers/pricing';
import type { ChatProvider, ChatResult } from '../core/ports/chatModel';

export interface LiveReplayed extends ReplayedTurn {
  readonly compiled: CompiledRequest;
  readonly usage: Usage;
  readonly usageReported: boolean;
  readonly cost: Cost | null;
}

/**
 * Replay a scenario against a real provider: the engine assembles, the compiler compiles for the
 * provider, the provider answers, and the turn is committed with the provider's reply (the
 * scenario's replies are not used). The session cursor advances only after a complete response.
 */
export async function liveReplay(
  scenario: Scenario,
  vault: VaultReader,
  provider: ChatProvider,
  options: EngineOptions & Pick<ReplayOptions, 'budget' | 'planning'> & { cacheKey?: string; onToken?: (turn: number, delta: string) => void } = {},
): Promise<LiveReplayed[]> {
  const target = { id: provider.config.id, model: provider.config.model, ...(provider.config.cwd ? { cwd: provider.config.cwd } : {}) };
  let session: ProviderSession | null = null;
  const calls = new Map<number, { compiled: CompiledRequest; result: ChatResult }>();
  const turns = await replayScenario(scenario, vault, {
    ...options,
    model: provider.config.model,
    respond: async (assembly, turn) => {
      const compiled = compile({ assembly, capabilities: provider.capabilities, target, session });
      const result = await provider.send({
        messages: compiled.messages,
        breakpoints: compiled.breakpoints,
        ...(options.cacheKey ? { cacheKey: options.cacheKey } : {}),
        ...(compiled.sessionId ? { sessionId: compiled.sessionId } : {}),
        ...(options.onToken ? { onToken: (delta: string) => options.onToken?.(turn, delta) } : {}),
      });
      session = advance(compiled, assembly, result);
      calls.set(turn, { compiled, result });
      return result.text;
    },
  });
  return turns.map((t) => {
    const { compiled, result } = calls.get(t.turn) as { compiled: CompiledRequest; result: ChatResult };
    return {
      ...t,
      compiled,
      usage: result.usage,
      usageReported: result.usageReported !== false,
      cost: costOf(result.model ?? provider.config.model, result.usage),
    };
  });
}

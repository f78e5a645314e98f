import { advance, compile, type CompiledRequest } from '../core/compiler/messageCompiler';
import type { ProviderSession } from '../core/compiler/session';
import { ChipResolver } from '../core/context/resolver';
import { PromptContextEngine, type EngineOptions } from '../core/engine/engine';
import { promptFragments } from '../core/prompts';
import { currentLibraryNotes, type ReplayedTurn } from '../core/scenario/replay';
import { OverlayVault } from '../core/scenario/overlayVault';
import type { Scenario } from '../core/scenario/scenario';
import type { VaultReader } from '../core/context/vaultReader';
import type { Usage } from '../core/usage';
import { costOf, type Cost } from '../providers/pricing';
import type { ChatProvider } from '../providers/types';

export interface LiveTurn extends ReplayedTurn {
  readonly compiled: CompiledRequest;
  readonly usage: Usage;
  readonly usageReported: boolean;
  readonly cost: Cost | null;
}

/**
 * Replay a scenario against a real provider: the engine assembles, the compiler compiles for the
 * provider, the provider answers, and the turn is committed with the provider's reply. The
 * scenario's replies are not used.
 */
export async function liveReplay(
  scenario: Scenario,
  vault: VaultReader,
  provider: ChatProvider,
  options: EngineOptions & { cacheKey?: string; onToken?: (turn: number, delta: string) => void } = {},
): Promise<LiveTurn[]> {
  const overlay = new OverlayVault(vault);
  const resolver = new ChipResolver(overlay);
  const engine = new PromptContextEngine(options);
  const fragments = promptFragments();
  const target = { id: provider.config.id, model: provider.config.model, ...(provider.config.cwd ? { cwd: provider.config.cwd } : {}) };
  let session: ProviderSession | null = null;
  const out: LiveTurn[] = [];
  for (const [index, step] of scenario.turns.entries()) {
    const turn = index + 1;
    await overlay.apply(step.edits);
    for (const id of step.remove) engine.removeFromLibrary(id);
    const { items, problems } = await resolver.resolve(step.context);
    const current = await currentLibraryNotes(engine, resolver, items);
    const assembly = engine.assemble({ userText: step.user, items, problems, tools: step.tools, fragments, model: provider.config.model, current });
    const compiled = compile({ assembly, capabilities: provider.capabilities, target, session });
    const result = await provider.send({
      messages: compiled.messages,
      breakpoints: compiled.breakpoints,
      ...(options.cacheKey ? { cacheKey: options.cacheKey } : {}),
      ...(compiled.sessionId ? { sessionId: compiled.sessionId } : {}),
      ...(options.onToken ? { onToken: (delta: string) => options.onToken?.(turn, delta) } : {}),
    });
    engine.commit(assembly, result.text);
    session = advance(compiled, assembly, result);
    out.push({
      turn,
      assembly,
      reply: result.text,
      compiled,
      usage: result.usage,
      usageReported: result.usageReported !== false,
      cost: costOf(result.model ?? provider.config.model, result.usage),
    });
  }
  return out;
}

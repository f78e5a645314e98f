import type { ContextChip } from '../context/items';
import { reReadLibraryNotes } from '../context/libraryNotes';
import type { ChipResolver } from '../context/resolver';
import { compile, type CompiledRequest } from '../compiler/messageCompiler';
import type { ProviderSession } from '../compiler/session';
import type { PromptContextEngine, TurnAssembly } from '../engine/engine';
import { promptFragments } from '../prompts';
import { findProvider, type ChatMode, type ProviderSettings, type StrataSettings } from '../settings';
import type { ChatProvider, ChatResult } from '../ports/chatModel';
import { contextUsageOf, windowOverflow } from './contextUsage';
import { modeFragments } from './modes';

/** Builds the provider for a configured endpoint and model. May throw (no API key, unknown kind): the turn fails with that message. */
export type ProviderFactory = (provider: ProviderSettings, model: string) => ChatProvider;

export interface TurnRequest {
  readonly chatId: string;
  readonly providerId: string;
  readonly model: string;
  readonly mode: ChatMode;
  readonly userText: string;
  readonly chips: readonly ContextChip[];
  readonly session: ProviderSession | null;
}

export interface TurnPipelineDeps {
  readonly resolver: ChipResolver;
  readonly providers: ProviderFactory;
  readonly settings: StrataSettings;
  readonly signal: AbortSignal;
  /** The request is assembled (before the window check): the view shows its size. */
  readonly onAssembled?: (assembly: TurnAssembly) => void;
  readonly onToken?: (delta: string) => void;
}

/** A request that went out and came back complete: what the controller commits. */
export interface SentRequest {
  readonly assembly: TurnAssembly;
  readonly compiled: CompiledRequest;
  readonly result: ChatResult;
}

/**
 * One turn, in order: resolve the chips → re-read the library's notes (freshness) → assemble L1–L5 →
 * check the window → compile for the provider (full or delta) → send, streaming. Changes nothing:
 * the engine is only read (assemble is pure), so a failure or a stop leaves the chat as it was. Throws
 * on any failure; the caller keeps the user's message.
 */
export async function runTurnPipeline(request: TurnRequest, engine: PromptContextEngine, deps: TurnPipelineDeps): Promise<SentRequest> {
  const { settings } = deps;
  const providerSettings = findProvider(settings, request.providerId);
  if (!providerSettings) throw new Error(`No provider "${request.providerId}" is configured: pick a model in the chat header or add the provider in settings.`);
  const provider = deps.providers(providerSettings, request.model);
  const { items, problems } = await deps.resolver.resolve(request.chips);
  const current = await reReadLibraryNotes(deps.resolver, engine.libraryNotes(), items);
  const fragments = [...promptFragments({ systemPrompt: settings.systemPrompt, memory: settings.memory }), ...modeFragments(request.mode)];
  const assembly = engine.assemble({ userText: request.userText, items, problems, fragments, model: request.model, current });
  deps.onAssembled?.(assembly);
  const overflow = windowOverflow(contextUsageOf(assembly, settings.contextWindows));
  if (overflow) throw new Error(overflow);
  const compiled = compile({ assembly, capabilities: provider.capabilities, target: provider.config, session: request.session });
  const result = await provider.send({
    messages: compiled.messages,
    breakpoints: compiled.breakpoints,
    cacheKey: `strata-${request.chatId}`,
    ...(compiled.sessionId ? { sessionId: compiled.sessionId } : {}),
    signal: deps.signal,
    ...(deps.onToken ? { onToken: deps.onToken } : {}),
  });
  if (deps.signal.aborted) throw new DOMException('The reply was stopped.', 'AbortError');
  return { assembly, compiled, result };
}

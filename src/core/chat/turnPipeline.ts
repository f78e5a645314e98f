import { warmTokenCounts } from '../tokens/tokenCounter';
import type { ContextChip } from '../context/items';
import { reReadLibraryNotes } from '../context/libraryNotes';
import { imageTarget, withTurnImages } from '../context/images';
import type { ChipResolver } from '../context/resolver';
import { compile, type CompiledRequest } from '../compiler/messageCompiler';
import type { ProviderSession } from '../compiler/session';
import type { PromptContextEngine, TurnInput } from '../engine/engine';
import type { TurnAssembly } from '../engine/turnAssembly';
import { promptFragments } from '../systemPrompt';
import { budgetSettingsFor, findProvider, type ChatMode, type StrataSettings } from '../settings/settings';
import type { ChatResult, RetryNotice } from '../ports/chatModel';
import { inputBudget, type InputBudget } from '../budget/budget';
import { condenseNow, fitTurn, type FitDeps } from '../budget/condense';
import { type CompactionEvent } from '../conversation/records/compaction';
import type { CompactionPlan } from '../budget/plan';
import { SUMMARY_TIMEOUT_MS, summarizerFor } from './summaries';
import { VAULT_QA_MODE, vaultQaSearch } from '../vaultQa/vaultQa';
import type { RewriteCache } from '../vaultQa/queryRewrite';
import type { TurnSearch } from '../conversation/records/search';
import { LOCAL_SEARCH_TOOL } from '../vaultQa/localSearchBlock';
import type { VaultSearch } from '../search/types';
import type { Usage } from '../usage';
import { runAgentLoop, toolSpecTokens, type LoopEvent } from '../agent/loop';
import { toolOutputsOf, type AgentTurn } from '../conversation/records/agent';
import { SourceCatalog } from '../agent/sourceCatalog';
import { agentTools } from '../agent/toolbox';
import type { EditSession } from '../edits/editSession';
import type { ToolHost } from '../ports/toolHost';
import { modeFragments, modeUnavailable } from './modes';
import { findProject, projectScope } from '../projects/projects';
import { planTurn, type PlannedTurn } from '../planning/planTurn';
import { readPlannedOut } from '../planning/plannedOut';
import type { PlanBook } from '../conversation/records/plan';
import { SummaryCache } from '../planning/summaryCache';
import { llmPlanner } from '../planning/llmPlanner';
import { modelSummarizer } from '../planning/summarize';
import type { Planner } from '../planning/types';

import type { ProviderFactory } from '../ports/providerFactory';

export interface TurnRequest {
  readonly chatId: string;
  readonly providerId: string;
  readonly model: string;
  readonly mode: ChatMode;
  /** The chat's project id: its prompt joins L1 (static), Vault QA stays inside its folder. */
  readonly project?: string;
  readonly userText: string;
  readonly chips: readonly ContextChip[];
  readonly session: ProviderSession | null;
  /** The chat's kept plan decisions and the user's overrides (artifact planning). */
  readonly plan?: PlanBook;
}

export interface TurnPipelineDeps {
  readonly resolver: ChipResolver;
  readonly providers: ProviderFactory;
  readonly settings: StrataSettings;
  readonly signal: AbortSignal;
  /** The request is assembled inside the budget: the view shows its size. */
  readonly onAssembled?: (assembly: TurnAssembly) => void;
  /** The chat is over its condense threshold: a compaction starts (the view says so; stop stops it). */
  readonly onCondensing?: (plan: CompactionPlan) => void;
  /** A compaction was applied to the engine: recorded and saved even if the request then fails. */
  readonly onCompacted?: (event: CompactionEvent) => void;
  readonly onToken?: (delta: string) => void;
  /** An attempt failed and is retried after a wait (the view shows it, with a cancel). */
  readonly onRetry?: (notice: RetryNotice) => void;
  /** Vault QA turns: the search (null while the index is not ready), the chat's rewrite cache, the rewrite's pricing. */
  readonly vaultQa?: {
    readonly search: VaultSearch | null;
    readonly cache: RewriteCache;
    readonly costOf?: (model: string, usage: Usage) => number | null;
  };
  /** Artifact planning: the summary cache (shared by the chats), what counts as an expensive model, and test seams. */
  readonly planning?: {
    readonly cache: SummaryCache;
    readonly expensive?: (model: string) => boolean;
    /** False: decide every artifact again each turn (the benchmark's comparison). */
    readonly sticky?: boolean;
    /** Replaces the planner model (null: the deterministic planner). */
    readonly planner?: Planner | null;
  };
  /** Agent turns: what the tools read (the vault, its search, the open note, the web), and what the view hears. */
  readonly agent?: {
    readonly host: ToolHost;
    readonly now: () => number;
    readonly onEvent?: (event: LoopEvent) => void;
    /** A new model call of the loop starts (text streamed before belonged to the previous one). */
    readonly onStepStart?: (step: number) => void;
    /** The write tools' session (issue 28); absent: the chat is read-only (no write tools offered). */
    readonly edits?: EditSession;
  };
}

/** A request that went out and came back complete: what the controller commits. */
export interface SentRequest {
  readonly assembly: TurnAssembly;
  readonly compiled: CompiledRequest;
  readonly result: ChatResult;
  /** Vault QA: the search the turn's localSearch block came from; Agent: the sources its searches numbered. */
  readonly search?: TurnSearch;
  /** Agent: the loop's steps. The assembly then carries the tool outputs as the turn's blocks (what history renders). */
  readonly agent?: AgentTurn;
  /** Artifact planning: the turn's plan record and the decisions the chat keeps once it is answered. */
  readonly plan?: Pick<PlannedTurn, 'record' | 'decisions'>;
}

/**
 * One turn, in order: resolve the chips → re-read the library's notes (freshness) → assemble L1–L5
 * inside the input budget (condensing older history first when the request passes the threshold) →
 * compile for the provider (full or delta) → send, streaming. The only change it makes to the engine
 * is a compaction (a deliberate event, reported through onCompacted); otherwise a failure or a stop
 * leaves the chat as it was. Throws on any failure; the caller keeps the user's message.
 */
export async function runTurnPipeline(request: TurnRequest, engine: PromptContextEngine, deps: TurnPipelineDeps): Promise<SentRequest> {
  const { settings } = deps;
  const providerSettings = findProvider(settings, request.providerId);
  if (!providerSettings) throw new Error(`No provider "${request.providerId}" is configured: pick a model in the chat header or add the provider in settings.`);
  const provider = deps.providers(providerSettings, request.model);
  const unavailable = modeUnavailable(request.mode, provider.capabilities, provider.config.kind);
  if (unavailable) throw new Error(unavailable);
  // The active note's images go to a model that accepts them; otherwise (and from other notes) they are named.
  const target = imageTarget(request.model, provider.config.kind, provider.capabilities.images);
  const base = await withTurnImages(await turnInput(request, engine, deps.resolver, settings, true), request.chips, deps.resolver.vault, target);
  // Vault QA: the search results are the turn's tool output (in history like any, never in the cached prefix).
  const qa = request.mode === VAULT_QA_MODE ? await searchForTurn(request, engine, deps) : null;
  const full = budgetDeps(request, settings, deps.providers, deps.signal);
  const fit = withToolRoom(full, request, deps.agent?.edits !== undefined);
  const planned = await planForTurn(request, engine, qa ? { ...base, tools: [qa.tool] } : base, fit, deps);
  const { input } = planned;
  const plan = planned.record || planned.decisions.length > 0 ? { plan: { record: planned.record, decisions: planned.decisions } } : {};
  const { assembly, compaction } = await fitTurn(engine, input, {
    ...fit,
    ...(deps.onCondensing ? { onCondensing: deps.onCondensing } : {}),
  });
  if (compaction) deps.onCompacted?.(compaction);
  deps.onAssembled?.(assembly);
  if (deps.signal.aborted) throw new DOMException('The reply was stopped.', 'AbortError');
  const compiled = compile({ assembly, capabilities: provider.capabilities, target: provider.config, session: request.session });
  if (request.mode === 'agent') return { ...(await agentTurn(request, engine, input, assembly, compiled, provider, full.budget, deps)), ...plan };
  const result = await provider.send({
    messages: compiled.messages,
    breakpoints: compiled.breakpoints,
    cacheKey: `strata-${request.chatId}`,
    ...(compiled.sessionId ? { sessionId: compiled.sessionId } : {}),
    signal: deps.signal,
    ...(deps.onToken ? { onToken: deps.onToken } : {}),
    ...(deps.onRetry ? { onRetry: deps.onRetry } : {}),
  });
  if (deps.signal.aborted) throw new DOMException('The reply was stopped.', 'AbortError');
  return { assembly, compiled, result, ...(qa ? { search: qa.search } : {}), ...plan };
}

/** Plan the turn's artifacts (src/core/planning/planTurn.ts) on the chat's budget, with its planner and summary models. */
async function planForTurn(request: TurnRequest, engine: PromptContextEngine, input: TurnInput, fit: FitDeps, deps: TurnPipelineDeps): Promise<PlannedTurn> {
  const { settings, providers } = deps;
  const plannedOut = settings.contextPlanning === 'off' ? undefined : await readPlannedOut(deps.resolver, request.plan);
  const planning = deps.planning;
  const chat = { provider: request.providerId, model: request.model };
  const costOf = deps.vaultQa?.costOf;
  const models = { providers, ...(costOf ? { costOf } : {}) };
  return planTurn(engine, input, request.plan, {
    mode: settings.contextPlanning,
    planner: planning?.planner !== undefined ? planning.planner : llmPlanner(settings, chat, models),
    summarizer: settings.summarize ? modelSummarizer(settings, chat, models) : null,
    cache: planning?.cache ?? new SummaryCache(),
    budget: fit.budget,
    autoCondense: fit.budget.autoCondense,
    expensiveModel: planning?.expensive?.(request.model) ?? false,
    signal: deps.signal,
    ...(planning?.sticky !== undefined ? { sticky: planning.sticky } : {}),
    ...(plannedOut ? { plannedOut } : {}),
  });
}

/**
 * An agent turn: the loop over the compiled request. Its tool outputs become the turn's context
 * blocks: the turn is assembled again with them (what history renders from now on, and what the
 * next turn's budget counts), so the commit records what later turns will send.
 */
async function agentTurn(
  request: TurnRequest,
  engine: PromptContextEngine,
  input: TurnInput,
  assembly: TurnAssembly,
  compiled: CompiledRequest,
  provider: ReturnType<ProviderFactory>,
  budget: InputBudget,
  deps: TurnPipelineDeps,
): Promise<SentRequest> {
  const agent = deps.agent;
  if (!agent) throw new Error('The Agent mode is not available here: no tools are connected.');
  const sources = new SourceCatalog();
  const outcome = await runAgentLoop(
    {
      messages: compiled.messages,
      breakpoints: compiled.breakpoints,
      cacheKey: `strata-${request.chatId}`,
      ...(compiled.sessionId ? { sessionId: compiled.sessionId } : {}),
      promptTokens: assembly.promptTokens,
    },
    {
      provider,
      tools: agentTools(agent.edits !== undefined),
      context: { host: agent.host, signal: deps.signal, sources, ...(agent.edits ? { edits: agent.edits } : {}) },
      maxSteps: deps.settings.agentMaxSteps,
      budgetTokens: budget.tokens,
      model: request.model,
      now: agent.now,
      ...(deps.onToken ? { onToken: deps.onToken } : {}),
      ...(deps.onRetry ? { onRetry: deps.onRetry } : {}),
      ...(agent.onEvent ? { onEvent: agent.onEvent } : {}),
      ...(agent.onStepStart ? { onStepStart: agent.onStepStart } : {}),
    },
  );
  const tools = toolOutputsOf(outcome.steps);
  const recorded = tools.length > 0 ? engine.assemble({ ...input, tools: [...(input.tools ?? []), ...tools] }) : assembly;
  const cited = sources.all();
  const queries = outcome.steps.flatMap((s) => s.calls.filter((c) => c.name === LOCAL_SEARCH_TOOL).map((c) => (typeof c.args.query === 'string' ? c.args.query : '')));
  return {
    assembly: recorded,
    compiled,
    result: outcome.result,
    agent: { stop: outcome.stop, steps: outcome.records },
    ...(cited.length > 0 ? { search: { query: queries.join(' · '), sources: cited } } : {}),
  };
}

/**
 * Agent turns send the tool definitions with every request: the history is fitted into what they
 * leave, so condensing makes room for them instead of the first request passing the budget.
 */
function withToolRoom(fit: FitDeps, request: TurnRequest, canWrite: boolean): FitDeps {
  if (request.mode !== 'agent') return fit;
  const room = toolSpecTokens(agentTools(canWrite), request.model);
  const { budget } = fit;
  return { ...fit, budget: { ...budget, tokens: budget.tokens - room, threshold: Math.max(0, budget.threshold - room), target: Math.max(0, budget.target - room) } };
}

/** The Vault QA search of a turn: the conversation before it is what the engine has seen. */
function searchForTurn(request: TurnRequest, engine: PromptContextEngine, deps: TurnPipelineDeps) {
  const prior = engine.completedTurns().map((t) => ({ userText: t.userText, reply: t.reply }));
  const scope = projectScope(findProject(deps.settings, request.project));
  return vaultQaSearch(deps.settings, { provider: request.providerId, model: request.model, scope }, request.userText, prior, {
    search: deps.vaultQa?.search ?? null,
    cache: deps.vaultQa?.cache ?? new Map<string, string>(),
    providers: deps.providers,
    signal: deps.signal,
    ...(deps.vaultQa?.costOf ? { costOf: deps.vaultQa.costOf } : {}),
  });
}

/** The next request of a chat, before its message is written: what the composer holds. */
export type NextRequest = Pick<TurnRequest, 'providerId' | 'model' | 'mode' | 'project' | 'chips' | 'plan'>;

/** What previewing the next request reads: nothing is re-read from the vault and no model is called. */
export interface PreviewDeps {
  readonly resolver: ChipResolver;
  readonly settings: StrataSettings;
  readonly cache: SummaryCache;
  readonly expensive: (model: string) => boolean;
}

/**
 * The next request as it would go now (history, library, L1, and the composer's chips), for the
 * usage line: the send's stages (the turn's input, its artifacts planned, assembled) without
 * re-reading the library's notes, searching or calling a model; large attachments are planned as
 * the deterministic planner would. Null when `stale()` says, between stages, that the result would
 * no longer be wanted (a turn started, the chat was left).
 */
export async function previewTurn(request: NextRequest, engine: PromptContextEngine, deps: PreviewDeps, stale: () => boolean): Promise<TurnAssembly | null> {
  const { settings } = deps;
  const input = await turnInput({ ...request, userText: '' }, engine, deps.resolver, settings, false);
  if (stale()) return null;
  const budget = inputBudget(request.model, budgetSettingsFor(settings, request.providerId, request.model), settings.contextWindows);
  const planned = await planTurn(engine, input, request.plan, {
    mode: settings.contextPlanning === 'off' ? 'off' : 'heuristic',
    planner: null,
    summarizer: null,
    cache: deps.cache,
    budget,
    autoCondense: budget.autoCondense,
    expensiveModel: deps.expensive(request.model),
    signal: new AbortController().signal,
  });
  if (stale()) return null;
  return engine.assemble(planned.input);
}

/**
 * Condense now (the context panel's button, the "Condense chat" command), measured on the next
 * request as the usage line shows it: the newest messages stay, the rest is summarized. The engine
 * applies the compaction; null when there is nothing worth condensing.
 */
export async function condenseNext(
  request: NextRequest,
  engine: PromptContextEngine,
  deps: { resolver: ChipResolver; settings: StrataSettings; providers: ProviderFactory; signal: AbortSignal },
): Promise<CompactionEvent | null> {
  const input = await turnInput({ ...request, userText: '' }, engine, deps.resolver, deps.settings, false);
  return condenseNow(engine, input, budgetDeps(request, deps.settings, deps.providers, deps.signal));
}

/** This turn's engine input: its resolved chips, L1 for its mode, and (for a send) the library's notes re-read. */
export async function turnInput(
  request: Pick<TurnRequest, 'model' | 'mode' | 'userText' | 'chips' | 'project'>,
  engine: PromptContextEngine,
  resolver: ChipResolver,
  settings: StrataSettings,
  reRead: boolean,
): Promise<TurnInput> {
  const { items, problems } = await resolver.resolve(request.chips);
  // Long notes (and a long pasted message) are counted here, in slices between frames, before the engine counts them at once (tokenCounter.ts).
  await warmTokenCounts(request.model, [request.userText, ...items.map((item) => item.content)]);
  const current = reRead ? await reReadLibraryNotes(resolver, engine.libraryNotes(), items) : undefined;
  const projectPrompt = findProject(settings, request.project)?.prompt ?? '';
  const fragments = [...promptFragments({ systemPrompt: settings.systemPrompt, memory: settings.memory, projectPrompt }), ...modeFragments(request.mode)];
  return { userText: request.userText, items, problems, fragments, model: request.model, ...(current ? { current } : {}) };
}

/** The budget, its settings and the summarizer for a chat's provider and model. */
export function budgetDeps(
  request: Pick<TurnRequest, 'providerId' | 'model'>,
  settings: StrataSettings,
  providers: ProviderFactory,
  signal: AbortSignal,
): FitDeps {
  const budgetSettings = budgetSettingsFor(settings, request.providerId, request.model);
  return {
    budget: inputBudget(request.model, budgetSettings, settings.contextWindows),
    settings: budgetSettings,
    summarizer: summarizerFor(settings, request.providerId, request.model, providers),
    signal,
    summaryTimeoutMs: SUMMARY_TIMEOUT_MS,
  };
}

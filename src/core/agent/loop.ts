import type { CacheBreakpoint } from '../compiler/cacheBreakpoints';
import type { ChatMessage } from '../engine/messages';
import type { ChatProvider, ChatResult, RetryNotice } from '../ports/chatModel';
import { tokenCounterFor } from '../tokens/tokenCounter';
import { addUsage, ZERO_USAGE, type Usage } from '../usage';
import type { AgentTool, ToolContext } from './tool';
import { runToolCall, toolSpecs } from './toolbox';
import type { AgentStep, CallRecord, LoopStop, StepRecord, ToolCall, ToolResult } from '../conversation/records/agent';

/** Steps (model calls that ask for tools) a turn may take before it must answer: the setting's default. */
export const DEFAULT_MAX_STEPS = 8;

/** Sent after the last step when the limit is reached: the model answers with what it has. */
export const STEP_LIMIT_NOTE =
  'You have reached the tool step limit for this message. Do not call any more tools: answer now from what the tools returned so far, and say what you could not find.';

/** A finished loop: the final reply, every step, and the usage of all its calls added up. */
export interface LoopOutcome {
  readonly result: ChatResult;
  readonly steps: readonly AgentStep[];
  /** One per model call: the steps that called tools, then the answering call. */
  readonly records: readonly StepRecord[];
  readonly usage: Usage;
  readonly stop: LoopStop;
}

/** What the view hears while the loop runs. */
export type LoopEvent =
  | { readonly type: 'call-started'; readonly step: number; readonly call: ToolCall }
  | { readonly type: 'call-finished'; readonly step: number; readonly call: CallRecord }
  | { readonly type: 'step-finished'; readonly step: number; readonly record: StepRecord };

/** The first request of the turn, compiled as for any mode. */
export interface LoopRequest {
  readonly messages: readonly ChatMessage[];
  readonly breakpoints?: readonly CacheBreakpoint[];
  readonly cacheKey?: string;
  readonly sessionId?: string;
  /** Tokens of `messages` as the engine counted them. */
  readonly promptTokens: number;
}

export interface LoopDeps {
  readonly provider: ChatProvider;
  readonly tools: readonly AgentTool[];
  readonly context: ToolContext;
  readonly maxSteps: number;
  /** Tokens a request may carry (the chat's input budget): a result that would pass it is refused, not sent. */
  readonly budgetTokens: number;
  readonly model: string;
  readonly now: () => number;
  readonly onToken?: (delta: string) => void;
  /** A new model call starts: text streamed so far belonged to the previous one. */
  readonly onStepStart?: (step: number) => void;
  readonly onRetry?: (notice: RetryNotice) => void;
  readonly onEvent?: (event: LoopEvent) => void;
}

function aborted(): never {
  throw new DOMException('The reply was stopped.', 'AbortError');
}

/**
 * The agent loop: send with the tools bound; while the model calls tools (and steps remain), run
 * them in call order and send again with the step appended. Each request is the previous one plus
 * the new step, byte for byte (the provider's prefix cache serves the rest); a session provider
 * (Responses) continues its own response and gets only the results. Throws on a provider failure or
 * a stop; the caller keeps the user's message.
 */
export async function runAgentLoop(request: LoopRequest, deps: LoopDeps): Promise<LoopOutcome> {
  const specs = toolSpecs(deps.tools);
  const signal = deps.context.signal;
  const counter = tokenCounterFor(deps.model);
  // The tool definitions travel with every request: they count like any other prompt text.
  const base = request.promptTokens + toolSpecTokens(deps.tools, deps.model);
  const session = deps.provider.capabilities.sessionResumption;
  const steps: AgentStep[] = [];
  const records: StepRecord[] = [];
  let usage = ZERO_USAGE;
  let stepTokens = 0;
  let sessionId = request.sessionId;
  let atLimit = false;
  const usedIds = new Set<string>();

  for (let index = 1; ; index++) {
    if (signal.aborted) aborted();
    deps.onStepStart?.(index);
    const continuing = session && steps.length > 0 && sessionId !== undefined;
    const result = await deps.provider.send({
      // A session provider already holds the request and the calls it made: only the new results go.
      messages: continuing ? [] : request.messages,
      ...(continuing ? { steps: steps.slice(-1), callsSeen: true } : steps.length > 0 ? { steps } : {}),
      ...(request.breakpoints && !continuing ? { breakpoints: request.breakpoints } : {}),
      ...(request.cacheKey ? { cacheKey: request.cacheKey } : {}),
      ...(sessionId !== undefined ? { sessionId } : {}),
      ...(atLimit ? { finalNote: STEP_LIMIT_NOTE } : {}),
      tools: specs,
      signal,
      ...(deps.onToken ? { onToken: deps.onToken } : {}),
      ...(deps.onRetry ? { onRetry: deps.onRetry } : {}),
    });
    if (signal.aborted) aborted();
    usage = addUsage(usage, result.usage);
    if (result.sessionId !== undefined) sessionId = result.sessionId;
    const calls = uniqueIds(result.toolCalls ?? [], index, usedIds);
    const promptTokens = base + stepTokens;

    if (calls.length === 0 || atLimit) {
      const record: StepRecord = { text: result.text, calls: [], usage: result.usage, usageReported: result.usageReported !== false, promptTokens };
      records.push(record);
      deps.onEvent?.({ type: 'step-finished', step: index, record });
      // At the limit a model that still asks for tools has not answered: the reply says so instead of being empty.
      const text = atLimit && calls.length > 0 && result.text.trim() === '' ? stepLimitReply(deps.maxSteps) : result.text;
      return { result: { ...result, text, usage, toolCalls: [] }, steps, records, usage, stop: atLimit ? 'step-limit' : 'answered' };
    }

    const results: ToolResult[] = [];
    const callRecords: CallRecord[] = [];
    for (const call of calls) {
      deps.onEvent?.({ type: 'call-started', step: index, call });
      const started = deps.now();
      let outcome = await runToolCall(call, deps.tools, deps.context);
      if (signal.aborted) aborted();
      // Nothing is sent over the budget: a result that does not fit is replaced by a refusal the model can act on.
      const tokens = counter.count(outcome.content) + counter.count(JSON.stringify(call.args)) + 16;
      if (base + stepTokens + tokens > deps.budgetTokens) {
        const left = Math.max(0, deps.budgetTokens - base - stepTokens);
        outcome = {
          ...outcome,
          isError: true,
          content: `Error: this result (${tokens} tokens) does not fit in what is left of the context budget (${left} tokens). Ask for less: one heading or a line range of a note, or fewer search results.`,
        };
      }
      stepTokens += counter.count(outcome.content) + counter.count(JSON.stringify(call.args)) + 16;
      results.push(outcome);
      const record: CallRecord = { id: call.id, name: call.name, args: call.args, chars: outcome.content.length, ms: Math.max(0, deps.now() - started), isError: outcome.isError };
      callRecords.push(record);
      deps.onEvent?.({ type: 'call-finished', step: index, call: record });
    }
    steps.push({ text: result.text, calls, results });
    const record: StepRecord = { text: result.text, calls: callRecords, usage: result.usage, usageReported: result.usageReported !== false, promptTokens };
    records.push(record);
    deps.onEvent?.({ type: 'step-finished', step: index, record });
    if (steps.length >= deps.maxSteps) atLimit = true;
  }
}

/** Tokens of the tool definitions as sent (their JSON Schemas, names and descriptions). */
export function toolSpecTokens(tools: readonly AgentTool[], model: string): number {
  return tokenCounterFor(model).count(JSON.stringify(toolSpecs(tools)));
}

/** The reply of a turn whose model kept calling tools past the limit. */
export function stepLimitReply(maxSteps: number): string {
  return `The agent reached its limit of ${maxSteps} tool steps without answering. Ask again more narrowly, or raise the limit (Settings → Strata → Agent steps).`;
}

/** Call ids are the provider's; a server that repeats them (across steps too) gets ids unique within the turn. */
function uniqueIds(calls: readonly ToolCall[], step: number, seen: Set<string>): ToolCall[] {
  return calls.map((call, i) => {
    const id = seen.has(call.id) ? `strata_${step}_${i + 1}` : call.id;
    seen.add(id);
    return id === call.id ? call : { ...call, id };
  });
}

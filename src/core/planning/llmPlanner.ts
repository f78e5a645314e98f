import type { ProviderFactory } from '../ports/providerFactory';
import type { ChatProvider } from '../ports/chatModel';
import { findProvider, plannerTarget, type StrataSettings } from '../settings/settings';
import type { Usage } from '../usage';
import { PlanError } from './planError';
import { plannerMessages } from './plannerPrompt';
import { PLAN_ANSWER_NAME, PlanAnswerSchema } from './planSchema';
import type { Planner, PlannerInput } from './types';
import type { PlanCall } from '../conversation/records/plan';
import { validatePlan } from './validatePlan';

export { PlanError, type PlanFailure } from './planError';

/** The planner is a cheap call beside the chat: past this, the deterministic plan is used instead. */
export const DEFAULT_PLANNER_TIMEOUT_MS = 30_000;

export interface LlmPlannerDeps {
  readonly providers: ProviderFactory;
  readonly costOf?: (model: string, usage: Usage) => number | null;
  readonly timeoutMs?: number;
}

/** What the model answered and what the call cost. */
interface Answer {
  readonly value: unknown;
  readonly usage: Usage;
  readonly model?: string;
}

/** Structured output where the provider has it; else the same instructions asking for the JSON alone, as text. */
async function ask(provider: ChatProvider, input: PlannerInput, signal: AbortSignal): Promise<Answer> {
  if (provider.structured) {
    const result = await provider.structured({ messages: plannerMessages(input), schema: PlanAnswerSchema, name: PLAN_ANSWER_NAME, signal });
    return { value: result.value, usage: result.usage, ...(result.model ? { model: result.model } : {}) };
  }
  const result = await provider.send({ messages: plannerMessages(input, { jsonOnly: true }), signal });
  return { value: result.text, usage: result.usage, ...(result.model ? { model: result.model } : {}) };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The planner model (the planner model setting, else a cheap model of the chat's provider; see
 * plannerTarget). Any failure is a PlanError saying what went wrong (no provider, the provider's
 * error, the timeout, an answer that is no JSON or off-schema), for the caller's fallback; the
 * user's stop is an AbortError, not a failure to fall back from.
 */
export function llmPlanner(settings: StrataSettings, chat: { readonly provider: string; readonly model: string }, deps: LlmPlannerDeps): Planner {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_PLANNER_TIMEOUT_MS;
  return {
    kind: 'llm',
    async plan(input, userSignal) {
      const stopped = (): DOMException => new DOMException('The reply was stopped.', 'AbortError');
      if (userSignal.aborted) throw stopped();
      const target = plannerTarget(settings, chat.provider, chat.model);
      const providerSettings = findProvider(settings, target.provider);
      if (!providerSettings) throw new PlanError(`no provider "${target.provider}" is configured for planning`, 'no-provider');
      // AbortSignal.timeout: a timer without the host's timer functions (as sideCall does).
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([userSignal, timeout]);
      let answer: Answer;
      try {
        answer = await ask(deps.providers(providerSettings, target.model), input, signal);
      } catch (error) {
        if (userSignal.aborted) throw stopped();
        if (timeout.aborted) throw new PlanError(`the planner timed out after ${timeoutMs} ms`, 'timeout');
        throw new PlanError(`the planner failed: ${messageOf(error)}`, 'provider');
      }
      if (userSignal.aborted) throw stopped();
      if (timeout.aborted) throw new PlanError(`the planner timed out after ${timeoutMs} ms`, 'timeout');
      const model = answer.model ?? target.model;
      const call: PlanCall = { kind: 'planner', provider: target.provider, model, usage: answer.usage, cost: deps.costOf ? deps.costOf(model, answer.usage) : null };
      try {
        return { plan: validatePlan(answer.value, input.artifacts, input.question).plan, call };
      } catch (error) {
        throw error instanceof PlanError ? new PlanError(error.message, error.reason, call) : error;
      }
    },
  };
}

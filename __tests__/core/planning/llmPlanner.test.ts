/**
 * The LLM planner end to end over real HTTP: the project's provider factory (real LangChain
 * clients, structured output by forced tool call) against the local provider server, which answers
 * planner requests with the question's `[[plan …]]` directive or a default plan. Failures become
 * PlanErrors for the caller's fallback; the user's stop stays an AbortError.
 */
import type { ProviderFactory } from '../../../src/core/ports/providerFactory';
import { DEFAULT_PLANNER_TIMEOUT_MS, llmPlanner, PlanError, type LlmPlannerDeps } from '../../../src/core/planning/llmPlanner';
import { PLANNER_MARKER } from '../../../src/core/planning/plannerPrompt';
import { PLAN_ANSWER_NAME } from '../../../src/core/planning/planSchema';
import type { ChatProvider } from '../../../src/core/ports/chatModel';
import { loadSettings, type StrataSettings } from '../../../src/core/settings/settings';
import type { ProviderServer } from '../../../testing/providerServer';
import { createProvider } from '../../../src/providers/createProvider';
import { costOf } from '../../../src/providers/pricing';
import { providerConfigOf } from '../../../src/providers/providerConfig';
import { recordingSleep } from '../../providers/helpers';
import { LONG, PLAN, VENT, kept, noteArtifact, plannerInput } from './plannerFixtures';
import { FIXED_CLOCK, useProviderServer } from '../../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });
afterEach(() => jest.restoreAllMocks());

type Kind = 'openai' | 'openai-responses' | 'anthropic';
const KEY = 'sk-test-planner-0123456789';
const CHAT_MODEL: Record<Kind, string> = { openai: 'gpt-4o', 'openai-responses': 'gpt-4.1', anthropic: 'claude-sonnet-4-5' };
/** plannerTarget's cheap model for each kind (no planner model set). */
const PLANNER_MODEL: Record<Kind, string> = { openai: 'gpt-4o-mini', 'openai-responses': 'gpt-4o-mini', anthropic: 'claude-haiku-4-5' };

function settingsFor(kind: Kind, extra: Record<string, unknown> = {}): StrataSettings {
  const { settings, warnings } = loadSettings({
    providers: [{ id: 'local', kind, name: 'Local', baseUrl: kind === 'anthropic' ? server.url : `${server.url}/v1`, models: [CHAT_MODEL[kind]], secretId: 'k' }],
    defaultProviderId: 'local',
    defaultModel: CHAT_MODEL[kind],
    ...extra,
  });
  expect(warnings).toEqual([]);
  return settings;
}

// Retries without waiting (a 500 is retried, as for any call).
const providers: ProviderFactory = (p, model) => createProvider(providerConfigOf(p, model), { getSecret: () => KEY, fetch, sleep: recordingSleep().sleep });
const usd: LlmPlannerDeps['costOf'] = (model, usage) => costOf(model, usage)?.usd ?? null;

function plannerFor(kind: Kind, deps: Partial<LlmPlannerDeps> = {}, settings = settingsFor(kind)) {
  return llmPlanner(settings, { provider: 'local', model: CHAT_MODEL[kind] }, { providers, costOf: usd, ...deps });
}

const plan = noteArtifact(PLAN);
const vent = noteArtifact(VENT);
const long = noteArtifact(LONG);
const QUESTION = 'Which vent openers work without electricity?';

const SCRIPTED = {
  artifacts: [
    { artifact_id: VENT, strategy: 'include_full', priority: 1, rationale: 'The question is about vents.', focus: null, query: null },
    { artifact_id: LONG, strategy: 'exclude', priority: 3, rationale: 'About tasks, not vents.', focus: null, query: null },
    { artifact_id: PLAN, strategy: 'summarize', priority: 2, rationale: 'Mentions the openers in its budget.', focus: null, query: null },
  ],
  reasoning: 'Ventilation answers it; the plan adds the cost.',
};

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe.each(['openai', 'openai-responses', 'anthropic'] as const)('%s', (kind) => {
  test('a scripted plan is returned, validated, with the call recorded (provider, cheap model, usage, cost)', async () => {
    const question = `${QUESTION}\n[[plan ${JSON.stringify(SCRIPTED)}]]`;
    const result = await plannerFor(kind).plan(plannerInput([plan, vent, long], { question }), new AbortController().signal);
    expect(result.plan).toEqual({
      decisions: [
        { id: VENT, strategy: 'include_full', priority: 1, rationale: 'The question is about vents.' },
        { id: LONG, strategy: 'exclude', priority: 3, rationale: 'About tasks, not vents.' },
        // No focus given: the question is the focus.
        { id: PLAN, strategy: 'summarize', priority: 2, rationale: 'Mentions the openers in its budget.', focus: question },
      ],
      reasoning: SCRIPTED.reasoning,
    });
    const call = result.call!;
    expect(call).toMatchObject({ kind: 'planner', provider: 'local', model: PLANNER_MODEL[kind] });
    expect(call.usage.inputTokens).toBeGreaterThan(500);
    expect(call.usage.outputTokens).toBeGreaterThan(20);
    expect(call.cost).toBe(costOf(PLANNER_MODEL[kind], call.usage)!.usd);
    expect(call.cost).toBeGreaterThan(0);

    // One request, to the cheap model, with the planner's instructions and a forced tool call.
    expect(server.requests).toHaveLength(1);
    const body = server.requests[0].body;
    expect(body.model).toBe(PLANNER_MODEL[kind]);
    expect(body.stream ?? false).toBe(false);
    expect(JSON.stringify(body)).toContain(PLANNER_MARKER);
    if (kind === 'openai') {
      expect(body.tool_choice).toEqual({ type: 'function', function: { name: PLAN_ANSWER_NAME } });
      expect(body.tools[0].function).toMatchObject({ name: PLAN_ANSWER_NAME, strict: true });
      expect(body.tools[0].function.parameters).not.toHaveProperty('$schema');
      expect(body.tools[0].function.parameters.properties.artifacts.items.required).toEqual(['artifact_id', 'strategy', 'priority', 'rationale', 'focus', 'query']);
    } else if (kind === 'openai-responses') {
      expect(body.tool_choice).toEqual({ type: 'function', name: PLAN_ANSWER_NAME });
      expect(body.tools[0]).toMatchObject({ type: 'function', name: PLAN_ANSWER_NAME, strict: true });
    } else {
      expect(body.tool_choice).toEqual({ type: 'tool', name: PLAN_ANSWER_NAME });
      expect(body.tools[0]).toMatchObject({ name: PLAN_ANSWER_NAME });
      expect(body.tools[0].input_schema.additionalProperties).toBe(false);
    }
  });

  test('no directive: the default plan (a small note whole, a large one that mentions the question summarized for it)', async () => {
    const input = plannerInput([plan, long], { question: QUESTION, kept: [kept(vent)] });
    const { plan: result } = await plannerFor(kind).plan(input, new AbortController().signal);
    expect(result.decisions).toEqual([
      { id: PLAN, strategy: 'include_full', priority: 1, rationale: `Small enough to include whole (${plan.tokens} tokens).` },
      { id: LONG, strategy: 'summarize', priority: 2, rationale: `Bears on the question but too large to include whole (${long.tokens} tokens).`, focus: QUESTION },
    ]);
    expect(long.tokens).toBeGreaterThan(1500);
  });

  test('unknown and repeated ids in the answer are dropped; left-out artifacts get no decision', async () => {
    const answer = { artifacts: [SCRIPTED.artifacts[0], { ...SCRIPTED.artifacts[1], artifact_id: 'Nowhere.md' }, { ...SCRIPTED.artifacts[0], strategy: 'exclude' }], reasoning: 'r' };
    const question = `${QUESTION}\n[[plan ${JSON.stringify(answer)}]]`;
    const { plan: result } = await plannerFor(kind).plan(plannerInput([plan, vent], { question }), new AbortController().signal);
    expect(result.decisions).toEqual([{ id: VENT, strategy: 'include_full', priority: 1, rationale: 'The question is about vents.' }]);
  });

  test('invalid JSON: a PlanError that says so, with the paid call attached', async () => {
    // LangChain warns when a reply's only tool call has malformed arguments: expected here.
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const error = await failure(plannerFor(kind).plan(plannerInput([plan], { question: `${QUESTION}\n[[plan invalid]]` }), new AbortController().signal));
    expect(error).toBeInstanceOf(PlanError);
    expect(error).toMatchObject({ reason: 'invalid-json', message: expect.stringMatching(/not valid JSON: "\{"artifacts": \[\{"artifact_id":"/) });
    expect((error as PlanError).call).toMatchObject({ kind: 'planner', provider: 'local', model: PLANNER_MODEL[kind] });
  });

  test('an off-schema answer: a PlanError naming the field', async () => {
    const answer = { artifacts: [{ ...SCRIPTED.artifacts[0], strategy: 'include_some' }], reasoning: 'r' };
    const error = await failure(plannerFor(kind).plan(plannerInput([vent], { question: `[[plan ${JSON.stringify(answer)}]]` }), new AbortController().signal));
    expect(error).toMatchObject({ name: 'PlanError', reason: 'schema', message: expect.stringContaining('artifacts[0].strategy') });
  });

  test("HTTP 500: a PlanError carrying the provider's error", async () => {
    const error = await failure(plannerFor(kind).plan(plannerInput([plan], { question: `${QUESTION}\n[[plan error]]` }), new AbortController().signal));
    expect(error).toBeInstanceOf(PlanError);
    expect(error).toMatchObject({ reason: 'provider', message: expect.stringMatching(/^the planner failed: .*500/), call: null });
  });

  test('too slow: a timeout PlanError', async () => {
    const error = await failure(plannerFor(kind, { timeoutMs: 300 }).plan(plannerInput([plan], { question: `${QUESTION}\n[[plan slow 5000]]` }), new AbortController().signal));
    expect(error).toBeInstanceOf(PlanError);
    expect(error).toMatchObject({ reason: 'timeout', message: 'the planner timed out after 300 ms' });
  });

  test("the user's stop: an AbortError, not a PlanError (nothing to fall back from)", async () => {
    const controller = new AbortController();
    const pending = plannerFor(kind).plan(plannerInput([plan], { question: `${QUESTION}\n[[plan slow 5000]]` }), controller.signal);
    setTimeout(() => controller.abort(), 100);
    const error = await failure(pending);
    expect(error).not.toBeInstanceOf(PlanError);
    expect(error).toMatchObject({ name: 'AbortError' });
  });
});

describe('without structured output', () => {
  /** The same real provider with only `send` (as Claude Code is): the planner asks for JSON in text. */
  const textOnly: ProviderFactory = (p, model) => {
    const inner = providers(p, model);
    const provider: ChatProvider = { config: inner.config, capabilities: inner.capabilities, send: (request) => inner.send(request) };
    return provider;
  };

  test('the JSON comes back as text and is validated the same way', async () => {
    const question = `${QUESTION}\n[[plan ${JSON.stringify(SCRIPTED)}]]`;
    const result = await plannerFor('anthropic', { providers: textOnly }).plan(plannerInput([plan, vent, long], { question }), new AbortController().signal);
    expect(result.plan.decisions.map((d) => [d.id, d.strategy])).toEqual([
      [VENT, 'include_full'],
      [LONG, 'exclude'],
      [PLAN, 'summarize'],
    ]);
    expect(result.call?.usage.outputTokens).toBeGreaterThan(20);
    const body = server.requests[0].body;
    expect(body).not.toHaveProperty('tools');
    expect(JSON.stringify(body.system)).toContain('Reply with the JSON object only');
  });
});

describe('target and setup', () => {
  test('the planner model setting picks the model (and provider)', async () => {
    const settings = settingsFor('openai', { plannerModel: 'local/gpt-4.1-nano' });
    const { call } = await plannerFor('openai', {}, settings).plan(plannerInput([plan]), new AbortController().signal);
    expect(call).toMatchObject({ provider: 'local', model: 'gpt-4.1-nano' });
    expect(server.requests[0].body.model).toBe('gpt-4.1-nano');
  });

  test('an unknown planner provider: a PlanError before any request', async () => {
    const settings = settingsFor('openai');
    const error = await failure(llmPlanner(settings, { provider: 'gone', model: 'x' }, { providers }).plan(plannerInput([plan]), new AbortController().signal));
    expect(error).toMatchObject({ name: 'PlanError', reason: 'no-provider', message: 'no provider "gone" is configured for planning' });
    expect(server.requests).toHaveLength(0);
  });

  test('already stopped: an AbortError before any request; kind and default timeout', async () => {
    const controller = new AbortController();
    controller.abort();
    const planner = plannerFor('openai');
    expect(planner.kind).toBe('llm');
    expect(DEFAULT_PLANNER_TIMEOUT_MS).toBe(30_000);
    await expect(planner.plan(plannerInput([plan]), controller.signal)).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.requests).toHaveLength(0);
  });
});

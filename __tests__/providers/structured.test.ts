/**
 * ChatProvider.structured over real HTTP (LangChain's withStructuredOutput against the local
 * server, which answers the planner's requests): a forced tool call per provider kind, strict on
 * OpenAI's own APIs, the raw answer returned unvalidated with its usage, errors classified as for
 * `send`, the CORS fallback, and no structured output on Claude Code.
 */
import { plannerMessages } from '../../src/core/planning/plannerPrompt';
import { PLAN_ANSWER_NAME, PlanAnswerSchema } from '../../src/core/planning/planSchema';
import type { ProviderServer } from '../../testing/providerServer';
import { ProviderError } from '../../src/providers/errors';
import { createProvider } from '../../src/providers/createProvider';
import { defaultPlan } from '../../testing/providerServer/plannerScript';
import { LONG, PLAN, noteArtifact, plannerInput } from '../core/planning/plannerFixtures';
import { providerFor, recordingSleep } from './helpers';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });
afterEach(() => jest.restoreAllMocks());

const artifacts = [noteArtifact(PLAN), noteArtifact(LONG)];
const messagesFor = (question: string) => plannerMessages(plannerInput(artifacts, { question }));
const request = (question: string, signal?: AbortSignal) => ({ messages: messagesFor(question), schema: PlanAnswerSchema, name: PLAN_ANSWER_NAME, ...(signal ? { signal } : {}) });

async function failure(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe.each(['openai', 'openai-compatible', 'openai-responses', 'anthropic'] as const)('%s', (kind) => {
  test('a forced tool call; the arguments come back as an object, with usage and the method', async () => {
    const provider = providerFor(server, kind);
    const result = await provider.structured!(request('Vents?'));
    expect(result.value).toEqual(defaultPlan(messagesFor('Vents?')[1].content));
    expect(result).toMatchObject({ method: 'functionCalling', usageReported: true });
    expect(result.usage.inputTokens).toBeGreaterThan(500);
    expect(result.usage.outputTokens).toBeGreaterThan(20);
    const body = server.requests[0].body;
    const strict = kind === 'openai-responses' ? body.tools[0].strict : kind === 'anthropic' ? body.tools[0].strict : body.tools[0].function.strict;
    // Strict mode only on OpenAI's own APIs (an OpenAI extension elsewhere).
    expect(strict ?? null).toBe(kind === 'openai' || kind === 'openai-responses' ? true : null);
    expect(body.stream ?? false).toBe(false);
  });

  test('malformed arguments come back as their text (the caller reports them)', async () => {
    jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const result = await providerFor(server, kind).structured!(request('[[plan invalid]]'));
    expect(result.value).toBe('{"artifacts": [{"artifact_id": ');
  });

  test('a 500 is retried, then a ProviderError as from send', async () => {
    const sleep = recordingSleep();
    const error = await failure(providerFor(server, kind, { sleep: sleep.sleep }).structured!(request('[[plan error]]')));
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'server', status: 500 });
    expect((error as ProviderError).attempts).toBeGreaterThan(1);
    expect(sleep.waits.length).toBe((error as ProviderError).attempts - 1);
  });

  test("the caller's abort: a ProviderError of kind aborted", async () => {
    const controller = new AbortController();
    const pending = providerFor(server, kind).structured!(request('[[plan slow 5000]]', controller.signal));
    setTimeout(() => controller.abort(), 100);
    expect(await failure(pending)).toMatchObject({ name: 'ProviderError', kind: 'aborted' });
  });
});

test('when fetch is blocked (CORS), the request goes through the fallback fetch', async () => {
  let blocked = 0;
  const corsBlocked = (() => {
    blocked++;
    return Promise.reject(new TypeError('Failed to fetch'));
  }) as typeof fetch;
  const provider = providerFor(server, 'anthropic', { fetch: corsBlocked, fallbackFetch: fetch });
  const result = await provider.structured!(request('Vents?'));
  expect(result.value).toEqual(defaultPlan(messagesFor('Vents?')[1].content));
  expect(blocked).toBe(1);
  expect(server.requests).toHaveLength(1);
});

test('Claude Code has no structured output (the planner asks for JSON through send)', () => {
  const provider = createProvider({ id: 'cc', kind: 'claude-code', model: 'sonnet' }, { getSecret: () => null });
  expect('structured' in provider).toBe(false);
});

/**
 * Temperature and max output tokens per provider and per model: read leniently from settings, sent
 * through LangChain's options for each provider kind (the payload captured by the local provider
 * server over real HTTP), absent from the payload when unset, and a set max output is the budget's
 * reserve for that model.
 */
import { inputBudget } from '../../src/core/budget/budget';
import { formatModelOptions, generationOptionsFor, parseMaxOutput, parseModelOptions, parseTemperature } from '../../src/core/generation';
import { budgetSettingsFor, loadSettings, type StrataSettings } from '../../src/core/settings/settings';
import type { ProviderServer } from '../../testing/providerServer';
import { createProvider } from '../../src/providers/createProvider';
import { providerConfigOf } from '../../src/providers/providerConfig';
import type { ProviderFactory } from '../../src/core/ports/providerFactory';
import { KEY, makeController } from '../core/chat/controllerHarness';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

const providers: ProviderFactory = (p, model) => createProvider(providerConfigOf(p, model), { getSecret: () => KEY, fetch });

type Kind = 'openai' | 'openai-responses' | 'anthropic';

function settings(kind: Kind, model: string, extra: Record<string, unknown> = {}): StrataSettings {
  const { settings, warnings } = loadSettings({
    providers: [{ id: 'local', kind, name: 'Local', baseUrl: kind === 'anthropic' ? server.url : `${server.url}/v1`, models: [model], secretId: 'k', ...extra }],
    defaultProviderId: 'local',
    defaultModel: model,
  });
  expect(warnings).toEqual([]);
  return settings;
}

async function payloadOf(s: StrataSettings): Promise<Record<string, unknown>> {
  const { controller } = makeController(s, { providers });
  await controller.send('Hello');
  expect(controller.state.answered).toHaveLength(1);
  const body = server.requests.at(-1)?.body as Record<string, unknown>;
  return body;
}

const MODEL: Record<Kind, string> = { openai: 'gpt-4o', 'openai-responses': 'gpt-4o', anthropic: 'claude-sonnet-4-5' };
const MAX_FIELD: Record<Kind, string> = { openai: 'max_tokens', 'openai-responses': 'max_output_tokens', anthropic: 'max_tokens' };

describe.each(['openai', 'openai-responses', 'anthropic'] as const)('%s', (kind) => {
  test('unset: no temperature and no max output in the payload (Anthropic keeps its required default)', async () => {
    const body = await payloadOf(settings(kind, MODEL[kind]));
    expect(body).not.toHaveProperty('temperature');
    if (kind === 'anthropic') expect(body.max_tokens).toBe(16_384);
    else expect(body).not.toHaveProperty(MAX_FIELD[kind]);
  });

  test('set on the provider: sent as the API names them', async () => {
    const body = await payloadOf(settings(kind, MODEL[kind], { temperature: 0.3, maxOutputTokens: 2000 }));
    expect(body.temperature).toBe(0.3);
    expect(body[MAX_FIELD[kind]]).toBe(2000);
  });

  test("a model's own values win over the provider's; another model keeps the provider's", async () => {
    const extra = { temperature: 0.3, maxOutputTokens: 2000, modelOptions: { [MODEL[kind]]: { temperature: 0.9 } } };
    const body = await payloadOf(settings(kind, MODEL[kind], extra));
    expect(body.temperature).toBe(0.9);
    expect(body[MAX_FIELD[kind]]).toBe(2000);
  });
});

test('a reasoning model on Chat Completions gets max_completion_tokens', async () => {
  const body = await payloadOf(settings('openai', 'o4-mini', { maxOutputTokens: 5000 }));
  expect(body.max_completion_tokens).toBe(5000);
  expect(body).not.toHaveProperty('max_tokens');
});

test('Claude Code ignores both (its config carries neither)', () => {
  const { settings: s } = loadSettings({ providers: [{ id: 'cc', kind: 'claude-code', models: ['sonnet'], temperature: 0.5, maxOutputTokens: 100 }] });
  expect(providerConfigOf(s.providers[0], 'sonnet')).toEqual({ id: 'cc', kind: 'claude-code', model: 'sonnet' });
});

describe('the budget', () => {
  test("a set max output is the reserve for that model: the input budget is the window less it", () => {
    const s = settings('openai', 'gpt-4o', { modelOptions: { 'gpt-4o': { maxOutputTokens: 100_000 } } });
    s.maxContextTokens = 1_000_000;
    const budget = inputBudget('gpt-4o', budgetSettingsFor(s, 'local', 'gpt-4o'), s.contextWindows);
    expect(budget.reserve).toBe(100_000);
    expect(budget.tokens).toBe(128_000 - 100_000);
    // Unset: the reserved output tokens setting, as before (at most half the window).
    const plain = inputBudget('gpt-4o', budgetSettingsFor(s, 'local', 'gpt-4o-mini'), s.contextWindows);
    expect(plain.reserve).toBe(4_096);
    // More than the window: one token of input is left, never a negative budget.
    const s2 = settings('openai', 'gpt-4o', { maxOutputTokens: 500_000 });
    expect(inputBudget('gpt-4o', budgetSettingsFor(s2, 'local', 'gpt-4o'), {}).tokens).toBe(1);
  });

  test("the controller measures against it", () => {
    const s = settings('openai', 'gpt-4o', { maxOutputTokens: 28_000 });
    s.maxContextTokens = 1_000_000;
    const { controller } = makeController(s, { providers });
    expect(controller.budgetFor('gpt-4o')).toMatchObject({ reserve: 28_000, tokens: 100_000 });
  });
});

describe('settings', () => {
  test('bad values fall back to unset, with a warning naming them', () => {
    const { settings: s, warnings } = loadSettings({
      providers: [
        { id: 'a', kind: 'openai', models: ['gpt-4o'], temperature: 'hot', maxOutputTokens: -5, modelOptions: { 'gpt-4o': { temperature: 5, maxOutputTokens: 300 }, 'gpt-4.1': 'fast' } },
      ],
    });
    expect(s.providers[0]).toEqual({ id: 'a', kind: 'openai', name: 'a', models: ['gpt-4o'], modelOptions: { 'gpt-4o': { maxOutputTokens: 300 } } });
    expect(warnings).toHaveLength(4);
    expect(warnings.join('\n')).toMatch(/providers\[0\]\.temperature/);
    expect(warnings.join('\n')).toMatch(/providers\[0\]\.maxOutputTokens/);
    expect(warnings.join('\n')).toMatch(/providers\[0\]\.modelOptions\.gpt-4o\.temperature/);
    expect(generationOptionsFor(s.providers[0], 'gpt-4o')).toEqual({ maxOutputTokens: 300 });
    expect(generationOptionsFor(s.providers[0], 'gpt-4.1')).toEqual({});
  });

  test('per-model overrides as typed: model names with colons, bad parts reported and left out; round trip', () => {
    const parsed = parseModelOptions('llama3.1:8b = temperature 0.2, max output 2000\ngpt-4o = temp 1.5\n\no4-mini = max 3000, speed 9\nnonsense\nx = temperature 9');
    expect(parsed.options).toEqual({ 'llama3.1:8b': { temperature: 0.2, maxOutputTokens: 2000 }, 'gpt-4o': { temperature: 1.5 }, 'o4-mini': { maxOutputTokens: 3000 } });
    expect(parsed.errors).toHaveLength(3);
    expect(parseModelOptions(formatModelOptions(parsed.options)).options).toEqual(parsed.options);
    expect(parseTemperature('')).toEqual({ ok: true, value: null });
    expect(parseTemperature('0,7')).toEqual({ ok: true, value: 0.7 });
    expect(parseTemperature('3').ok).toBe(false);
    expect(parseMaxOutput('16 384')).toEqual({ ok: true, value: 16384 });
    expect(parseMaxOutput('0').ok).toBe(false);
  });
});

/**
 * "Test connection" over real HTTP to the local provider server: a working provider reports the
 * key, the model and the latency; failures are classified in plain words (no key, bad key,
 * unreachable, model not found).
 */
import { loadSettings, type ProviderSettings } from '../../src/core/settings/settings';
import type { ProviderServer } from '../../testing/providerServer';
import { testConnection, keyStatus, type ConnectionTestDeps } from '../../src/providers/connectionTest';
import { createProvider } from '../../src/providers/createProvider';
import { providerConfigOf } from '../../src/providers/providerConfig';
import { API_KEY } from './helpers';
import { useProviderServer } from '../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { apiKey: API_KEY, knownModelsOnly: true });

const secrets: Record<string, string> = { good: API_KEY, bad: 'sk-wrong-0000000000' };

/** A clock that moves 250 ms per reading: the latency is what it says, not a timing. */
function deps(): ConnectionTestDeps {
  let t = 0;
  return {
    build: (p, model) => createProvider(providerConfigOf(p, model), { getSecret: (id) => secrets[id] ?? null, fetch, retry: { attempts: 1 } }),
    secret: (id) => secrets[id] ?? null,
    now: () => (t += 250),
  };
}

function provider(extra: Record<string, unknown>): ProviderSettings {
  const { settings, warnings } = loadSettings({ providers: [{ id: 'p', kind: 'openai', baseUrl: `${server.url}/v1`, models: ['gpt-4o'], secretId: 'good', ...extra }] });
  expect(warnings).toEqual([]);
  return settings.providers[0];
}

test.each([
  ['openai', {}],
  ['openai-responses', {}],
  ['anthropic', { baseUrl: '', models: ['claude-sonnet-4-5'] }],
] as const)('%s: connected, with the key, the model and the latency; the test asks for a tiny reply', async (kind, extra) => {
  const p = provider({ kind, ...extra, ...(kind === 'anthropic' ? { baseUrl: server.url } : {}) });
  const report = await testConnection(p, deps());
  expect(report).toEqual({ ok: true, key: 'set', model: p.models[0], latencyMs: 250, message: `Connected: ${p.models[0]} answered in 250 ms (key set).` });
  const body = server.requests.at(-1)?.body as Record<string, unknown>;
  expect(body[kind === 'openai-responses' ? 'max_output_tokens' : 'max_tokens']).toBe(16);
});

test('no key set: said at once, nothing sent', async () => {
  const report = await testConnection(provider({ secretId: '' }), deps());
  expect(report).toMatchObject({ ok: false, key: 'missing', problem: 'no-key', message: 'No API key is set: pick or create one under API key.' });
  expect(server.requests).toHaveLength(0);
});

test('a bad key', async () => {
  const report = await testConnection(provider({ secretId: 'bad' }), deps());
  expect(report).toMatchObject({ ok: false, key: 'set', problem: 'bad-key' });
  expect(report.message).toMatch(/^Bad key: the provider rejected the API key \(401\)\./);
  const anthropic = await testConnection(provider({ kind: 'anthropic', baseUrl: server.url, models: ['claude-sonnet-4-5'], secretId: 'bad' }), deps());
  expect(anthropic).toMatchObject({ problem: 'bad-key' });
});

test('unreachable', async () => {
  const report = await testConnection(provider({ baseUrl: 'http://127.0.0.1:9/v1' }), deps());
  expect(report).toMatchObject({ ok: false, problem: 'unreachable' });
  expect(report.message).toMatch(/^Unreachable: Could not reach .*127\.0\.0\.1:9/);
});

test('model not found', async () => {
  const report = await testConnection(provider({ models: ['gpt-9-imaginary'] }), deps());
  expect(report).toMatchObject({ ok: false, problem: 'model-not-found', model: 'gpt-9-imaginary' });
  expect(report.message).toBe('Model not found: the provider does not know "gpt-9-imaginary". Check the name, or refresh the models.');
  const anthropic = await testConnection(provider({ kind: 'anthropic', baseUrl: server.url, models: ['claude-imaginary'] }), deps());
  expect(anthropic).toMatchObject({ problem: 'model-not-found' });
});

test('no model listed; key status for keyless kinds', async () => {
  expect(await testConnection(provider({ models: [] }), deps())).toMatchObject({ ok: false, problem: 'no-model' });
  expect(keyStatus(provider({ kind: 'openai-compatible', secretId: '' }), () => null)).toBe('not-needed');
  expect(keyStatus(provider({ kind: 'claude-code' }), () => null)).toBe('not-needed');
  expect(keyStatus(provider({}), (id) => secrets[id] ?? null)).toBe('set');
});

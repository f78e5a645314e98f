import type { ProviderServer } from '../../testing/providerServer';
import { ProviderError } from '../../src/providers/errors';
import { providerConfigOf } from '../../src/providers/providerConfig';
import { createProvider } from '../../src/providers/createProvider';
import { API_KEY, baseUrlFor, firstTurn, recordingSleep } from './helpers';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

// Issue 29 item 9: errors call a provider by the name the user gave it in settings, not "OpenAI (local-openai)".

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

async function failure(name: string | undefined): Promise<ProviderError> {
  const config = providerConfigOf(
    { id: 'local-openai', kind: 'openai', name: name ?? 'local-openai', baseUrl: baseUrlFor(server, 'openai'), models: ['gpt-4o'], secretId: 'key' },
    'gpt-4o',
  );
  const provider = createProvider(config, { getSecret: () => API_KEY, fetch, sleep: recordingSleep().sleep });
  const outcome = await provider.send({ messages: firstTurn('Hello?') }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(outcome).toBeInstanceOf(ProviderError);
  return outcome as ProviderError;
}

test("a provider's error names it by its display name", async () => {
  server.injectFault({ kind: 'status', status: 500, times: 3 });
  const error = await failure('Local OpenAI');
  expect(error.message).toMatch(/^Local OpenAI returned 500/);
  expect(error.message).not.toContain('local-openai');
});

test('a provider without a name of its own keeps the kind and the id', async () => {
  server.injectFault({ kind: 'status', status: 500, times: 3 });
  const error = await failure(undefined);
  expect(error.message).toContain('OpenAI (local-openai)');
});

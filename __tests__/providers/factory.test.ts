import type { ProviderServer } from '../../testing/providerServer';
import { ProviderError } from '../../src/providers/errors';
import { createProvider } from '../../src/providers/createProvider';
import { configFor, firstTurn } from './helpers';
import { FIXED_CLOCK, useProviderServer } from '../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), { clock: FIXED_CLOCK });

describe('createProvider', () => {
  test('a missing key for a provider that needs one is a clear auth error, and nothing is sent', async () => {
    const provider = createProvider(configFor(server, 'openai'), { getSecret: () => null, fetch });
    const error = await provider.send({ messages: firstTurn('Hi') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'auth', providerId: 'test-openai' });
    expect((error as Error).message).toBe('No API key is set for OpenAI (test-openai). Add the API key in Strata settings.');
    expect(server.requests).toHaveLength(0);
  });

  test('an OpenAI-compatible endpoint works without a key; the key lookup may be async', async () => {
    const keyless = createProvider(configFor(server, 'openai-compatible', { secretId: undefined }), { getSecret: () => null, fetch });
    expect((await keyless.send({ messages: firstTurn('Hi') })).text).toMatch(/Question: Hi\.$/);
    const asyncKey = createProvider(configFor(server, 'anthropic'), { getSecret: () => Promise.resolve('sk-ant-async-key-123456'), fetch });
    expect((await asyncKey.send({ messages: firstTurn('Hi') })).text).toMatch(/Question: Hi\.$/);
  });

  test('the key is looked up at each call, so a key changed in settings applies at once', async () => {
    const asked: string[] = [];
    const provider = createProvider(configFor(server, 'openai'), {
      getSecret: (id) => {
        asked.push(id);
        return 'sk-test-key-abcdef';
      },
      fetch,
    });
    await provider.send({ messages: firstTurn('One') });
    await provider.send({ messages: firstTurn('Two') });
    expect(asked).toEqual(['key', 'key']);
  });

  test('an OpenAI-compatible provider without a base URL says so', async () => {
    const provider = createProvider({ id: 'local', kind: 'openai-compatible', model: 'llama3.1:8b' }, { getSecret: () => null });
    await expect(provider.send({ messages: firstTurn('Hi') })).rejects.toMatchObject({ kind: 'bad-request', message: expect.stringMatching(/no base URL is set/) as unknown });
  });

  test('claude-code is built by its own module, loaded on first use, with the deps given for it', async () => {
    const spawned: string[] = [];
    const provider = createProvider(
      { id: 'cc', kind: 'claude-code', model: 'claude-sonnet-4', executable: 'claude-missing-here' },
      {
        getSecret: () => null,
        claudeCode: {
          spawn: (command) => {
            spawned.push(command);
            throw new Error('spawn refused in this test');
          },
        },
      },
    );
    expect(provider.capabilities.sessionResumption).toBe(true);
    const error = await provider.send({ messages: firstTurn('Hi') }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ kind: 'unsupported', providerId: 'cc' });
    expect(spawned).toEqual(['claude-missing-here']);
  });

  test('claude-code without spawn (mobile) is unsupported', async () => {
    const provider = createProvider({ id: 'cc', kind: 'claude-code', model: 'claude-sonnet-4' }, { getSecret: () => null });
    await expect(provider.send({ messages: firstTurn('Hi') })).rejects.toMatchObject({ kind: 'unsupported' });
  });

  test('codex is built by its own module on first use, its key looked up at each run and given in its environment only', async () => {
    const spawned: Array<{ command: string; args: string[]; key?: string }> = [];
    const provider = createProvider(
      { id: 'cx', kind: 'codex', model: 'gpt-5-codex', executable: 'codex-missing-here', secretId: 'cx-key' },
      {
        getSecret: (id) => (id === 'cx-key' ? 'sk-codex-0123456789abcdef' : null),
        codex: {
          home: '/nowhere/codex',
          spawn: (command, args, options) => {
            spawned.push({ command, args, ...(options.env?.STRATA_CODEX_API_KEY ? { key: options.env.STRATA_CODEX_API_KEY } : {}) });
            throw new Error('spawn refused in this test');
          },
        },
      },
    );
    expect(provider.capabilities).toMatchObject({ sessionResumption: true, toolCalling: false, images: false });
    const error = await provider.send({ messages: firstTurn('Hi') }).catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'unsupported', providerId: 'cx' });
    expect(spawned).toEqual([{ command: 'codex-missing-here', args: expect.arrayContaining(['exec', '--json']) as unknown, key: 'sk-codex-0123456789abcdef' }]);
    expect(spawned[0].args.join(' ')).not.toContain('sk-codex');
  });

  test('codex without spawn (mobile) is unsupported', async () => {
    const provider = createProvider({ id: 'cx', kind: 'codex', model: 'gpt-5-codex' }, { getSecret: () => null });
    await expect(provider.send({ messages: firstTurn('Hi') })).rejects.toMatchObject({ kind: 'unsupported' });
  });
});

/**
 * The model list from the provider's own API, over real HTTP to the local provider server (OpenAI
 * and Anthropic shapes, Anthropic paged), through fetch and through the requestUrl adapter the
 * plugin uses; chat models only, sorted; a refresh keeps the user's own entries.
 */
import { requestUrl } from 'obsidian';
import type { ProviderServer } from '../../testing/providerServer';
import { chatModelsOnly, listModels, mergeModels, ModelListError } from '../../src/providers/modelList';
import { requestUrlFetch } from '../../src/providers/requestUrlFetch';
import { API_KEY } from './helpers';
import { useProviderServer } from '../helpers/providerServer';

let server: ProviderServer;
useProviderServer((s) => (server = s), {
  apiKey: API_KEY,
  models: { anthropic: Array.from({ length: 25 }, (_, i) => `claude-test-${String(25 - i).padStart(2, '0')}`) },
  resetEachTest: false,
});

const viaRequestUrl = requestUrlFetch((params) => requestUrl(params));

describe.each([
  ['fetch', fetch],
  ['requestUrl', viaRequestUrl],
] as const)('through %s', (_name, fetchFn) => {
  test('OpenAI (and compatible, e.g. Ollama at …/v1): GET /v1/models with the key; chat models only, sorted', async () => {
    const ids = await listModels({ kind: 'openai', baseUrl: `${server.url}/v1`, apiKey: API_KEY, fetch: fetchFn });
    expect(ids).toContain('text-embedding-3-small');
    expect(chatModelsOnly(ids)).toEqual(['gpt-4.1', 'gpt-4o', 'gpt-4o-mini', 'o4-mini']);
    const compatible = await listModels({ kind: 'openai-compatible', baseUrl: `${server.url}/v1/`, apiKey: API_KEY, fetch: fetchFn });
    expect(compatible).toEqual(ids);
  });

  test('Anthropic: GET /v1/models with x-api-key, every page read (the base URL with or without /v1)', async () => {
    const ids = await listModels({ kind: 'anthropic', baseUrl: `${server.url}/v1`, apiKey: API_KEY, fetch: fetchFn, pageSize: 10 });
    expect(new Set(ids).size).toBe(25);
    expect(ids).toHaveLength(25);
    expect(chatModelsOnly(ids)[0]).toBe('claude-test-01');
  });

  test('a wrong key, an unreachable host, a base URL without the list: plain problems', async () => {
    const wrong = await listModels({ kind: 'openai', baseUrl: `${server.url}/v1`, apiKey: 'sk-wrong-key-000000', fetch: fetchFn }).catch((e: unknown) => e);
    expect(wrong).toBeInstanceOf(ModelListError);
    expect((wrong as ModelListError).problem).toBe('bad-key');
    const anthropicWrong = await listModels({ kind: 'anthropic', baseUrl: server.url, fetch: fetchFn }).catch((e: unknown) => e);
    expect((anthropicWrong as ModelListError).problem).toBe('bad-key');
    const down = await listModels({ kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', apiKey: API_KEY, fetch: fetchFn }).catch((e: unknown) => e);
    expect((down as ModelListError).problem).toBe('unreachable');
    expect((down as Error).message).toMatch(/^Could not reach 127\.0\.0\.1:9/);
    expect((down as Error).message).not.toContain(API_KEY);
    const missing = await listModels({ kind: 'openai', baseUrl: `${server.url}/nothing`, apiKey: API_KEY, fetch: fetchFn }).catch((e: unknown) => e);
    expect((missing as ModelListError).problem).toBe('not-found');
  });
});

test('Claude Code has no list to fetch', async () => {
  await expect(listModels({ kind: 'claude-code', fetch })).rejects.toMatchObject({ problem: 'unsupported' });
});

test('the filter keeps chat models (instruction-tuned open models too) and drops embeddings, speech, images, moderation', () => {
  expect(
    chatModelsOnly([
      'whisper-1',
      'llama-3.1-8b-instruct',
      'nomic-embed-text:latest',
      'gpt-4o-mini-tts',
      'tts-1-hd',
      'gpt-4o',
      'gpt-image-1',
      'omni-moderation-latest',
      'gpt-4o-audio-preview',
      'qwen2.5:7b',
      'gpt-3.5-turbo-instruct',
      'gpt-4o',
      'davinci-002',
      'claude-haiku-4-5',
    ]),
  ).toEqual(['claude-haiku-4-5', 'gpt-4o', 'llama-3.1-8b-instruct', 'qwen2.5:7b']);
});

test('a refresh keeps the user\'s own entries first (the default stays), and adds the new ones', () => {
  expect(mergeModels(['my-finetune', 'gpt-4o'], ['gpt-4.1', 'gpt-4o', 'o4-mini'])).toEqual(['my-finetune', 'gpt-4o', 'gpt-4.1', 'o4-mini']);
  expect(mergeModels([], ['b', 'a'])).toEqual(['b', 'a']);
});

import { adoptDefault, adoptedDefault, emptyChatModel } from '../../../src/core/settings/defaultModel';
import { loadSettings } from '../../../src/core/settings/settings';

// Issue 29 item 1: the first provider added becomes the default; an empty chat follows it.
const settingsWith = (providers: unknown[], defaultProviderId = 'local-openai', defaultModel = 'gpt-4o') =>
  loadSettings({ providers, defaultProviderId, defaultModel }).settings;

test('a default offered by no provider gives way to the first provider that lists a model', () => {
  const settings = settingsWith([
    { id: 'empty', kind: 'openai', models: [] },
    { id: 'ollama', kind: 'openai-compatible', baseUrl: 'http://localhost:11434/v1', models: ['llama3', 'qwen'] },
  ]);
  expect(adoptedDefault(settings)).toEqual({ provider: 'ollama', model: 'llama3' });
  expect(adoptDefault(settings)).toBe(true);
  expect([settings.defaultProviderId, settings.defaultModel]).toEqual(['ollama', 'llama3']);
  expect(adoptDefault(settings)).toBe(false);
});

test('a working default is kept; no provider with a model changes nothing', () => {
  expect(adoptedDefault(settingsWith([{ id: 'local-openai', kind: 'openai', models: ['gpt-4o-mini', 'gpt-4o'] }]))).toBeNull();
  expect(adoptedDefault(settingsWith([{ id: 'x', kind: 'openai', models: [] }]))).toBeNull();
  // The default provider without its model any more: its own first model.
  expect(adoptedDefault(settingsWith([{ id: 'a', kind: 'openai', models: ['m1'] }, { id: 'local-openai', kind: 'openai', models: ['gpt-4.1'] }]))).toEqual({ provider: 'local-openai', model: 'gpt-4.1' });
});

test('an empty chat on a provider that is not set up follows the default; one with messages does not', () => {
  const settings = settingsWith([{ id: 'ollama', kind: 'openai-compatible', baseUrl: 'http://x/v1', models: ['llama3'] }], 'ollama', 'llama3');
  expect(emptyChatModel(settings, { provider: 'local-openai', model: 'gpt-4o', messages: 0 })).toEqual({ provider: 'ollama', model: 'llama3' });
  expect(emptyChatModel(settings, { provider: 'local-openai', model: 'gpt-4o', messages: 2 })).toBeNull();
  expect(emptyChatModel(settings, { provider: 'ollama', model: 'llama3', messages: 0 })).toBeNull();
});

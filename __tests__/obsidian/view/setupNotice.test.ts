/** What the empty chat says before the user types: no provider, the chat's provider gone, no key, no base URL. */
import { loadSettings } from '../../../src/core/settings/settings';
import { setupProblem } from '../../../src/obsidian/view/setupNotice';

const secrets: Record<string, string> = { 'openai-key': 'sk-local-000000' };
const secret = (id: string) => secrets[id] ?? null;

function settings(providers: unknown[]) {
  return loadSettings({ providers }).settings;
}

test('each case in plain words; none when sending can work', () => {
  expect(setupProblem(settings([]), 'openai', secret)).toBe('No provider is set up: add one in settings.');
  const s = settings([
    { id: 'openai', kind: 'openai', name: 'OpenAI', models: ['gpt-4o'], secretId: 'openai-key' },
    { id: 'anthropic', kind: 'anthropic', name: 'Anthropic', models: ['claude-sonnet-4-5'], secretId: 'anthropic-key' },
    { id: 'ollama', kind: 'openai-compatible', name: 'Ollama', models: ['qwen2.5:7b'] },
    { id: 'lm', kind: 'openai-compatible', name: 'LM Studio', models: ['local'], baseUrl: 'http://localhost:1234/v1' },
    { id: 'cc', kind: 'claude-code', name: 'Claude Code', models: ['sonnet'] },
  ]);
  expect(setupProblem(s, 'openai', secret)).toBeNull();
  expect(setupProblem(s, 'anthropic', secret)).toBe('No API key for Anthropic: add one in settings.');
  expect(setupProblem(s, 'ollama', secret)).toBe('No base URL for Ollama: add one in settings.');
  expect(setupProblem(s, 'lm', secret)).toBeNull();
  expect(setupProblem(s, 'cc', secret)).toBeNull();
  expect(setupProblem(s, 'gone', secret)).toBe('This chat\'s provider "gone" is not set up: pick a model above, or add the provider in settings.');
});

import { adoptProvider, loadSettings } from '../../../src/core/settings/settings';

describe('adoptProvider: which configured provider an imported chat continues on', () => {
  const { settings } = loadSettings({
    providers: [
      { id: 'work-anthropic', kind: 'anthropic', name: 'Work', models: ['claude-sonnet-4-5', 'claude-haiku-4-5'], secretId: 'k1' },
      { id: 'local', kind: 'openai-compatible', name: 'Ollama', baseUrl: 'http://localhost:11434/v1', models: ['llama3.1'] },
    ],
    defaultProviderId: 'local',
    defaultModel: 'llama3.1',
  });

  it('matches by id, then by kind, keeping the model when the provider offers it', () => {
    expect(adoptProvider(settings, 'local', 'llama3.1')).toEqual({ provider: 'local', model: 'llama3.1' });
    expect(adoptProvider(settings, 'anthropic', 'claude-haiku-4-5')).toEqual({ provider: 'work-anthropic', model: 'claude-haiku-4-5' });
    expect(adoptProvider(settings, 'anthropic', 'claude-2')).toEqual({ provider: 'work-anthropic', model: 'claude-sonnet-4-5' });
  });

  it('falls back to the default provider and model for unknown providers', () => {
    expect(adoptProvider(settings, 'azure openai', 'gpt-4o')).toEqual({ provider: 'local', model: 'llama3.1' });
  });
});

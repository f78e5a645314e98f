import fc from 'fast-check';
import { DEFAULT_SETTINGS, loadSettings } from '../../src/core/settings';

describe('loadSettings', () => {
  test('missing data gives the defaults, with two providers and no warnings', () => {
    const { settings, warnings } = loadSettings(undefined);
    expect(warnings).toEqual([]);
    expect(settings.providers.map((p) => p.id)).toEqual(['openai', 'anthropic']);
    expect(settings.defaultProviderId).toBe('openai');
    // The defaults are not shared: editing one load does not change the next.
    settings.providers[0].models.push('x');
    expect(loadSettings(undefined).settings.providers[0].models).not.toContain('x');
    expect(DEFAULT_SETTINGS.providers[0].models).not.toContain('x');
  });

  test('good provider fields are kept; bad ones fall back with a warning, never an exception', () => {
    const { settings, warnings } = loadSettings({
      providers: [
        { id: 'ollama', kind: 'openai-compatible', name: 'Ollama', baseUrl: 'http://localhost:11434/v1', models: ['llama3.1', 7, 'llama3.1'] },
        { id: 'Bad Id', kind: 'openai', models: [] },
        { id: 'x', kind: 'gemini' },
        'nope',
        { id: 'ollama', kind: 'openai', models: [] },
        { id: 'claude', kind: 'claude-code', models: ['sonnet'], cwd: 42, executable: '/usr/bin/claude' },
      ],
      defaultProviderId: 'missing',
      defaultMode: 'agent',
      rendering: 'fancy',
      contextWindows: { 'llama3.1': 131072, bad: -1 },
      apiKey: 'sk-should-not-be-read',
    });
    expect(settings.providers).toEqual([
      { id: 'ollama', kind: 'openai-compatible', name: 'Ollama', baseUrl: 'http://localhost:11434/v1', models: ['llama3.1'] },
      { id: 'claude', kind: 'claude-code', name: 'claude', models: ['sonnet'], executable: '/usr/bin/claude' },
    ]);
    expect(settings.defaultProviderId).toBe('ollama');
    expect(settings.defaultMode).toBe('chat');
    expect(settings.rendering).toBe('transcript');
    expect(settings.contextWindows).toEqual({ 'llama3.1': 131072 });
    const text = warnings.join('\n');
    for (const expected of ['providers[0].models', 'providers[1].id', 'providers[2].kind', 'providers[3]', 'duplicate id "ollama"', 'providers[5].cwd', 'defaultProviderId', 'defaultMode', 'rendering', 'contextWindows.bad', 'apiKey']) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('sk-should-not-be-read');
    expect(JSON.stringify(settings)).not.toContain('sk-should-not-be-read');
  });

  test('any JSON value loads without throwing and yields usable settings', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (raw) => {
        const { settings } = loadSettings(raw);
        expect(typeof settings.defaultModel).toBe('string');
        expect(Array.isArray(settings.providers)).toBe(true);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.dictionary(fc.constantFrom('providers', 'defaultProviderId', 'contextWindows', 'attachActiveNote', 'chatFolder'), fc.jsonValue()), (raw) => {
        expect(() => loadSettings(raw)).not.toThrow();
      }),
      { numRuns: 500 },
    );
  });
});

import fc from 'fast-check';
import { DEFAULT_BUDGET_SETTINGS } from '../../../src/core/settings/budgetSettings';
import { budgetSettingsOf, defaultSettings, loadSettings, summaryTarget, type StrataSettings } from '../../../src/core/settings/settings';

describe('loadSettings', () => {
  test('missing data gives the defaults, with two providers and no warnings', () => {
    const { settings, warnings } = loadSettings(undefined);
    expect(warnings).toEqual([]);
    expect(settings.providers.map((p) => p.id)).toEqual(['openai', 'anthropic']);
    expect(settings.defaultProviderId).toBe('openai');
    // The defaults are not shared: editing one load does not change the next.
    settings.providers[0].models.push('x');
    expect(loadSettings(undefined).settings.providers[0].models).not.toContain('x');
    expect(defaultSettings().providers[0].models).not.toContain('x');
  });

  test('good provider fields are kept; bad ones fall back with a warning, never an exception', () => {
    const { settings, warnings } = loadSettings({
      providers: [
        { id: 'ollama', kind: 'openai-compatible', name: 'Ollama', baseUrl: 'http://localhost:11434/v1', models: ['llama3.1', 7, 'llama3.1'] },
        { id: 'Bad Id', kind: 'openai', models: [] },
        { id: 'x', kind: 'bard' }, // not a provider kind
        'nope',
        { id: 'ollama', kind: 'openai', models: [] },
        { id: 'claude', kind: 'claude-code', models: ['sonnet'], cwd: 42, executable: '/usr/bin/claude' },
      ],
      defaultProviderId: 'missing',
      defaultMode: 'autopilot',
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

describe('settings schema: each kind of damage falls back to a default with a warning that says where, what and instead', () => {
  const cases: Array<[string, Record<string, unknown>, string[], (s: StrataSettings) => unknown, unknown]> = [
    ['not an object', [] as unknown as Record<string, unknown>, ['the settings: expected an object; the defaults are used'], (s) => s, defaultSettings()],
    ['blank default model', { defaultModel: ' ' }, ['defaultModel: expected non-empty text; "gpt-4o" is used'], (s) => s.defaultModel, 'gpt-4o'],
    ['system prompt not text', { systemPrompt: 3 }, ['systemPrompt: expected text; "" is used'], (s) => s.systemPrompt, ''],
    ['unknown freshness policy', { freshness: 'always' }, ['freshness: expected one of fresh, fresh-attached, stable; "fresh" is used'], (s) => s.freshness, 'fresh'],
    ['attachActiveNote not a boolean', { attachActiveNote: 'yes' }, ['attachActiveNote: expected true or false; true is used'], (s) => s.attachActiveNote, true],
    ['context windows not an object', { contextWindows: [1] }, ['contextWindows: expected an object; ignored'], (s) => s.contextWindows, {}],
    ['a fractional context window', { contextWindows: { b: 1.5, a: 8000 } }, ['contextWindows.b: expected a whole number; ignored'], (s) => Object.entries(s.contextWindows), [['a', 8000]]],
    ['max context tokens too small', { maxContextTokens: 10 }, ['maxContextTokens: expected a number ≥ 1000; the default is used'], (s) => s.maxContextTokens, 100_000],
    ['reserved output negative', { reservedOutputTokens: -1 }, ['reservedOutputTokens: expected a number ≥ 1; the default is used'], (s) => s.reservedOutputTokens, 4_096],
    ['threshold out of range', { condenseThreshold: 1.2 }, ['condenseThreshold: expected a number ≤ 0.95; the default is used'], (s) => s.condenseThreshold, 0.8],
    ['threshold as text', { condenseThreshold: '80%' }, ['condenseThreshold: expected a number; the default is used'], (s) => s.condenseThreshold, 0.8],
    ['kept messages fractional', { keepMessages: 2.5 }, ['keepMessages: expected a whole number; the default is used'], (s) => s.keepMessages, 4],
    ['max code lines too small', { maxCodeLines: 0 }, ['maxCodeLines: expected a number ≥ 10; the default is used'], (s) => s.maxCodeLines, 500],
    ['auto-condense not a boolean', { autoCondense: 'on' }, ['autoCondense: expected true or false; true is used'], (s) => s.autoCondense, true],
    ['summary model not text', { summaryModel: 4 }, ['summaryModel: expected text; "" is used'], (s) => s.summaryModel, ''],
    ['providers not a list', { providers: { id: 'x' } }, ['providers: expected a list; the default providers are used'], (s) => s.providers.map((p) => p.id), ['openai', 'anthropic']],
    ['provider name blank', { providers: [{ id: 'p', kind: 'openai', name: ' ', models: ['m'] }] }, ['providers[0].name: expected non-empty text; the id is used'], (s) => s.providers[0].name, 'p'],
    ['provider models not a list', { providers: [{ id: 'p', kind: 'openai', models: 'm' }] }, ['providers[0].models: expected a list; no models are listed'], (s) => s.providers[0].models, []],
    ['provider base URL not text', { providers: [{ id: 'p', kind: 'openai', baseUrl: 1, secretId: '' }] }, ['providers[0].baseUrl: expected text; ignored'], (s) => s.providers[0], { id: 'p', kind: 'openai', name: 'p', models: [] }],
  ];

  test.each(cases)('%s', (_name, raw, warnings, pick, expected) => {
    const load = loadSettings(raw);
    expect(load.warnings).toEqual(warnings);
    expect(pick(load.settings)).toEqual(expected);
  });

  test('model names are trimmed and listed once', () => {
    const { settings, warnings } = loadSettings({ providers: [{ id: 'p', kind: 'openai', models: [' a ', 'a', 'b'] }] });
    expect(warnings).toEqual([]);
    expect(settings.providers[0].models).toEqual(['a', 'b']);
  });

  test('whatever loads is clean: saved and loaded again, it gives no warnings and no change', () => {
    const field = fc.constantFrom('providers', 'defaultProviderId', 'defaultModel', 'defaultMode', 'contextWindows', 'attachActiveNote', 'chatFolder', 'rendering');
    const provider = fc.record(
      { id: fc.constantFrom('a', 'b', 'Bad'), kind: fc.constantFrom('openai', 'claude-code', 'x'), name: fc.jsonValue(), models: fc.jsonValue(), cwd: fc.jsonValue() },
      { requiredKeys: [] },
    );
    const value = fc.oneof(fc.jsonValue(), fc.array(fc.oneof(provider, fc.jsonValue()), { maxLength: 4 }));
    fc.assert(
      fc.property(fc.dictionary(field, value), (raw) => {
        const first = loadSettings(raw).settings;
        const again = loadSettings(JSON.parse(JSON.stringify(first)));
        expect(again.warnings).toEqual([]);
        expect(again.settings).toEqual(first);
      }),
      { numRuns: 500 },
    );
  });
});

describe('the summary model', () => {
  const settings = loadSettings({
    providers: [
      { id: 'openai', kind: 'openai', models: ['gpt-4o', 'gpt-4o-mini'] },
      { id: 'router', kind: 'openai-compatible', baseUrl: 'https://openrouter.ai/api/v1', models: ['openai/gpt-4o-mini'] },
    ],
  }).settings;

  test("empty: the chat's own provider and model", () => {
    expect(summaryTarget({ ...settings, summaryModel: '' }, 'router', 'openai/gpt-4o-mini')).toEqual({ provider: 'router', model: 'openai/gpt-4o-mini' });
  });

  test('provider/model picks that provider; a model name with a slash stays on the chat\'s provider unless its first part is a configured provider', () => {
    expect(summaryTarget({ ...settings, summaryModel: 'openai/gpt-4o-mini' }, 'router', 'x')).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
    expect(summaryTarget({ ...settings, summaryModel: 'anthropic/claude-haiku' }, 'router', 'x')).toEqual({ provider: 'router', model: 'anthropic/claude-haiku' });
    expect(summaryTarget({ ...settings, summaryModel: 'gpt-4o-mini' }, 'openai', 'gpt-4o')).toEqual({ provider: 'openai', model: 'gpt-4o-mini' });
  });

  test('the budget settings are read out of the plugin settings as they are', () => {
    const s = loadSettings({ maxContextTokens: 50_000, condenseThreshold: 0.7, summarize: false }).settings;
    expect(budgetSettingsOf(s)).toEqual({ ...DEFAULT_BUDGET_SETTINGS, maxContextTokens: 50_000, condenseThreshold: 0.7, summarize: false });
  });
});

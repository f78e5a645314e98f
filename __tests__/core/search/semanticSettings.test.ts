import { defaultSettings, loadSettings } from '../../../src/core/settings/settings';
import { embeddingTarget } from '../../../src/core/search/semanticSettings';

test('semantic search is off by default, with text-embedding-3-small on OpenAI as the model', () => {
  const settings = defaultSettings();
  expect(settings.semanticSearch).toBe(false);
  expect(settings.embeddingModel).toBe('openai/text-embedding-3-small');
  expect(settings.embeddingBatchSize).toBe(64);
  expect(embeddingTarget(settings)).toMatchObject({ ok: true, provider: { id: 'openai' }, model: 'text-embedding-3-small', batchSize: 64 });
});

test('bad stored values fall back with a warning naming the field', () => {
  const { settings, warnings } = loadSettings({ semanticSearch: 'yes', embeddingModel: 42, embeddingBatchSize: 0 });
  expect(settings.semanticSearch).toBe(false);
  expect(settings.embeddingModel).toBe('openai/text-embedding-3-small');
  expect(settings.embeddingBatchSize).toBe(64);
  expect(warnings.join('\n')).toMatch(/semanticSearch/);
  expect(warnings.join('\n')).toMatch(/embeddingModel/);
  expect(warnings.join('\n')).toMatch(/embeddingBatchSize/);
  expect(loadSettings({ semanticSearch: true, embeddingBatchSize: 16 }).settings).toMatchObject({ semanticSearch: true, embeddingBatchSize: 16 });
});

test('the embedding model is read leniently: provider/model, a bare name on the default provider, unknown prefixes kept in the name', () => {
  const settings = defaultSettings();
  settings.providers.push({ id: 'ollama', kind: 'openai-compatible', name: 'Ollama', models: [], baseUrl: 'http://localhost:11434/v1' });
  settings.embeddingModel = ' ollama/nomic-embed-text ';
  expect(loadSettings(settings).settings.embeddingModel).toBe('ollama/nomic-embed-text');
  expect(embeddingTarget(loadSettings(settings).settings)).toMatchObject({ ok: true, provider: { id: 'ollama' }, model: 'nomic-embed-text' });
  settings.embeddingModel = 'text-embedding-3-large';
  expect(embeddingTarget(settings)).toMatchObject({ ok: true, provider: { id: 'openai' }, model: 'text-embedding-3-large' });
  settings.embeddingModel = 'library/mxbai-embed-large';
  expect(embeddingTarget(settings)).toMatchObject({ ok: true, provider: { id: 'openai' }, model: 'library/mxbai-embed-large' });
  settings.embeddingModel = 'anthropic/claude-haiku-4-5';
  expect(embeddingTarget(settings)).toEqual({ ok: false, problem: expect.stringMatching(/anthropic has no embeddings API/) });
  settings.embeddingModel = '';
  expect(embeddingTarget(settings)).toEqual({ ok: false, problem: 'No embedding model is set.' });
});

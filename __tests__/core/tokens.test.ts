import { encodingForModel } from '../../src/core/tokens/encodings';
import { DEFAULT_MODEL_WINDOW, modelWindow } from '../../src/core/tokens/modelWindows';
import { countMessagesTokens, estimateTokens, tokenCounterFor } from '../../src/core/tokens/tokenCounter';

describe('token counting', () => {
  it('picks o200k for gpt-4o-class and newer, cl100k for older, an estimate otherwise', () => {
    expect(encodingForModel('gpt-4o')).toBe('o200k_base');
    expect(encodingForModel('openai/gpt-4o-mini-2024-07-18')).toBe('o200k_base');
    expect(encodingForModel('gpt-5')).toBe('o200k_base');
    expect(encodingForModel('o3-mini')).toBe('o200k_base');
    expect(encodingForModel('gpt-4-turbo')).toBe('cl100k_base');
    expect(encodingForModel('gpt-3.5-turbo')).toBe('cl100k_base');
    expect(encodingForModel('claude-sonnet-4')).toBe('estimate');
    expect(encodingForModel('llama3.1:8b')).toBe('estimate');
  });

  it('counts with the real tokenizers (known values)', () => {
    expect(tokenCounterFor('gpt-4o').count('hello world')).toBe(2);
    expect(tokenCounterFor('gpt-4').count('hello world')).toBe(2);
    // o200k and cl100k split this differently: the encodings are really different.
    const text = 'Obsidian vaults hold Markdown notes; Strata sends them to the model.';
    expect(tokenCounterFor('gpt-4o').encode(text)).not.toEqual(tokenCounterFor('gpt-4').encode(text));
  });

  it('treats special-token text in notes as plain text instead of throwing', () => {
    const counter = tokenCounterFor('gpt-4o');
    expect(counter.count('<|endoftext|>')).toBeGreaterThan(1);
  });

  it('memoises by content: the same long text counts once and gives the same answer', () => {
    const counter = tokenCounterFor('gpt-4o');
    const text = 'lorem ipsum '.repeat(500);
    const first = counter.count(text);
    expect(counter.count(`${text}`)).toBe(first);
    expect(first).toBeGreaterThan(500);
  });

  it('estimates unknown families by characters', () => {
    expect(estimateTokens('abcd'.repeat(100))).toBe(100);
    expect(tokenCounterFor('mystery-model').count('abcd'.repeat(100))).toBe(100);
    expect(estimateTokens('日本語のテキスト')).toBeGreaterThan(4);
  });

  it('adds chat framing per message', () => {
    const counter = tokenCounterFor('gpt-4o');
    expect(countMessagesTokens(counter, ['hello world', 'hello world'])).toBe(3 + 2 * (3 + 2));
  });
});

describe('model context windows', () => {
  it('matches by the longest substring, case-insensitively', () => {
    expect(modelWindow('gpt-4o-mini').contextWindow).toBe(128_000);
    expect(modelWindow('GPT-4').contextWindow).toBe(8_192);
    expect(modelWindow('gpt-4-turbo-preview').contextWindow).toBe(128_000);
    expect(modelWindow('anthropic/claude-sonnet-4-5').maxOutput).toBe(64_000);
  });

  it('falls back to a default and honours user overrides', () => {
    expect(modelWindow('my-local-model')).toEqual(DEFAULT_MODEL_WINDOW);
    expect(modelWindow('my-local-model', { 'my-local-model': { contextWindow: 8192 } }).contextWindow).toBe(8192);
    expect(modelWindow('qwen2.5:14b-instruct', { 'QWEN2.5': { contextWindow: 131072 } }).contextWindow).toBe(131072);
  });
});

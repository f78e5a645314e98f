import { encodingForModel } from '../../../src/core/tokens/encodings';
import { DEFAULT_MODEL_WINDOW, modelWindow } from '../../../src/core/tokens/modelWindows';
import { countMessagesTokens, estimateTokens, tokenCounterFor } from '../../../src/core/tokens/tokenCounter';

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

describe('long runs the tokenizer keeps as one piece', () => {
  // js-tiktoken merges a piece in time quadratic (or worse) in its length: 20,000 × "x" would take
  // minutes. The counter encodes such runs in short chunks; these tests would time out without it.
  /* eslint-disable @typescript-eslint/no-require-imports -- the tokenizer itself, to decode what the counter encoded */
  const lite = require('js-tiktoken/lite') as typeof import('js-tiktoken/lite');
  const ranks = require('js-tiktoken/ranks/o200k_base') as { default?: import('js-tiktoken/lite').TiktokenBPE } & import('js-tiktoken/lite').TiktokenBPE;
  /* eslint-enable @typescript-eslint/no-require-imports -- end */
  const tokenizer = new lite.Tiktoken(ranks.default ?? ranks);
  const counter = tokenCounterFor('gpt-4o');

  it('counts a note with a 20,000-letter line and a 20,000-dash line', () => {
    const note = `# Log\n\n${'x'.repeat(20_000)}\n\n${'-'.repeat(20_000)}\n\nThe end.`;
    const ids = counter.encode(note);
    expect(tokenizer.decode(ids)).toBe(note); // nothing lost or changed
    // The letters merge as they do unchunked (8 per token); chunking adds at most a token per 64 characters.
    expect(ids.length).toBeGreaterThan(20_000 / 8);
    expect(ids.length).toBeLessThan(20_000 / 8 + 20_000 / 64 + 20_000 / 64 + 20);
  });

  it('never cuts a character in two (a long run of emoji)', () => {
    const text = `Mood: ${'😀'.repeat(400)} done`;
    expect(tokenizer.decode(counter.encode(text))).toBe(text);
  });

  it('leaves ordinary text exactly as the tokenizer encodes it', () => {
    const text = `${'The plan for the week, with seeds and soil. '.repeat(200)}\n| a | b |\n|---|---|\n${'word '.repeat(300)}`;
    expect(counter.encode(text)).toEqual(tokenizer.encode(text, [], []));
  });
});

describe('model context windows', () => {
  it('matches by the longest substring, case-insensitively', () => {
    expect(modelWindow('gpt-4o-mini').contextWindow).toBe(128_000);
    expect(modelWindow('GPT-4').contextWindow).toBe(8_192);
    expect(modelWindow('gpt-4-turbo-preview').contextWindow).toBe(128_000);
    expect(modelWindow('anthropic/claude-sonnet-4-5').maxOutput).toBe(64_000);
  });

  it.each([
    // OpenAI
    ['gpt-5-mini', 400_000],
    ['gpt-4.1-nano', 1_047_576],
    ['o1-mini', 128_000],
    ['o3-mini', 200_000],
    // Anthropic
    ['claude-sonnet-4-5-20250929', 200_000],
    ['claude-haiku-4-5', 200_000],
    ['claude-opus-4-1-20250805', 200_000],
    ['claude-sonnet-4-6', 1_000_000],
    ['claude-sonnet-5', 1_000_000],
    // Google
    ['gemini-2.5-pro', 1_048_576],
    ['gemini-2.0-flash', 1_048_576],
    ['gemini-1.5-pro-latest', 2_097_152],
    // DeepSeek (issue 27: deepseek-coder is 64k, not the 32k default)
    ['deepseek-coder', 64_000],
    ['deepseek-coder-v2:16b', 128_000],
    ['deepseek-chat', 128_000],
    ['deepseek-r1:14b', 128_000],
    // Meta
    ['llama3:8b', 8_192],
    ['llama3.1:8b', 131_072],
    ['meta-llama/llama-3.3-70b-instruct', 131_072],
    ['llama-3-70b', 8_192],
    ['llama4:scout', 1_048_576],
    // Qwen
    ['qwen2.5:14b-instruct', 32_768],
    ['qwen3:8b', 32_768],
    // Mistral
    ['mistral:7b', 32_000],
    ['mistral-large-latest', 131_072],
    ['codestral-latest', 256_000],
  ])('knows the window of %s (%i tokens)', (model, window) => {
    expect(modelWindow(model).contextWindow).toBe(window);
    expect(modelWindow(model).maxOutput).toBeLessThan(window);
  });

  it('falls back to a default and honours user overrides', () => {
    expect(modelWindow('my-local-model')).toEqual(DEFAULT_MODEL_WINDOW);
    expect(modelWindow('my-local-model', { 'my-local-model': { contextWindow: 8192 } }).contextWindow).toBe(8192);
    expect(modelWindow('qwen2.5:14b-instruct', { 'QWEN2.5': { contextWindow: 131072 } }).contextWindow).toBe(131072);
  });
});

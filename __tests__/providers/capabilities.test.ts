import { capabilitiesFor } from '../../src/providers/capabilities';
import type { ProviderConfig } from '../../src/core/ports/chatModel';

const config = (kind: ProviderConfig['kind'], model: string, baseUrl?: string): ProviderConfig => ({ id: 'x', kind, model, baseUrl });

describe('capabilitiesFor', () => {
  test('OpenAI Chat Completions: stateless, automatic prefix caching, window from modelWindow', () => {
    expect(capabilitiesFor(config('openai', 'gpt-4o-mini'))).toEqual({
      sessionResumption: false,
      caching: 'automatic-prefix',
      streaming: true,
      toolCalling: true,
      images: true,
      contextWindow: 128_000,
      maxOutput: 16_384,
    });
  });

  test('OpenAI Responses resumes sessions', () => {
    const caps = capabilitiesFor(config('openai-responses', 'gpt-4.1'));
    expect(caps).toMatchObject({ sessionResumption: true, caching: 'automatic-prefix', contextWindow: 1_047_576 });
  });

  test('Anthropic: explicit breakpoints', () => {
    expect(capabilitiesFor(config('anthropic', 'claude-sonnet-4-20250514'))).toMatchObject({
      sessionResumption: false,
      caching: 'explicit-breakpoints',
      images: true,
      contextWindow: 200_000,
      maxOutput: 64_000,
    });
  });

  test('Claude Code: a session-stateful provider that caches by itself', () => {
    expect(capabilitiesFor(config('claude-code', 'claude-sonnet-4'))).toMatchObject({ sessionResumption: true, toolCalling: false });
  });

  test('Codex CLI: session-stateful too (exec resume), text only', () => {
    expect(capabilitiesFor(config('codex', 'gpt-5-codex'))).toMatchObject({ sessionResumption: true, toolCalling: false, images: false, caching: 'automatic-prefix' });
  });

  test('OpenAI-compatible: no caching promised for unknown endpoints; known caching hosts say so', () => {
    expect(capabilitiesFor(config('openai-compatible', 'llama3.1:8b', 'http://localhost:11434/v1')).caching).toBe('none');
    expect(capabilitiesFor(config('openai-compatible', 'deepseek-chat', 'https://api.deepseek.com/v1')).caching).toBe('automatic-prefix');
    expect(capabilitiesFor(config('openai-compatible', 'x', 'https://openrouter.ai/api/v1')).caching).toBe('automatic-prefix');
    expect(capabilitiesFor(config('openai-compatible', 'x', 'not a url')).caching).toBe('none');
  });

  test('images follow the model name; overrides correct the record', () => {
    expect(capabilitiesFor(config('openai-compatible', 'llava:13b', 'http://localhost:11434/v1')).images).toBe(true);
    expect(capabilitiesFor(config('openai-compatible', 'qwen2.5:7b', 'http://localhost:11434/v1')).images).toBe(false);
    const tuned = capabilitiesFor(config('openai-compatible', 'my-model', 'http://localhost:8080/v1'), { 'my-model': { contextWindow: 65_536 } }, { caching: 'automatic-prefix' });
    expect(tuned).toMatchObject({ contextWindow: 65_536, caching: 'automatic-prefix' });
  });
});

import { longestSubstringMatch as longestMatch, lowerKeys } from '../nameMatch';

/** Context window (input + output) in tokens, matched by substring of the model name. */
export interface ModelWindow {
  contextWindow: number;
  maxOutput: number;
}

// Longest pattern wins, so "gpt-4o-mini" beats "gpt-4o" and "gpt-4" regardless of order. Figures from
// the providers' model pages (checked 27 Nov 2026); a local runtime (Ollama's num_ctx, LM Studio) may
// serve less than the model's window: correct it under Settings → Context → Model window sizes.
const TABLE: Readonly<Record<string, ModelWindow>> = {
  // OpenAI
  'gpt-5': { contextWindow: 400_000, maxOutput: 128_000 },
  'gpt-4.1': { contextWindow: 1_047_576, maxOutput: 32_768 },
  'gpt-4o': { contextWindow: 128_000, maxOutput: 16_384 },
  'gpt-4o-mini': { contextWindow: 128_000, maxOutput: 16_384 },
  'gpt-4-turbo': { contextWindow: 128_000, maxOutput: 4_096 },
  'gpt-4': { contextWindow: 8_192, maxOutput: 4_096 },
  'gpt-3.5-turbo': { contextWindow: 16_385, maxOutput: 4_096 },
  'gpt-oss': { contextWindow: 131_072, maxOutput: 32_768 },
  o1: { contextWindow: 200_000, maxOutput: 100_000 },
  'o1-mini': { contextWindow: 128_000, maxOutput: 65_536 },
  o3: { contextWindow: 200_000, maxOutput: 100_000 },
  'o4-mini': { contextWindow: 200_000, maxOutput: 100_000 },
  'codex-mini': { contextWindow: 200_000, maxOutput: 100_000 },
  // Anthropic: 200k for the 3.x and 4.0-4.5 families; the 4.6 and 5.x models have a 1M window.
  claude: { contextWindow: 200_000, maxOutput: 8_192 },
  'claude-3-7-sonnet': { contextWindow: 200_000, maxOutput: 64_000 },
  'claude-sonnet-4': { contextWindow: 200_000, maxOutput: 64_000 },
  'claude-sonnet-4-6': { contextWindow: 1_000_000, maxOutput: 64_000 },
  'claude-opus-4': { contextWindow: 200_000, maxOutput: 32_000 },
  'claude-opus-4-5': { contextWindow: 200_000, maxOutput: 64_000 },
  'claude-opus-4-6': { contextWindow: 1_000_000, maxOutput: 128_000 },
  'claude-3-5-haiku': { contextWindow: 200_000, maxOutput: 8_192 },
  'claude-haiku-4': { contextWindow: 200_000, maxOutput: 64_000 },
  'claude-sonnet-5': { contextWindow: 1_000_000, maxOutput: 128_000 },
  'claude-opus-5': { contextWindow: 1_000_000, maxOutput: 128_000 },
  // Google
  gemini: { contextWindow: 1_048_576, maxOutput: 8_192 },
  'gemini-1.5-pro': { contextWindow: 2_097_152, maxOutput: 8_192 },
  'gemini-2.0': { contextWindow: 1_048_576, maxOutput: 8_192 },
  'gemini-2.5': { contextWindow: 1_048_576, maxOutput: 65_536 },
  'gemini-3': { contextWindow: 1_048_576, maxOutput: 65_536 },
  // DeepSeek: the API's V3.1+ models have a 128k window; the API's old deepseek-coder alias served 64k;
  // DeepSeek-Coder-V2 (local) has 128k.
  'deepseek-chat': { contextWindow: 128_000, maxOutput: 8_192 },
  'deepseek-reasoner': { contextWindow: 128_000, maxOutput: 65_536 },
  'deepseek-coder': { contextWindow: 64_000, maxOutput: 8_192 },
  'deepseek-coder-v2': { contextWindow: 128_000, maxOutput: 8_192 },
  'deepseek-r1': { contextWindow: 128_000, maxOutput: 32_768 },
  'deepseek-v3': { contextWindow: 128_000, maxOutput: 8_192 },
  // Meta: Llama 3 had 8k; 3.1, 3.2 and 3.3 have 128k; Llama 4 1M and more (served with less).
  'llama-3': { contextWindow: 8_192, maxOutput: 2_048 },
  llama3: { contextWindow: 8_192, maxOutput: 2_048 },
  'llama-3.1': { contextWindow: 131_072, maxOutput: 4_096 },
  'llama-3.2': { contextWindow: 131_072, maxOutput: 4_096 },
  'llama-3.3': { contextWindow: 131_072, maxOutput: 4_096 },
  'llama3.1': { contextWindow: 131_072, maxOutput: 4_096 },
  'llama3.2': { contextWindow: 131_072, maxOutput: 4_096 },
  'llama3.3': { contextWindow: 131_072, maxOutput: 4_096 },
  'llama-4': { contextWindow: 1_048_576, maxOutput: 8_192 },
  llama4: { contextWindow: 1_048_576, maxOutput: 8_192 },
  // Qwen: 32k native (128k only with YaRN, which runtimes leave off); Qwen2.5-Turbo 1M.
  'qwen2.5': { contextWindow: 32_768, maxOutput: 8_192 },
  'qwen2.5-turbo': { contextWindow: 1_000_000, maxOutput: 8_192 },
  qwen3: { contextWindow: 32_768, maxOutput: 8_192 },
  // Mistral: the 7B has 32k; Large (2) and Small 3.1+ 128k; Codestral 256k.
  mistral: { contextWindow: 32_000, maxOutput: 8_192 },
  'mistral-large': { contextWindow: 131_072, maxOutput: 8_192 },
  'mistral-small': { contextWindow: 131_072, maxOutput: 8_192 },
  'mistral-medium': { contextWindow: 131_072, maxOutput: 8_192 },
  codestral: { contextWindow: 256_000, maxOutput: 8_192 },
};

export const DEFAULT_MODEL_WINDOW: ModelWindow = { contextWindow: 32_000, maxOutput: 4_096 };

/**
 * Window for a model: a user override (exact name, then substring) wins, then the longest matching
 * table entry, then the default.
 */
export function modelWindow(model: string, overrides: Readonly<Record<string, Partial<ModelWindow>>> = {}): ModelWindow {
  const name = model.toLowerCase();
  const base = longestMatch(name, TABLE) ?? DEFAULT_MODEL_WINDOW;
  const override = overrides[model] ?? longestMatch(name, lowerKeys(overrides));
  return override ? { ...base, ...override } : base;
}


/**
 * Window overrides as typed in settings, one `model = tokens` (or `model: tokens`) per line; other
 * lines are ignored. Parsed without a regex over the whole line: `^\s*(.+?)\s*[=:]\s*(\d+)\s*$`
 * backtracked cubically on a long run of whitespace.
 */
export function parseWindows(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split('\n')) {
    const trimmed = line.trim();
    // The first `=` or `:` followed only by digits: each candidate scans only up to the next one.
    const at = trimmed.search(/[=:]\s*\d+$/);
    if (at < 0) continue;
    const model = trimmed.slice(0, at).trimEnd();
    if (model) out[model] = Number(trimmed.slice(at + 1).trim());
  }
  return out;
}

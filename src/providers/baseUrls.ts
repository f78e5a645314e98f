import { trimTrailingSlashes } from '../core/trim';

/**
 * The providers' default endpoints, apart from the LangChain clients (chatModels.ts): the model
 * list and embeddings read them without loading LangChain, which the plugin loads on the first
 * chat call only (createProvider.ts).
 */
export const OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const GEMINI_BASE_URL = 'https://generativelanguage.googleapis.com';

/** Gemini's base URL is the host (the SDK adds /v1beta); a pasted ".../v1beta" is taken off. */
export function geminiBaseUrl(baseUrl: string | undefined): string {
  return trimTrailingSlashes(baseUrl ?? GEMINI_BASE_URL).replace(/\/v1(beta)?$/, '');
}

/** Anthropic's base URL is the host; people often paste the OpenAI-style ".../v1". */
export function anthropicBaseUrl(baseUrl: string | undefined): string {
  return trimTrailingSlashes(baseUrl ?? ANTHROPIC_BASE_URL).replace(/\/v1$/, '');
}

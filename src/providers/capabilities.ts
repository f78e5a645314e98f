import { modelWindow, type ModelWindow } from '../core/tokens/modelWindows';
import type { Capabilities, CachingKind, ProviderConfig } from '../core/ports/chatModel';

/**
 * OpenAI-compatible hosts known to cache prompt prefixes automatically (and report cached tokens
 * in prompt_tokens_details). Unknown endpoints (Ollama, LM Studio, llama.cpp, vLLM) may keep a KV
 * cache, but report nothing: 'none' so the UI does not promise savings it cannot show.
 */
const AUTO_CACHING_HOSTS = ['api.openai.com', 'api.deepseek.com', 'openrouter.ai', 'api.x.ai', 'api.groq.com'];

/** Model names that accept image input. */
const VISION_PATTERN = /gpt-4o|gpt-4\.1|gpt-5|o1|o3|o4|claude-(3|sonnet|opus|haiku)|vision|llava|-vl\b|-vl-|gemini|pixtral|gemma3/i;

/** Families that cannot take tools (too old or too small to follow the protocol). */
const NO_TOOLS_PATTERN = /gpt-3\.5-turbo-instruct|o1-mini|o1-preview/i;

function hostOf(baseUrl: string | undefined): string | undefined {
  if (!baseUrl) return undefined;
  try {
    return new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

function compatCaching(config: ProviderConfig): CachingKind {
  const host = hostOf(config.baseUrl);
  return host && AUTO_CACHING_HOSTS.some((known) => host === known || host.endsWith(`.${known}`)) ? 'automatic-prefix' : 'none';
}

/**
 * What a configured provider/model can do. Window sizes come from modelWindow() (with the user's
 * overrides); `overrides` lets settings correct anything else for a model the table gets wrong.
 */
export function capabilitiesFor(
  config: ProviderConfig,
  windowOverrides: Readonly<Record<string, Partial<ModelWindow>>> = {},
  overrides: Partial<Capabilities> = {},
): Capabilities {
  const window = modelWindow(config.model, windowOverrides);
  const images = VISION_PATTERN.test(config.model);
  const toolCalling = !NO_TOOLS_PATTERN.test(config.model);
  const base = { contextWindow: window.contextWindow, maxOutput: window.maxOutput, streaming: true };
  let caps: Capabilities;
  switch (config.kind) {
    case 'openai':
      caps = { ...base, sessionResumption: false, caching: 'automatic-prefix', toolCalling, images };
      break;
    case 'openai-responses':
      caps = { ...base, sessionResumption: true, caching: 'automatic-prefix', toolCalling, images };
      break;
    case 'openai-compatible':
      caps = { ...base, sessionResumption: false, caching: compatCaching(config), toolCalling, images };
      break;
    case 'anthropic':
      caps = { ...base, sessionResumption: false, caching: 'explicit-breakpoints', toolCalling: true, images: true };
      break;
    case 'gemini':
      // Implicit prefix caching on 2.5 and later, plus explicit cachedContents (./gemini/explicitCache.ts).
      caps = { ...base, sessionResumption: false, caching: 'automatic-prefix', toolCalling: true, images: true };
      break;
    case 'claude-code':
      // The CLI places its own cache breakpoints and runs its own tools; Strata only sees text.
      caps = { ...base, sessionResumption: true, caching: 'automatic-prefix', toolCalling: false, images: false };
      break;
    case 'codex':
      // Likewise: the thread lives in the CLI (exec resume), OpenAI caches its prefix, Strata sees text.
      caps = { ...base, sessionResumption: true, caching: 'automatic-prefix', toolCalling: false, images: false };
      break;
  }
  return { ...caps, ...overrides };
}

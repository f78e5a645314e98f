import type { ModelWindow } from '../core/tokens/modelWindows';
import type { ClaudeCodeDeps } from './claudeCode/index';
import type { CodexDeps } from './codex/index';
import { capabilitiesFor } from './capabilities';
import { explicitCachePays, geminiCacheMinTokens } from './gemini/cachePolicy';
import { GeminiExplicitCache } from './gemini/explicitCache';
import { priceOf } from './pricing';
import { tokenCounterFor } from '../core/tokens/tokenCounter';
import { buildError, type FailureContext } from './classify';
import { DEFAULT_RETRY_POLICY, type RetryPolicy } from './retry';
import { DEFAULT_TIMERS, makeSleep, type Sleep, type Timers } from '../core/timers';
import type { Capabilities, ChatProvider, ChatRequest, ChatResult, ProviderConfig, ProviderKind } from '../core/ports/chatModel';

/** What a provider needs from its host (the plugin, a test, the demo). */
export interface ProviderDeps {
  /** Looks up an API key by the config's secretId (Obsidian SecretStorage in the plugin). */
  getSecret(id: string): string | null | Promise<string | null>;
  /**
   * fetch for normal calls (streaming); default: the window's. Node hosts should pass theirs
   * (globalThis.fetch): only a given fetch lets a stream cut before the first token be told
   * apart from a refused connection.
   */
  readonly fetch?: typeof fetch;
  /**
   * A non-streaming fetch that CORS cannot block: in the plugin, requestUrlFetch(requestUrl).
   * Used when `fetch` fails with a browser network TypeError (see LangChainProvider).
   */
  readonly fallbackFetch?: typeof fetch;
  /** Retry wait; injectable so tests do not wait. Must reject when the signal aborts. */
  readonly sleep?: Sleep;
  readonly timers?: Timers;
  /** Clock for HTTP-date retry-after values. */
  readonly now?: () => number;
  readonly retry?: Partial<RetryPolicy>;
  /** Streaming: wait for the first text (default 120 s: reasoning models can think a while first). */
  readonly timeoutMs?: number;
  /** Streaming: longest silence once text is arriving (default 30 s); the text so far is kept. */
  readonly stallTimeoutMs?: number;
  /** Whole-reply timeout for non-streaming calls (default 10 minutes). */
  readonly nonStreamingTimeoutMs?: number;
  /** User corrections to the model window table. */
  readonly windowOverrides?: Readonly<Record<string, Partial<ModelWindow>>>;
  /** User corrections to the capability record. */
  readonly capabilityOverrides?: Partial<Capabilities>;
  /** Claude Code: child_process.spawn (desktop only) and the CLI's environment. */
  readonly claudeCode?: ClaudeCodeDeps;
  /** Codex CLI: child_process.spawn and fs/promises (desktop only), and the plugin's CODEX_HOME. */
  readonly codex?: CodexDeps;
}

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_STALL_TIMEOUT_MS = 30_000;
export const DEFAULT_NON_STREAMING_TIMEOUT_MS = 600_000;

/** Kinds that cannot work without a key (compatible endpoints often run keyless on localhost). */
export const KEY_REQUIRED: ReadonlySet<ProviderKind> = new Set(['openai', 'openai-responses', 'anthropic', 'gemini']);

/**
 * Builds the ChatProvider for a configured provider. The API key is looked up at each call (so a
 * key changed in settings applies at once) and never stored on the provider.
 */
export function createProvider(config: ProviderConfig, deps: ProviderDeps): ChatProvider {
  const capabilities = capabilitiesFor(config, deps.windowOverrides, deps.capabilityOverrides);
  const now = deps.now ?? (() => Date.now());
  const context: FailureContext = {
    kind: config.kind,
    providerId: config.id,
    providerName: config.name,
    baseUrl: config.baseUrl,
    secrets: [],
    now,
    userAborted: false,
    timedOut: false,
    timeoutMs: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    resumedSession: false,
  };

  if (config.kind === 'claude-code') return claudeCodeProvider(config, deps, capabilities);
  if (config.kind === 'codex') return codexProvider(config, deps, capabilities);
  if (config.kind === 'openai-compatible' && !config.baseUrl) {
    return failingProvider(config, capabilities, () =>
      buildError({ kind: 'bad-request', detail: 'no base URL is set', reason: undefined }, context, 1),
    );
  }

  const getApiKey = async (): Promise<string | undefined> => {
    const key = config.secretId ? await deps.getSecret(config.secretId) : null;
    if (key) return key;
    if (KEY_REQUIRED.has(config.kind)) throw buildError({ kind: 'auth', reason: 'no-key' }, context, 1);
    return undefined;
  };

  const timers = deps.timers ?? DEFAULT_TIMERS;
  // LangChain and the SDKs (1.5 MB, a quarter of a second to evaluate) load with the first
  // provider made, not with the plugin: required here, the bundle evaluates them only then.
  /* eslint-disable-next-line @typescript-eslint/no-require-imports, no-undef -- synchronous lazy load: the bundle is CommonJS, and createProvider stays synchronous */
  const { DEFAULT_ANTHROPIC_MAX_TOKENS, LangChainProvider } = require('./langchainProvider') as typeof import('./langchainProvider');
  return new LangChainProvider(config, capabilities, {
    getApiKey,
    fetch: deps.fetch ?? platformFetch(),
    fallbackFetch: deps.fallbackFetch,
    policy: { ...DEFAULT_RETRY_POLICY, ...deps.retry },
    sleep: deps.sleep ?? makeSleep(timers),
    timers,
    now,
    timeoutMs: deps.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    stallTimeoutMs: deps.stallTimeoutMs ?? DEFAULT_STALL_TIMEOUT_MS,
    nonStreamingTimeoutMs: deps.nonStreamingTimeoutMs ?? DEFAULT_NON_STREAMING_TIMEOUT_MS,
    maxOutputTokens: config.maxOutputTokens ?? Math.min(capabilities.maxOutput, DEFAULT_ANTHROPIC_MAX_TOKENS),
    ...(config.kind === 'gemini' ? geminiExplicitCache(config, deps.fallbackFetch ?? deps.fetch ?? platformFetch(), now) : {}),
  });
}

/**
 * Gemini's explicit cache entries, where they pay over implicit caching at the model's price
 * (./gemini/cachePolicy.ts). Their calls go through the CORS-free fetch where the host has one
 * (Obsidian's requestUrl): they are plain JSON requests. A Node host that passes no fetch gets
 * implicit caching only.
 */
function geminiExplicitCache(config: ProviderConfig, fetchFn: typeof fetch | undefined, now: () => number): { explicitCache?: GeminiExplicitCache } {
  if (!fetchFn || !explicitCachePays(priceOf(config.model))) return {};
  const counter = tokenCounterFor(config.model);
  return {
    explicitCache: new GeminiExplicitCache({
      model: config.model,
      ...(config.baseUrl ? { baseUrl: config.baseUrl } : {}),
      fetch: fetchFn,
      now,
      countTokens: (text) => counter.count(text),
      minTokens: geminiCacheMinTokens(config.model),
    }),
  };
}

/** The app's fetch (Obsidian is a browser window); under Node the SDKs find the global one themselves. */
function platformFetch(): typeof fetch | undefined {
  return typeof window !== 'undefined' && typeof window.fetch === 'function' ? window.fetch.bind(window) : undefined;
}

function failingProvider(config: ProviderConfig, capabilities: Capabilities, error: () => Error): ChatProvider {
  return {
    config,
    capabilities,
    send: (): Promise<ChatResult> => Promise.reject(error()),
  };
}

/**
 * Claude Code runs the `claude` executable, so it exists only on desktop (the plugin passes
 * child_process.spawn in deps.claudeCode there); its module is loaded on first use, not when the
 * plugin starts.
 */
function claudeCodeProvider(config: ProviderConfig, deps: ProviderDeps, capabilities: Capabilities): ChatProvider {
  let inner: Promise<ChatProvider> | undefined;
  return {
    config,
    capabilities,
    send: async (request: ChatRequest): Promise<ChatResult> => {
      inner ??= import('./claudeCode/index').then((module) => module.createClaudeCodeProvider(config, deps.claudeCode ?? {}));
      const provider = await inner;
      return provider.send(request);
    },
  };
}

/** The Codex CLI, like Claude Code: desktop only, its module loaded on first use; its key looked up at each run. */
function codexProvider(config: ProviderConfig, deps: ProviderDeps, capabilities: Capabilities): ChatProvider {
  let inner: Promise<ChatProvider> | undefined;
  return {
    config,
    capabilities,
    send: async (request: ChatRequest): Promise<ChatResult> => {
      inner ??= import('./codex/index').then((module) => module.createCodexProvider(config, { getSecret: (id) => deps.getSecret(id), ...deps.codex }));
      const provider = await inner;
      return provider.send(request);
    },
  };
}

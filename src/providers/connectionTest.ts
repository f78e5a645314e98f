/**
 * "Test connection" in settings: one small request to the provider's first model, reported in
 * plain words: whether a key is set, the model, the latency; or what is wrong (no key, bad key,
 * unreachable, model not found…).
 */
import type { ChatProvider } from '../core/ports/chatModel';
import type { ProviderSettings } from '../core/settings/settings';
import { isProviderError } from './errors';
import { KEY_REQUIRED } from './createProvider';


export type KeyStatus = 'set' | 'missing' | 'not-needed';

export type ConnectionProblem = 'no-model' | 'no-key' | 'bad-key' | 'unreachable' | 'model-not-found' | 'rate-limited' | 'server' | 'other';

export interface ConnectionReport {
  readonly ok: boolean;
  readonly key: KeyStatus;
  readonly model: string | null;
  /** Milliseconds from sending to the whole answer (only when it worked). */
  readonly latencyMs?: number;
  readonly problem?: ConnectionProblem;
  /** One or two sentences for the settings tab. */
  readonly message: string;
}

export interface ConnectionTestDeps {
  /** Builds the provider (one attempt, no retries) for the settings and model given. */
  readonly build: (provider: ProviderSettings, model: string) => ChatProvider;
  /** The stored key for a secret id, or null. */
  readonly secret: (id: string) => string | null;
  /** Milliseconds, for the latency (the host's clock). */
  readonly now: () => number;
  readonly signal?: AbortSignal;
}

/** Whether the provider has the key it needs: set, missing, or not needed (Claude Code, a keyless local server). */
export function keyStatus(provider: ProviderSettings, secret: (id: string) => string | null): KeyStatus {
  if (provider.kind === 'claude-code') return 'not-needed';
  const key = provider.secretId ? secret(provider.secretId) : null;
  if (key) return 'set';
  return KEY_REQUIRED.has(provider.kind) ? 'missing' : 'not-needed';
}

/** A short reply is all the test needs: capped so it costs next to nothing. */
const TEST_MAX_OUTPUT = 16;

export async function testConnection(provider: ProviderSettings, deps: ConnectionTestDeps): Promise<ConnectionReport> {
  const key = keyStatus(provider, deps.secret);
  const model = provider.models[0] ?? null;
  if (!model) return { ok: false, key, model, problem: 'no-model', message: 'No model is listed: add one, or refresh the list from the provider.' };
  if (key === 'missing') return { ok: false, key, model, problem: 'no-key', message: 'No API key is set: pick or create one under API key.' };
  const capped: ProviderSettings = { ...provider, modelOptions: { ...provider.modelOptions, [model]: { ...provider.modelOptions?.[model], maxOutputTokens: TEST_MAX_OUTPUT } } };
  const started = deps.now();
  try {
    const chat = deps.build(capped, model);
    await chat.send({ messages: [{ role: 'user', content: 'Reply with the word OK.' }], ...(deps.signal ? { signal: deps.signal } : {}) });
    const latencyMs = Math.max(0, Math.round(deps.now() - started));
    const keyText = key === 'set' ? 'key set' : 'no key needed';
    return { ok: true, key, model, latencyMs, message: `Connected: ${model} answered in ${formatLatency(latencyMs)} (${keyText}).` };
  } catch (error) {
    return { ok: false, key, model, ...describeFailure(error, model) };
  }
}

function formatLatency(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`;
}

function describeFailure(error: unknown, model: string): { problem: ConnectionProblem; message: string } {
  if (!isProviderError(error)) return { problem: 'other', message: error instanceof Error ? error.message : String(error) };
  const d = error.description;
  switch (error.kind) {
    case 'auth':
      return d?.reason === 'no-key'
        ? { problem: 'no-key', message: 'No API key is set: pick or create one under API key.' }
        : { problem: 'bad-key', message: `Bad key: the provider rejected the API key (${error.status ?? 'auth'}). Check it under API key.` };
    case 'network':
      return { problem: 'unreachable', message: `Unreachable: ${error.message}` };
    case 'timeout':
      return { problem: 'unreachable', message: `No answer: ${error.message}` };
    case 'rate-limited':
      return { problem: 'rate-limited', message: `Reached, but rate limited: ${error.message}` };
    case 'server':
      return { problem: 'server', message: `Reached, but the server failed: ${error.message}` };
    case 'bad-request':
      if (d?.reason === 'not-found' || error.status === 404) {
        return /model/i.test(d?.detail ?? '')
          ? { problem: 'model-not-found', message: `Model not found: the provider does not know "${model}". Check the name, or refresh the models.` }
          : { problem: 'other', message: `Not found (404): check the base URL (OpenAI-style endpoints usually end in /v1) and the model name "${model}".` };
      }
      return { problem: 'other', message: error.message };
    default:
      return { problem: 'other', message: error.message };
  }
}

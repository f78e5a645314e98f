/**
 * The provider's own model list: OpenAI and compatible endpoints (Ollama, LM Studio, OpenRouter…)
 * `GET {base}/models`, Anthropic `GET /v1/models` (paged). Through the fetch given: Obsidian's
 * requestUrl (requestUrlFetch) in the plugin, so CORS does not apply; fetch under Node.
 */
import type { ProviderKind } from '../core/ports/chatModel';
import { trimTrailingSlashes } from '../core/trim';
import { anthropicBaseUrl, geminiBaseUrl, OPENAI_BASE_URL } from './baseUrls';
import { redactSecrets } from './errors';

export interface ModelListRequest {
  readonly kind: ProviderKind;
  readonly baseUrl?: string;
  readonly apiKey?: string;
  readonly fetch: typeof fetch;
  readonly signal?: AbortSignal;
  /** Anthropic's page size (default 1000, its maximum). */
  readonly pageSize?: number;
}

/** Why the list could not be read, in the words the settings use. */
export type ModelListProblem = 'bad-key' | 'unreachable' | 'not-found' | 'unsupported' | 'other';

export class ModelListError extends Error {
  constructor(
    readonly problem: ModelListProblem,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'ModelListError';
  }
}

const ANTHROPIC_VERSION = '2023-06-01';
/** Anthropic pages the list; a generous page and a bound on pages (a loop cannot run away). */
const ANTHROPIC_PAGE = 1000;
const MAX_PAGES = 20;

/** Every model id the endpoint lists, as listed. */
export async function listModels(request: ModelListRequest): Promise<string[]> {
  if (request.kind === 'claude-code') throw new ModelListError('unsupported', 'Claude Code has no model list: type the model names (for example sonnet, opus).');
  if (request.kind === 'codex') throw new ModelListError('unsupported', 'The Codex CLI has no model list: type the model names (for example gpt-5-codex, gpt-5).');
  if (request.kind === 'anthropic') return anthropicModels(request);
  if (request.kind === 'gemini') return geminiModels(request);
  const base = trimTrailingSlashes(request.baseUrl ?? OPENAI_BASE_URL);
  const body = await getJson(request, `${base}/models`, request.apiKey ? { Authorization: `Bearer ${request.apiKey}` } : {});
  return idsOf(body);
}

async function anthropicModels(request: ModelListRequest): Promise<string[]> {
  const base = `${anthropicBaseUrl(request.baseUrl)}/v1/models`;
  const headers: Record<string, string> = {
    'anthropic-version': ANTHROPIC_VERSION,
    'anthropic-dangerous-direct-browser-access': 'true',
    ...(request.apiKey ? { 'x-api-key': request.apiKey } : {}),
  };
  const ids: string[] = [];
  let after: string | null = null;
  for (let page = 0; page < MAX_PAGES; page++) {
    const query: string = `?limit=${request.pageSize ?? ANTHROPIC_PAGE}${after ? `&after_id=${encodeURIComponent(after)}` : ''}`;
    const body = await getJson(request, `${base}${query}`, headers);
    ids.push(...idsOf(body));
    const record = body as { has_more?: unknown; last_id?: unknown };
    if (record.has_more !== true || typeof record.last_id !== 'string') break;
    after = record.last_id;
  }
  return ids;
}

/** Gemini: `GET /v1beta/models` (paged by pageToken); only models that generate content, without the "models/" prefix. */
async function geminiModels(request: ModelListRequest): Promise<string[]> {
  const headers: Record<string, string> = request.apiKey ? { 'x-goog-api-key': request.apiKey } : {};
  const ids: string[] = [];
  let token: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const body = (await getJson(request, `${geminiBaseUrl(request.baseUrl)}/v1beta/models?pageSize=1000${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`, headers)) as {
      models?: unknown;
      nextPageToken?: unknown;
    };
    if (!Array.isArray(body.models)) throw new ModelListError('other', 'The endpoint answered, but not with a model list.');
    for (const m of body.models as { name?: unknown; supportedGenerationMethods?: unknown }[]) {
      const methods = Array.isArray(m.supportedGenerationMethods) ? m.supportedGenerationMethods : [];
      if (typeof m.name === 'string' && methods.includes('generateContent')) ids.push(m.name.replace(/^models\//, ''));
    }
    if (typeof body.nextPageToken !== 'string' || body.nextPageToken === '') break;
    token = body.nextPageToken;
  }
  return ids;
}

function idsOf(body: unknown): string[] {
  const data = (body as { data?: unknown } | null)?.data ?? (body as { models?: unknown } | null)?.models;
  if (!Array.isArray(data)) throw new ModelListError('other', 'The endpoint answered, but not with a model list.');
  return data.map((m: unknown) => (m as { id?: unknown; name?: unknown }).id ?? (m as { name?: unknown }).name).filter((id): id is string => typeof id === 'string' && id.trim() !== '');
}

async function getJson(request: ModelListRequest, url: string, headers: Record<string, string>): Promise<unknown> {
  let response: Response;
  try {
    response = await request.fetch(url, { method: 'GET', headers: { Accept: 'application/json', ...headers }, ...(request.signal ? { signal: request.signal } : {}) });
  } catch (error) {
    const detail = redactSecrets(error instanceof Error ? error.message : String(error), [request.apiKey]);
    throw new ModelListError('unreachable', `Could not reach ${hostOf(url)} (${detail}). Check the base URL and that the server is running.`);
  }
  if (response.status === 401 || response.status === 403) throw new ModelListError('bad-key', `The API key was rejected (${response.status}). Check the key.`, response.status);
  if (response.status === 404) throw new ModelListError('not-found', `${hostOf(url)} has no model list at ${new URL(url).pathname} (404). Check the base URL (OpenAI-style endpoints usually end in /v1).`, 404);
  if (!response.ok) throw new ModelListError('other', `The model list request failed (${response.status}).`, response.status);
  try {
    return await response.json();
  } catch {
    throw new ModelListError('other', 'The endpoint answered, but not with JSON.');
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/**
 * Models that are not for chat: embeddings, speech, transcription, images, moderation, realtime
 * audio, and the old completion-only families. Instruction-tuned open models ("…-instruct") are
 * chat models and stay.
 */
const NOT_CHAT = /embed|(^|[-_/])tts|whisper|transcribe|dall-e|(^|[-_/])image|moderation|realtime|audio|^sora|^davinci|^babbage|gpt-3\.5-turbo-instruct|rerank/i;

/** The chat models among `ids`, without repeats, in code-unit order (the same list whatever order the endpoint gave). */
export function chatModelsOnly(ids: readonly string[]): string[] {
  return [...new Set(ids.map((id) => id.trim()).filter((id) => id && !NOT_CHAT.test(id)))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** The provider's list after a refresh: the user's own entries first, as they were (the first stays the default), then the new ones. */
export function mergeModels(existing: readonly string[], fetched: readonly string[]): string[] {
  const kept = [...existing];
  for (const id of fetched) if (!kept.includes(id)) kept.push(id);
  return kept;
}

/**
 * GET /v1/models for both APIs (one record shape reads as OpenAI's and Anthropic's), the server's
 * model catalogue, and the optional checks a test can turn on: a required API key (401 otherwise)
 * and known models only (404 model_not_found otherwise).
 */
import type { IncomingMessage } from 'node:http';

export interface ModelCatalogue {
  /** Served to OpenAI clients (no anthropic-version header). */
  readonly openai: readonly string[];
  /** Served to Anthropic clients. */
  readonly anthropic: readonly string[];
}

/** What a real account lists: chat models among embeddings, speech, images and moderation. */
export function defaultCatalogue(defaultModel: string): ModelCatalogue {
  const openai = [
    defaultModel,
    'gpt-4o',
    'gpt-4.1',
    'o4-mini',
    'text-embedding-3-small',
    'tts-1',
    'whisper-1',
    'dall-e-3',
    'omni-moderation-latest',
    'gpt-4o-realtime-preview',
    'gpt-4o-transcribe',
    'gpt-image-1',
  ];
  return { openai: [...new Set(openai)], anthropic: ['claude-sonnet-4-5', 'claude-haiku-4-5', 'claude-opus-4-1'] };
}

export function modelEntry(id: string, createdSeconds: number): Record<string, unknown> {
  return {
    id,
    object: 'model',
    type: 'model',
    created: createdSeconds,
    created_at: new Date(createdSeconds * 1000).toISOString(),
    owned_by: 'strata-local',
    display_name: id,
  };
}

/**
 * The list: OpenAI's `{ object: 'list', data }`; for Anthropic clients, pages of `limit` (default
 * 20, as Anthropic's) after `after_id`, with has_more / first_id / last_id.
 */
export function modelList(ids: readonly string[], anthropic: boolean, query: URLSearchParams, createdSeconds: number): Record<string, unknown> {
  let start = 0;
  let end = ids.length;
  if (anthropic) {
    const after = query.get('after_id');
    start = after === null ? 0 : ids.indexOf(after) + 1;
    end = start + Math.max(1, Math.min(1000, Number(query.get('limit') ?? 20) || 20));
  }
  const page = ids.slice(start, end);
  const data = page.map((id) => modelEntry(id, createdSeconds));
  return { object: 'list', data, has_more: end < ids.length, first_id: page[0] ?? null, last_id: page.at(-1) ?? null };
}

/** The key a request carries (Bearer or x-api-key), or undefined. */
export function requestKey(req: IncomingMessage): string | undefined {
  const header = req.headers['x-api-key'] ?? req.headers['x-goog-api-key'];
  if (typeof header === 'string') return header;
  const key = new URLSearchParams((req.url ?? '').split('?')[1] ?? '').get('key');
  if (key) return key;
  const auth = req.headers.authorization;
  const match = typeof auth === 'string' ? /^Bearer\s+(.+)$/i.exec(auth) : null;
  return match ? match[1].trim() : undefined;
}

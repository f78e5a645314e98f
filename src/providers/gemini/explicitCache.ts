import { sha256Hex } from '../../core/hash';
import type { ToolSpec } from '../../core/agent/types';
import type { ChatRequest } from '../../core/ports/chatModel';
import { addUsage, type Usage } from '../../core/usage';
import { geminiBaseUrl } from '../baseUrls';
import { EXPLICIT_CACHE_MARGIN_MS, EXPLICIT_CACHE_TTL_SECONDS, EXPLICIT_MIN_SHARE, storageTokenHours } from './cachePolicy';

/**
 * Gemini explicit context caching (cachedContents): one entry per conversation holding its stable
 * prefix, the system message (L1 and the library block) and, in Agent mode, the tools (a request
 * that names a cache entry may send neither). The entry is keyed by the hash of those bytes and the
 * model: reused while they are unchanged and the entry lives; when a named break (compaction,
 * library condensing, settings) changes them, the old entry is deleted and a new one made. Its
 * calls go through the plugin's own fetch. Caching only saves money: a failure here never fails
 * the turn, the request then goes without the entry (implicit caching still applies).
 */
export interface ExplicitCacheDeps {
  readonly model: string;
  readonly baseUrl?: string;
  readonly fetch: typeof fetch;
  readonly now: () => number;
  /** Estimated tokens of the prefix, to skip entries below Google's minimum without a round trip. */
  readonly countTokens: (text: string) => number;
  readonly minTokens: number;
  readonly ttlSeconds?: number;
}

/** The entry a request reads from. */
export interface CacheUse {
  readonly name: string;
}

interface Entry {
  readonly key: string;
  readonly name: string;
  readonly tokens: number;
  readonly expiresAt: number;
}

/** A JSON Schema without the keywords Gemini's function declarations refuse ($schema, additionalProperties). */
function geminiSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(geminiSchema);
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
    if (key === '$schema' || key === 'additionalProperties') continue;
    out[key] = geminiSchema(inner);
  }
  return out;
}

/** Tools as Gemini's functionDeclarations (what LangChain's bindTools would send). */
export function geminiTools(tools: readonly ToolSpec[]): Record<string, unknown>[] {
  return [{ functionDeclarations: tools.map((t) => ({ name: t.name, description: t.description, parameters: geminiSchema(t.parameters) })) }];
}

/** What is known about the entries of one endpoint and model, whichever provider object asks. */
interface Book {
  readonly entries: Map<string, Entry>;
  /** Prefix keys the API refused (too small by Google's own count): not tried again. */
  readonly refused: Set<string>;
  /** Per conversation: creations and extensions not yet added to a reply's usage. */
  readonly unbilled: Map<string, Usage>;
}

/**
 * The chat makes a provider object per turn; the entries outlive it (they live on Google's side for
 * their TTL), so their book is kept per endpoint and model for the plugin's lifetime.
 */
const BOOKS = new Map<string, Book>();

function bookFor(endpoint: string): Book {
  let book = BOOKS.get(endpoint);
  if (!book) {
    book = { entries: new Map(), refused: new Set(), unbilled: new Map() };
    BOOKS.set(endpoint, book);
  }
  return book;
}

export class GeminiExplicitCache {
  private readonly entries: Map<string, Entry>;
  private readonly refused: Set<string>;
  private readonly unbilled: Map<string, Usage>;

  constructor(private readonly deps: ExplicitCacheDeps) {
    const book = bookFor(`${geminiBaseUrl(deps.baseUrl)}\u0000${deps.model}`);
    this.entries = book.entries;
    this.refused = book.refused;
    this.unbilled = book.unbilled;
  }

  private get ttl(): number {
    return this.deps.ttlSeconds ?? EXPLICIT_CACHE_TTL_SECONDS;
  }

  private url(path: string): string {
    return `${geminiBaseUrl(this.deps.baseUrl)}/v1beta/${path}`;
  }

  /** The entry for this request's prefix: reused, or made now; undefined when the prefix is too small or caching failed. */
  async prepare(request: ChatRequest, apiKey: string | undefined, signal: AbortSignal): Promise<CacheUse | undefined> {
    const first = request.messages[0];
    if (!apiKey || !first || first.role !== 'system' || request.messages.length < 2) return undefined;
    const conversation = request.cacheKey ?? '';
    const tools = request.tools && request.tools.length > 0 ? geminiTools(request.tools) : undefined;
    const toolsText = tools ? JSON.stringify(tools) : '';
    // The key's hash too: another key (another Google project) has entries of its own.
    const key = sha256Hex(`${this.deps.model}\u0000${first.content}\u0000${toolsText}\u0000${sha256Hex(apiKey)}`);
    let chars = 0;
    for (const m of request.messages) chars += m.content.length;
    for (const step of request.steps ?? []) for (const r of step.results) chars += r.content.length;
    if (first.content.length + toolsText.length < EXPLICIT_MIN_SHARE * (chars + toolsText.length)) {
      // The history outweighs the stable prefix: implicit caching (see EXPLICIT_MIN_SHARE); an entry kept for it goes.
      if (this.entries.has(conversation)) this.drop(conversation, apiKey);
      return undefined;
    }
    const current = this.entries.get(conversation);
    const left = current ? current.expiresAt - this.deps.now() : 0;
    if (current && current.key === key && left > EXPLICIT_CACHE_MARGIN_MS) {
      // Past half its life: extended (storage for the added time) rather than made again (its tokens at the input price).
      if (left < (this.ttl * 1000) / 2) await this.extend(conversation, current, apiKey, signal);
      return { name: current.name };
    }
    // The prefix changed (a named break) or the entry is about to expire: the old one goes.
    if (current) this.drop(conversation, apiKey);
    if (this.refused.has(key) || this.deps.countTokens(first.content + toolsText) < this.deps.minTokens) return undefined;
    const body = {
      model: `models/${this.deps.model}`,
      systemInstruction: { parts: [{ text: first.content }] },
      ...(tools ? { tools } : {}),
      ttl: `${this.ttl}s`,
    };
    let response: Response;
    try {
      response = await this.deps.fetch(this.url('cachedContents'), { method: 'POST', headers: this.headers(apiKey), body: JSON.stringify(body), signal });
    } catch (error) {
      if (signal.aborted) throw error;
      return undefined;
    }
    if (!response.ok) {
      // 400: below the model's minimum by Google's own count (or not cacheable): implicit from now on.
      if (response.status === 400) this.refused.add(key);
      return undefined;
    }
    const created = (await response.json().catch(() => ({}))) as { name?: unknown; usageMetadata?: { totalTokenCount?: unknown } };
    if (typeof created.name !== 'string') return undefined;
    const tokens = typeof created.usageMetadata?.totalTokenCount === 'number' ? created.usageMetadata.totalTokenCount : 0;
    this.entries.set(conversation, { key, name: created.name, tokens, expiresAt: this.deps.now() + this.ttl * 1000 });
    // Made once, billed once: its tokens at the input price, its storage for the whole TTL.
    const write: Usage = { inputTokens: tokens, outputTokens: 0, cachedReadTokens: 0, cacheWriteTokens: tokens, cacheStorageTokenHours: storageTokenHours(tokens, this.ttl) };
    const owed = this.unbilled.get(conversation);
    this.unbilled.set(conversation, owed ? addUsage(owed, write) : write);
    return { name: created.name };
  }

  /** PATCH the entry's TTL back to the full lifetime; its storage for the added time is owed. A failure leaves it to expire. */
  private async extend(conversation: string, entry: Entry, apiKey: string, signal: AbortSignal): Promise<void> {
    let response: Response;
    try {
      response = await this.deps.fetch(`${this.url(entry.name)}?updateMask=ttl`, { method: 'PATCH', headers: this.headers(apiKey), body: JSON.stringify({ ttl: `${this.ttl}s` }), signal });
    } catch (error) {
      if (signal.aborted) throw error;
      return;
    }
    if (!response.ok) return;
    const expiresAt = this.deps.now() + this.ttl * 1000;
    const added: Usage = { inputTokens: 0, outputTokens: 0, cachedReadTokens: 0, cacheWriteTokens: 0, cacheStorageTokenHours: (entry.tokens * (expiresAt - entry.expiresAt)) / 3_600_000 };
    this.entries.set(conversation, { ...entry, expiresAt });
    const owed = this.unbilled.get(conversation);
    this.unbilled.set(conversation, owed ? addUsage(owed, added) : added);
  }

  /** What creating this conversation's entries cost that no reply has carried yet (then forgotten). */
  takeUnbilled(request: ChatRequest): Usage | undefined {
    const conversation = request.cacheKey ?? '';
    const owed = this.unbilled.get(conversation);
    this.unbilled.delete(conversation);
    return owed;
  }

  /** A request against the entry failed (it may have expired early): the next attempt makes a new one. True when there was one. */
  forget(request: ChatRequest): boolean {
    return this.entries.delete(request.cacheKey ?? '');
  }

  /** Deletes this conversation's entry on the server (best effort: it expires by its TTL anyway). */
  private drop(conversation: string, apiKey: string): void {
    const entry = this.entries.get(conversation);
    this.entries.delete(conversation);
    if (!entry) return;
    this.deps.fetch(this.url(entry.name), { method: 'DELETE', headers: this.headers(apiKey) }).catch(() => undefined);
  }

  private headers(apiKey: string): Record<string, string> {
    return { 'content-type': 'application/json', 'x-goog-api-key': apiKey };
  }
}

/**
 * Google's Gemini API (v1beta) on the local provider server: models/{m}:generateContent,
 * :streamGenerateContent?alt=sse, :countTokens, GET models[/{m}], and cachedContents (create, get,
 * list, patch the TTL, delete). Cached tokens follow Google's rules (./geminiCacheRule.ts): a
 * request naming an entry reads the entry's tokens; any other the implicit shared-prefix hit.
 */
import type { Exchange } from './context';
import { asRecord } from './context';
import { RequestError } from './errors';
import { GeminiPromptCache, geminiMinCacheableTokens } from './geminiCacheRule';
import { contentBlocks, geminiPlannerView, geminiToolConversation, prefixBlocks } from './geminiTurns';
import { countTokens, encodePrompt, type PromptBlock } from './prompt';
import { replyChunks } from './reply';
import { outputText, type ScriptedReply } from './toolScript';
import { turnReply } from './turnReply';

/** One cachedContents entry. */
export interface GeminiCacheEntry {
  readonly name: string;
  readonly model: string;
  /** What it holds, as sent (tools, systemInstruction, contents). */
  readonly body: Record<string, unknown>;
  readonly blocks: readonly PromptBlock[];
  readonly tokens: number;
  readonly createTime: number;
  expireTime: number;
}

/** The server's Gemini state: implicit prompt prefixes and explicit entries. */
export class GeminiState {
  readonly implicit = new GeminiPromptCache();
  readonly entries = new Map<string, GeminiCacheEntry>();

  clear(): void {
    this.implicit.clear();
    this.entries.clear();
  }
}

/** The models GET /v1beta/models lists: chat models beside an embedding and an image model (clients filter). */
export const GEMINI_MODELS = ['gemini-2.5-flash', 'gemini-2.5-flash-lite', 'gemini-2.5-pro', 'gemini-3-pro-preview', 'gemini-embedding-001', 'imagen-4.0-generate-001'];

export function geminiModelEntry(id: string): Record<string, unknown> {
  const chat = id.startsWith('gemini-') && !id.includes('embedding');
  return {
    name: `models/${id}`,
    version: '001',
    displayName: id,
    inputTokenLimit: chat ? 1_048_576 : 2_048,
    outputTokenLimit: chat ? 65_536 : 1,
    supportedGenerationMethods: chat ? ['generateContent', 'countTokens', 'createCachedContent'] : id.includes('embedding') ? ['embedContent'] : ['predict'],
  };
}

/** GET /v1beta/models, paged by pageSize / pageToken (the token is the next index). */
export function geminiModelList(query: URLSearchParams): Record<string, unknown> {
  const size = Math.max(1, Number(query.get('pageSize') ?? 50) || 50);
  const start = Number(query.get('pageToken') ?? 0) || 0;
  const page = GEMINI_MODELS.slice(start, start + size).map(geminiModelEntry);
  return { models: page, ...(start + size < GEMINI_MODELS.length ? { nextPageToken: String(start + size) } : {}) };
}

/** "models/gemini-2.5-flash:generateContent" → model and method. */
export function geminiTarget(path: string): { model: string; method: string } | undefined {
  const match = /\/models\/([^/:]+):([A-Za-z]+)$/.exec(path);
  return match ? { model: decodeURIComponent(match[1]), method: match[2] } : undefined;
}

function liveEntry(ex: Pick<Exchange, 'state' | 'now'>, name: string): GeminiCacheEntry {
  const entry = ex.state.gemini.entries.get(name);
  if (!entry || entry.expireTime <= ex.now) {
    if (entry) ex.state.gemini.entries.delete(name);
    throw new RequestError(403, { message: `CachedContent not found (or permission denied): ${name}` });
  }
  return entry;
}

function ttlMs(body: Record<string, unknown>): number {
  const match = typeof body.ttl === 'string' ? /^(\d+(?:\.\d+)?)s$/.exec(body.ttl) : null;
  if (body.ttl !== undefined && !match) throw new RequestError(400, { message: 'Invalid value at ttl: expected a duration such as "300s".' });
  return match ? Math.round(Number(match[1]) * 1000) : 3_600_000;
}

function entryJson(entry: GeminiCacheEntry): Record<string, unknown> {
  return {
    name: entry.name,
    model: `models/${entry.model}`,
    createTime: new Date(entry.createTime).toISOString(),
    updateTime: new Date(entry.createTime).toISOString(),
    expireTime: new Date(entry.expireTime).toISOString(),
    usageMetadata: { totalTokenCount: entry.tokens },
  };
}

/** POST /v1beta/cachedContents: refused below the model's minimum, as Google does. */
export function createCachedContent(ex: Exchange): void {
  const model = typeof ex.body.model === 'string' ? ex.body.model.replace(/^models\//, '') : '';
  if (!model) throw new RequestError(400, { message: 'CachedContent.model is required.' });
  if (ex.body.cachedContent !== undefined) throw new RequestError(400, { message: 'A cached content cannot name another cached content.' });
  const blocks = [...prefixBlocks(ex.body), ...contentBlocks(ex.body, false)];
  const tokens = encodePrompt(model, blocks).tokens.length;
  const minimum = geminiMinCacheableTokens(model);
  if (tokens < minimum) {
    throw new RequestError(400, { message: `Cached content is too small. total_token_count=${tokens}, min_total_token_count=${minimum}` });
  }
  const name = ex.state.nextId('cachedContents/local-');
  const entry: GeminiCacheEntry = { name, model, body: ex.body, blocks, tokens, createTime: ex.now, expireTime: ex.now + ttlMs(ex.body) };
  ex.state.gemini.entries.set(name, entry);
  ex.json(200, entryJson(entry));
}

/** GET, PATCH (ttl) and DELETE /v1beta/cachedContents/{id}. */
export function cachedContentById(ex: Exchange, method: string, name: string): void {
  const entry = liveEntry(ex, name);
  if (method === 'DELETE') {
    ex.state.gemini.entries.delete(name);
    ex.json(200, {});
    return;
  }
  if (method === 'PATCH') entry.expireTime = ex.now + ttlMs(ex.body);
  ex.json(200, entryJson(entry));
}

/** GET /v1beta/cachedContents: the live entries, oldest first. */
export function cachedContentList(ex: Pick<Exchange, 'state' | 'now' | 'json'>): void {
  const live = [...ex.state.gemini.entries.values()].filter((e) => e.expireTime > ex.now);
  ex.json(200, { cachedContents: live.map(entryJson) });
}

/** POST :countTokens: {contents} or {generateContentRequest}; the cache is not touched. */
export function countGeminiTokens(ex: Exchange, model: string): void {
  const request = asRecord(ex.body.generateContentRequest) ?? ex.body;
  const cachedName = typeof request.cachedContent === 'string' ? request.cachedContent : undefined;
  const cached = cachedName ? liveEntry(ex, cachedName) : undefined;
  const blocks = [...(cached?.blocks ?? []), ...prefixBlocks(request), ...contentBlocks(request, false)];
  const total = encodePrompt(model, blocks).tokens.length;
  ex.json(200, { totalTokens: total, ...(cached ? { cachedContentTokenCount: cached.tokens } : {}) });
}

/** The reply's parts: its text, or one functionCall part per scripted call. */
function partsOf(reply: ScriptedReply): Record<string, unknown>[] {
  if (reply.kind === 'text') return [{ text: reply.text }];
  return reply.calls.map((call) => ({ functionCall: { name: call.name, args: call.args } }));
}

function usageOf(prompt: number, cached: number, output: number): Record<string, unknown> {
  return {
    promptTokenCount: prompt,
    candidatesTokenCount: output,
    totalTokenCount: prompt + output,
    ...(cached > 0 ? { cachedContentTokenCount: cached } : {}),
    promptTokensDetails: [{ modality: 'TEXT', tokenCount: prompt }],
    ...(cached > 0 ? { cacheTokensDetails: [{ modality: 'TEXT', tokenCount: cached }] } : {}),
  };
}

/** POST models/{m}:generateContent and :streamGenerateContent?alt=sse. */
export async function handleGenerateContent(ex: Exchange, model: string): Promise<void> {
  const cachedName = typeof ex.body.cachedContent === 'string' ? ex.body.cachedContent : undefined;
  const cached = cachedName ? liveEntry(ex, cachedName) : undefined;
  if (cached) {
    if (cached.model !== model) throw new RequestError(400, { message: `Model ${model} does not match the cached content's model ${cached.model}.` });
    if (ex.body.systemInstruction !== undefined || ex.body.tools !== undefined || ex.body.toolConfig !== undefined) {
      throw new RequestError(400, { message: 'CachedContent can not be used with GenerateContent request setting system_instruction, tools or tool_config.' });
    }
  }
  const own = [...prefixBlocks(ex.body), ...contentBlocks(ex.body, true)];
  const blocks = [...(cached?.blocks ?? []), ...own];
  const encoded = encodePrompt(model, blocks);
  // Explicit: the entry's tokens; implicit: the shared prefix (every request is remembered either way).
  const implicit = ex.state.gemini.implicit.account(model, encoded.tokens);
  const cachedTokens = cached ? cached.tokens : implicit;
  const conversation = geminiToolConversation(ex.body, cached?.body);
  const reply = await turnReply(ex, geminiPlannerView(ex.body, cached?.body, conversation), conversation, blocks);
  if (reply === 'gone') return;
  const outputTokens = countTokens(model, outputText(reply));
  const responseId = ex.state.nextId('gemini-local-');
  const headers = { 'x-request-id': ex.requestId };
  const final = { content: { parts: partsOf(reply), role: 'model' }, finishReason: 'STOP', index: 0 };

  if (!ex.streaming) {
    ex.json(200, { candidates: [final], usageMetadata: usageOf(encoded.tokens.length, cachedTokens, outputTokens), modelVersion: model, responseId }, headers);
    return;
  }
  const stream = ex.stream(headers);
  if (!(await stream.open())) return;
  if (reply.kind === 'calls') {
    // Gemini sends a call whole, in one chunk.
    if (!(await stream.send({ candidates: [final], usageMetadata: usageOf(encoded.tokens.length, cachedTokens, outputTokens), modelVersion: model, responseId }))) return;
    stream.end();
    return;
  }
  // Text in pieces; each chunk's usage counts the output so far, the last one carries finishReason.
  const pieces = replyChunks(reply.text);
  let sent = '';
  for (const [i, piece] of pieces.entries()) {
    sent += piece;
    const last = i === pieces.length - 1;
    const candidate = { content: { parts: [{ text: piece }], role: 'model' }, index: 0, ...(last ? { finishReason: 'STOP' } : {}) };
    const output = last ? outputTokens : countTokens(model, sent);
    if (!(await stream.send({ candidates: [candidate], usageMetadata: usageOf(encoded.tokens.length, cachedTokens, output), modelVersion: model, responseId }))) return;
  }
  stream.end();
}

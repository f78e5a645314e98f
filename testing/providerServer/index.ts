/**
 * A local provider server for tests, the demo and benchmarks: OpenAI Chat Completions, OpenAI
 * Responses (with previous_response_id state) and Anthropic Messages over HTTP on 127.0.0.1,
 * streaming (SSE) and not. Replies are deterministic (format in ./reply.ts), usage reports cached
 * tokens by each provider's documented rule (./openaiCacheRule.ts, ./anthropicCacheRule.ts), and
 * faults (error statuses, hangs, cut streams) can be injected. When a request declares tools, the
 * last user message can script tool calls with `[[tool NAME {json args}]]` directives, one step
 * per line (format in ./reply.ts), so an agent loop runs end to end offline; faults apply to
 * tool-call replies as to text. A request from Strata's artifact planner (its system text starts
 * with the planner's instructions) gets a plan instead, scripted by a `[[plan …]]` directive in the
 * question or computed from the prompt's artifacts, as a forced tool call or JSON text as asked
 * (./plannerScript.ts; format in ./reply.ts).
 *
 * Routes (the `/v1` prefix is optional, so an OpenAI base URL of `url` or `url/v1` both work):
 *   POST /v1/chat/completions, POST /v1/responses, GET|DELETE /v1/responses/{id},
 *   POST /v1/messages, POST /v1/messages/count_tokens, POST /v1/embeddings (./embeddings.ts), GET /v1/models[/{id}] (OpenAI or Anthropic
 *   shape, from the client's headers; ./models.ts), GET /.
 *   Gemini (./gemini.ts): POST /v1beta/models/{m}:generateContent | :streamGenerateContent?alt=sse |
 *   :countTokens, GET /v1beta/models[/{m}], POST|GET /v1beta/cachedContents, GET|PATCH|DELETE /v1beta/cachedContents/{id}.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { trimTrailingSlashes } from '../../src/core/trim';
import { AnthropicPromptCache } from './anthropicCacheRule';
import { handleCountTokens, handleMessages } from './anthropicMessages';
import { asRecord, type Exchange, type ServerState, type StoredResponse } from './context';
import { handleEmbeddings } from './embeddings';
import { errorReply, RequestError, type Api } from './errors';
import { FaultQueue, type Fault } from './faults';
import { defaultCatalogue, modelEntry, modelList, requestKey, type ModelCatalogue } from './models';
import { readBody, recordHeaders, sendJson } from './http';
import { handleChatCompletions } from './openaiChat';
import { OpenAIPromptCache } from './openaiCacheRule';
import { getStoredResponse, handleResponses } from './openaiResponses';
import { SseStream } from './sse';
import {
  cachedContentById,
  cachedContentList,
  countGeminiTokens,
  createCachedContent,
  geminiModelEntry,
  geminiModelList,
  geminiTarget,
  GeminiState,
  handleGenerateContent,
} from './gemini';

export type { Fault } from './faults';

export interface ProviderServerOptions {
  /** Port on 127.0.0.1; default 0 (an ephemeral port). */
  port?: number;
  /** Milliseconds; drives Anthropic's cache lifetime and `created` timestamps. Default Date.now. */
  clock?: () => number;
  /** Model named by GET /v1/models; requests otherwise answer under the model they name. */
  model?: string;
  /** Receives one line per request (method, path, streaming, status or fault), for the CLI script. */
  log?: (line: string) => void;
  /** GET /v1/models lists these (default: chat models among embeddings, speech and images; see ./models.ts). */
  models?: Partial<ModelCatalogue>;
  /** When set, every request must carry this key (Bearer or x-api-key), else 401. */
  apiKey?: string;
  /** When true, a generation request for a model the catalogue does not list gets 404 model_not_found. */
  knownModelsOnly?: boolean;
}

export interface RecordedRequest {
  api: Api;
  path: string;
  /** Lower-cased; authorization and x-api-key redacted. */
  headers: Record<string, string>;
  /** Parsed JSON body (the raw text when it was not JSON). */
  body: WireJson;
}

/** Parsed wire JSON, as loosely typed as JSON.parse's result (`any`), so tests can inspect it freely. */
export type WireJson = ReturnType<typeof JSON.parse>;

export interface ProviderServer {
  /** e.g. http://127.0.0.1:43123 (no trailing slash). OpenAI base URL: `${url}/v1`; Anthropic: `url`. */
  readonly url: string;
  /** Every request to the three APIs (count_tokens included), in arrival order. */
  readonly requests: RecordedRequest[];
  /** Queued; consumed by the next matching generation requests. */
  injectFault(fault: Fault): void;
  clearFaults(): void;
  /** Forgets requests, prompt caches, Responses state and faults. */
  reset(): void;
  /** Stops the server, terminating open and hanging connections. */
  close(): Promise<void>;
}

type Route =
  | { kind: 'generate'; api: Api; handler: (ex: Exchange) => Promise<void>; stream?: boolean }
  | { kind: 'gemini'; run: (ex: Exchange, query: URLSearchParams) => void }
  | { kind: 'count' }
  | { kind: 'response'; id: string }
  | { kind: 'models'; id?: string }
  | { kind: 'root' }
  | { kind: 'unknown' };

/** Gemini's v1beta routes (./gemini.ts). */
function geminiRoute(method: string, p: string): Route {
  const target = geminiTarget(p);
  if (method === 'POST' && target?.method === 'generateContent') return { kind: 'generate', api: 'gemini', handler: (ex) => handleGenerateContent(ex, target.model), stream: false };
  if (method === 'POST' && target?.method === 'streamGenerateContent') return { kind: 'generate', api: 'gemini', handler: (ex) => handleGenerateContent(ex, target.model), stream: true };
  if (method === 'POST' && target?.method === 'countTokens') return { kind: 'gemini', run: (ex) => countGeminiTokens(ex, target.model) };
  if (method === 'GET' && p === '/v1beta/models') return { kind: 'gemini', run: (ex, query) => ex.json(200, geminiModelList(query)) };
  const model = /^\/v1beta\/models\/([^/:]+)$/.exec(p);
  if (method === 'GET' && model) return { kind: 'gemini', run: (ex) => ex.json(200, geminiModelEntry(decodeURIComponent(model[1]))) };
  if (method === 'POST' && p === '/v1beta/cachedContents') return { kind: 'gemini', run: (ex) => createCachedContent(ex) };
  if (method === 'GET' && p === '/v1beta/cachedContents') return { kind: 'gemini', run: (ex) => cachedContentList(ex) };
  const entry = /^\/v1beta\/(cachedContents\/[^/]+)$/.exec(p);
  if (entry && (method === 'GET' || method === 'PATCH' || method === 'DELETE')) return { kind: 'gemini', run: (ex) => cachedContentById(ex, method, decodeURIComponent(entry[1])) };
  return { kind: 'unknown' };
}

function route(method: string, path: string): Route {
  if (path.startsWith('/v1beta/')) return geminiRoute(method, trimTrailingSlashes(path));
  const p = trimTrailingSlashes(path).replace(/^\/v1(?=\/|$)/, '') || '/';
  if (method === 'POST' && p === '/chat/completions') return { kind: 'generate', api: 'openai-chat', handler: handleChatCompletions };
  if (method === 'POST' && p === '/responses') return { kind: 'generate', api: 'openai-responses', handler: handleResponses };
  if (method === 'POST' && p === '/embeddings') return { kind: 'generate', api: 'openai-embeddings', handler: handleEmbeddings };
  if (method === 'POST' && p === '/messages') return { kind: 'generate', api: 'anthropic', handler: handleMessages };
  if (method === 'POST' && p === '/messages/count_tokens') return { kind: 'count' };
  const response = /^\/responses\/([^/]+)$/.exec(p);
  if (response && (method === 'GET' || method === 'DELETE')) return { kind: 'response', id: decodeURIComponent(response[1]) };
  const models = /^\/models(?:\/([^/]+))?$/.exec(p);
  if (models && method === 'GET') return { kind: 'models', id: models[1] === undefined ? undefined : decodeURIComponent(models[1]) };
  if ((method === 'GET' || method === 'HEAD') && p === '/') return { kind: 'root' };
  return { kind: 'unknown' };
}

function delay(ms: number, timers: Set<ReturnType<typeof setTimeout>>): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      resolve();
    }, ms);
    timers.add(timer);
  });
}

export async function startProviderServer(options: ProviderServerOptions = {}): Promise<ProviderServer> {
  const clock = options.clock ?? (() => Date.now());
  const log = options.log;
  const requests: RecordedRequest[] = [];
  const faults = new FaultQueue();
  const sockets = new Set<Socket>();
  const timers = new Set<ReturnType<typeof setTimeout>>();
  let idCounter = 0;
  let requestCounter = 0;
  const catalogue: ModelCatalogue = { ...defaultCatalogue(options.model ?? 'gpt-4o-mini'), ...options.models };
  const state: ServerState = {
    openaiCache: new OpenAIPromptCache(),
    anthropicCache: new AnthropicPromptCache(),
    responses: new Map<string, StoredResponse>(),
    gemini: new GeminiState(),
    defaultModel: options.model ?? 'gpt-4o-mini',
    nextId: (prefix) => `${prefix}${String(++idCounter).padStart(6, '0')}`,
  };

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const method = req.method ?? 'GET';
    const [path, queryText = ''] = (req.url ?? '/').split('?');
    const target = route(method, path);
    const requestId = `req_local_${String(++requestCounter).padStart(6, '0')}`;
    const anthropicClient = req.headers['anthropic-version'] !== undefined || req.headers['x-api-key'] !== undefined;
    const api: Api = target.kind === 'generate' ? target.api : target.kind === 'gemini' || path.startsWith('/v1beta/') ? 'gemini' : target.kind === 'count' || anthropicClient ? 'anthropic' : 'openai-chat';
    const fail = (status: number, details: Parameters<typeof errorReply>[2]): void => {
      const reply = errorReply(api, status, details, requestId);
      sendJson(res, reply.status, reply.body, reply.headers);
    };

    const raw = method === 'POST' || method === 'PATCH' ? await readBody(req) : '';
    let body: unknown = raw;
    let badJson = false;
    if (raw.length > 0) {
      try {
        body = JSON.parse(raw);
      } catch {
        badJson = true;
      }
    }
    if (target.kind === 'generate' || target.kind === 'count' || (target.kind === 'gemini' && method !== 'GET')) {
      requests.push({ api, path, headers: recordHeaders(req), body });
    }
    const streaming = target.kind === 'generate' && (target.stream ?? asRecord(body)?.stream === true);
    log?.(`${method} ${path}${streaming ? ' (stream)' : ''}`);

    if (badJson || ((target.kind === 'generate' || target.kind === 'count' || (target.kind === 'gemini' && method === 'POST')) && !asRecord(body))) {
      fail(400, { message: 'The request body is not a valid JSON object.' });
      return;
    }

    if (options.apiKey !== undefined && target.kind !== 'root' && target.kind !== 'unknown' && requestKey(req) !== options.apiKey) {
      fail(401, {});
      return;
    }
    const model = asRecord(body)?.model;
    const known = api === 'anthropic' ? catalogue.anthropic : catalogue.openai;
    if (options.knownModelsOnly && target.kind === 'generate' && typeof model === 'string' && !known.includes(model)) {
      fail(404, api === 'anthropic' ? { message: `model: ${model}` } : { message: `The model \`${model}\` does not exist or you do not have access to it.`, code: 'model_not_found' });
      return;
    }

    switch (target.kind) {
      case 'root':
        sendJson(res, 200, { ok: true, service: 'strata local provider server' });
        return;
      case 'models': {
        const created = Math.floor(clock() / 1000);
        if (target.id !== undefined) sendJson(res, 200, modelEntry(target.id, created));
        else sendJson(res, 200, modelList(anthropicClient ? catalogue.anthropic : catalogue.openai, anthropicClient, new URLSearchParams(queryText), created));
        return;
      }
      case 'response': {
        const stored = state.responses.get(target.id);
        if (method === 'DELETE' && stored) {
          state.responses.delete(target.id);
          sendJson(res, 200, { id: target.id, object: 'response', deleted: true });
        } else {
          getStoredResponse({ state, json: (status, value) => sendJson(res, status, value) }, target.id);
        }
        return;
      }
      case 'count':
        handleCountTokens({ body: asRecord(body) ?? {}, headers: recordHeaders(req), requestId, json: (status, value, headers) => sendJson(res, status, value, headers) });
        return;
      case 'gemini':
        target.run(
          { api, body: asRecord(body) ?? {}, headers: recordHeaders(req), streaming: false, state, now: clock(), requestId, json: (status, value, headers) => sendJson(res, status, value, headers), stream: () => { throw new Error('not a stream'); }, wait: () => Promise.resolve(true) },
          new URLSearchParams(queryText),
        );
        return;
      case 'unknown':
        fail(404, { message: `Unknown request URL: ${method} ${path}.`, code: 'unknown_url' });
        return;
      case 'generate':
        break;
    }

    let cutAfter: number | undefined;
    const fault = faults.take(streaming);
    if (fault) log?.(`  fault: ${JSON.stringify(fault)}`);
    if (fault?.kind === 'status') {
      fail(fault.status, { retryAfterSeconds: fault.retryAfterSeconds, message: undefined });
      return;
    }
    if (fault?.kind === 'hang') {
      // No answer: the socket stays open until the client gives up or close() destroys it.
      if (fault.ms === undefined) return;
      await delay(fault.ms, timers);
      if (res.destroyed || res.writableEnded) return;
    }
    if (fault?.kind === 'cut-stream') cutAfter = fault.afterChunks;
    const stallAfter = fault?.kind === 'stall-stream' ? fault.afterChunks : undefined;

    const exchange: Exchange = {
      api,
      body: asRecord(body) ?? {},
      headers: recordHeaders(req),
      streaming,
      state,
      now: clock(),
      requestId,
      json: (status, value, headers) => sendJson(res, status, value, headers),
      stream: (headers = {}) => new SseStream(res, cutAfter, headers, stallAfter),
      wait: async (ms) => {
        await delay(ms, timers);
        return !(res.destroyed || res.writableEnded);
      },
    };
    await target.handler(exchange);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) {
        res.destroy();
        return;
      }
      const anthropic = (req.url ?? '').includes('/messages');
      const api: Api = (req.url ?? '').startsWith('/v1beta/') ? 'gemini' : anthropic ? 'anthropic' : 'openai-chat';
      const reply =
        error instanceof RequestError
          ? errorReply(api, error.status, error.details)
          : errorReply(api, 500, { message: `Local provider server error: ${error instanceof Error ? error.message : String(error)}` });
      log?.(`  error ${reply.status}: ${error instanceof Error ? error.message : String(error)}`);
      sendJson(res, reply.status, reply.body, reply.headers);
    });
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('provider server: no TCP address');
  const url = `http://127.0.0.1:${address.port}`;
  let closed: Promise<void> | undefined;

  return {
    url,
    requests,
    injectFault: (fault) => faults.inject(fault),
    clearFaults: () => faults.clear(),
    reset: () => {
      requests.length = 0;
      faults.clear();
      state.openaiCache.clear();
      state.anthropicCache.clear();
      state.responses.clear();
      state.gemini.clear();
    },
    close: () => {
      closed ??= new Promise<void>((resolve) => {
        for (const timer of timers) clearTimeout(timer);
        timers.clear();
        server.close(() => resolve());
        for (const socket of sockets) socket.destroy();
        server.closeAllConnections();
      });
      return closed;
    },
  };
}

/** Error bodies in each provider's own JSON shape. */

export type Api = 'openai-chat' | 'openai-responses' | 'openai-embeddings' | 'anthropic' | 'gemini';

export interface ErrorReply {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Record<string, string>;
}

const OPENAI_BY_STATUS: Record<number, { type: string; code: string | null; message: string }> = {
  400: { type: 'invalid_request_error', code: null, message: 'Invalid request.' },
  401: { type: 'invalid_request_error', code: 'invalid_api_key', message: 'Incorrect API key provided.' },
  404: { type: 'invalid_request_error', code: 'unknown_url', message: 'Unknown request URL.' },
  429: { type: 'requests', code: 'rate_limit_exceeded', message: 'Rate limit reached for requests. Please try again later.' },
  500: { type: 'server_error', code: null, message: 'The server had an error while processing your request.' },
  502: { type: 'server_error', code: null, message: 'Bad gateway.' },
  503: { type: 'server_error', code: 'service_unavailable', message: 'The server is overloaded or not ready yet.' },
  529: { type: 'server_error', code: 'overloaded', message: 'The server is overloaded.' },
};

const ANTHROPIC_BY_STATUS: Record<number, { type: string; message: string }> = {
  400: { type: 'invalid_request_error', message: 'Invalid request.' },
  401: { type: 'authentication_error', message: 'invalid x-api-key' },
  404: { type: 'not_found_error', message: 'Not found.' },
  429: { type: 'rate_limit_error', message: 'Number of requests has exceeded your rate limit. Please try again later.' },
  500: { type: 'api_error', message: 'Internal server error.' },
  502: { type: 'api_error', message: 'Bad gateway.' },
  503: { type: 'api_error', message: 'Service unavailable.' },
  529: { type: 'overloaded_error', message: 'Overloaded.' },
};

const GEMINI_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

const GEMINI_MESSAGES: Record<number, string> = {
  401: 'API key not valid. Please pass a valid API key.',
  429: 'Resource exhausted. Please try again later.',
  503: 'The model is overloaded. Please try again later.',
};

export interface ErrorDetails {
  readonly message?: string;
  /** OpenAI `code` (e.g. previous_response_not_found). */
  readonly code?: string;
  readonly param?: string;
  readonly retryAfterSeconds?: number;
}

export function errorReply(api: Api, status: number, details: ErrorDetails = {}, requestId = 'req_local'): ErrorReply {
  const status_ = status;
  const headers: Record<string, string> = {};
  if (details.retryAfterSeconds !== undefined) headers['retry-after'] = String(details.retryAfterSeconds);
  if (api === 'gemini') {
    // Google's shape: {error: {code, message, status}}; a 429 names its wait in RetryInfo.
    const status = GEMINI_STATUS[status_] ?? 'INTERNAL';
    const retry = details.retryAfterSeconds !== undefined ? [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: `${details.retryAfterSeconds}s` }] : undefined;
    return { status: status_, headers, body: { error: { code: status_, message: details.message ?? GEMINI_MESSAGES[status_] ?? 'Internal error encountered.', status, ...(retry ? { details: retry } : {}) } } };
  }
  if (api === 'anthropic') {
    const known = ANTHROPIC_BY_STATUS[status] ?? ANTHROPIC_BY_STATUS[500];
    headers['request-id'] = requestId;
    return {
      status,
      headers,
      body: { type: 'error', error: { type: known.type, message: details.message ?? known.message }, request_id: requestId },
    };
  }
  const known = OPENAI_BY_STATUS[status] ?? OPENAI_BY_STATUS[500];
  headers['x-request-id'] = requestId;
  return {
    status,
    headers,
    body: {
      error: {
        message: details.message ?? known.message,
        type: known.type,
        param: details.param ?? null,
        code: details.code ?? known.code,
      },
    },
  };
}

/** A request the server refuses (bad input): carries the provider-shaped error. */
export class RequestError extends Error {
  constructor(
    readonly status: number,
    readonly details: ErrorDetails & { message: string },
  ) {
    super(details.message);
  }
}

import { ANTHROPIC_CACHE_TTL_1H_MS, ANTHROPIC_MAX_BREAKPOINTS, anthropicMinCacheableTokens } from './anthropicCacheRule';
import type { Exchange } from './context';
import { asRecord } from './context';
import { RequestError } from './errors';
import { encodePrompt, countTokens, partText, roleMarker, type PromptBlock } from './prompt';
import { deterministicReply, replyChunks } from './reply';

interface ParsedMessages {
  readonly model: string;
  readonly blocks: PromptBlock[];
  readonly lastUserText: string;
}

function cacheControlOf(value: unknown): { breakpoint: boolean; ttlMs?: number } {
  const control = asRecord(asRecord(value)?.cache_control);
  if (!control) return { breakpoint: false };
  return { breakpoint: true, ttlMs: control.ttl === '1h' ? ANTHROPIC_CACHE_TTL_1H_MS : undefined };
}

function withoutCacheControl(value: unknown): unknown {
  const record = asRecord(value);
  if (!record) return value;
  const { cache_control: _ignored, ...rest } = record;
  return rest;
}

/** Content (string or blocks) as prompt blocks, the first one carrying `marker`. */
function contentBlocks(content: unknown, marker: string, where: string): PromptBlock[] {
  if (typeof content === 'string') return [{ text: marker + content }];
  if (!Array.isArray(content)) throw new RequestError(400, { message: `${where}: content must be a string or an array of content blocks` });
  if (content.length === 0) return [{ text: marker }];
  return content.map((block, i) => ({ text: (i === 0 ? marker : '') + partText(block), ...cacheControlOf(block) }));
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts = content.filter((b) => asRecord(b)?.type === 'text').map(partText);
  return (texts.length > 0 ? texts : content.map(partText)).join('\n');
}

/** Validates a Messages request and flattens it: tools, then system blocks, then message blocks. */
export function parseMessagesRequest(body: Record<string, unknown>, headers: Readonly<Record<string, string>>, requireMaxTokens: boolean): ParsedMessages {
  // Claude Code's per-turn-control beta allows system messages between turns; without it, the
  // API refuses them (and Claude Code retries without the beta).
  const systemMessages = (headers['anthropic-beta'] ?? '').includes('per-turn-control');
  const model = body.model;
  if (typeof model !== 'string' || model.length === 0) throw new RequestError(400, { message: 'model: Field required' });
  if (requireMaxTokens && typeof body.max_tokens !== 'number') throw new RequestError(400, { message: 'max_tokens: Field required' });
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new RequestError(400, { message: 'messages: at least one message is required' });
  }
  const blocks: PromptBlock[] = [];
  if (Array.isArray(body.tools)) {
    body.tools.forEach((tool, i) => {
      blocks.push({ text: (i === 0 ? roleMarker('tools') : '') + JSON.stringify(withoutCacheControl(tool)), ...cacheControlOf(tool) });
    });
  }
  if (body.system !== undefined) blocks.push(...contentBlocks(body.system, roleMarker('system'), 'system'));
  let lastUserText = '';
  messages.forEach((raw, i) => {
    const message = asRecord(raw);
    const roleOk = message && (message.role === 'user' || message.role === 'assistant' || (systemMessages && message.role === 'system'));
    if (!message || !roleOk) {
      throw new RequestError(400, { message: `messages.${i}.role: Input should be 'user' or 'assistant'` });
    }
    blocks.push(...contentBlocks(message.content, roleMarker(String(message.role)), `messages.${i}`));
    if (message.role === 'user') lastUserText = textOf(message.content);
  });
  // Automatic caching: a top-level cache_control puts a breakpoint on the last block.
  const topLevel = cacheControlOf(body);
  if (topLevel.breakpoint && blocks.length > 0) blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], ...topLevel };
  const breakpoints = blocks.filter((b) => b.breakpoint).length;
  if (breakpoints > ANTHROPIC_MAX_BREAKPOINTS) {
    throw new RequestError(400, {
      message: `A maximum of ${ANTHROPIC_MAX_BREAKPOINTS} blocks with cache_control may be provided. Found ${breakpoints}.`,
    });
  }
  return { model, blocks, lastUserText };
}

/** POST /v1/messages */
export async function handleMessages(ex: Exchange): Promise<void> {
  const { model, blocks, lastUserText } = parseMessagesRequest(ex.body, ex.headers, true);
  const encoded = encodePrompt(model, blocks);
  const cache = ex.state.anthropicCache.account(encoded.boundaries, encoded.tokens.length, anthropicMinCacheableTokens(model), ex.now);
  const reply = deterministicReply(
    blocks.map((b) => b.text),
    lastUserText,
  );
  const outputTokens = countTokens(model, reply);
  const id = ex.state.nextId('msg_local_');
  const inputUsage = {
    input_tokens: cache.input,
    cache_creation_input_tokens: cache.cacheWrite,
    cache_read_input_tokens: cache.cacheRead,
    cache_creation: { ephemeral_5m_input_tokens: cache.cacheWrite - cache.cacheWrite1h, ephemeral_1h_input_tokens: cache.cacheWrite1h },
  };
  const headers = { 'request-id': ex.requestId };

  if (!ex.streaming) {
    ex.json(
      200,
      {
        id,
        type: 'message',
        role: 'assistant',
        model,
        content: [{ type: 'text', text: reply }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { ...inputUsage, output_tokens: outputTokens, service_tier: 'standard' },
      },
      headers,
    );
    return;
  }

  const stream = ex.stream(headers);
  const send = (type: string, fields: Record<string, unknown>): Promise<boolean> => stream.send({ type, ...fields }, type);
  if (!(await stream.open())) return;
  const start = {
    id,
    type: 'message',
    role: 'assistant',
    model,
    content: [],
    stop_reason: null,
    stop_sequence: null,
    // output_tokens 0 here: clients add message_start's and message_delta's output counts.
    usage: { ...inputUsage, output_tokens: 0, service_tier: 'standard' },
  };
  if (!(await send('message_start', { message: start }))) return;
  if (!(await send('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }))) return;
  if (!(await send('ping', {}))) return;
  for (const text of replyChunks(reply)) {
    if (!(await send('content_block_delta', { index: 0, delta: { type: 'text_delta', text } }))) return;
  }
  if (!(await send('content_block_stop', { index: 0 }))) return;
  if (!(await send('message_delta', { delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { ...inputUsage, output_tokens: outputTokens } }))) return;
  if (!(await send('message_stop', {}))) return;
  stream.end();
}

/** POST /v1/messages/count_tokens: the prompt's size, without touching the cache. */
export function handleCountTokens(ex: Pick<Exchange, 'body' | 'headers' | 'json' | 'requestId'>): void {
  const { model, blocks } = parseMessagesRequest(ex.body, ex.headers, false);
  ex.json(200, { input_tokens: encodePrompt(model, blocks).tokens.length }, { 'request-id': ex.requestId });
}

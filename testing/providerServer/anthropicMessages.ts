import { ANTHROPIC_CACHE_TTL_1H_MS, ANTHROPIC_MAX_BREAKPOINTS, anthropicMinCacheableTokens } from './anthropicCacheRule';
import type { Exchange } from './context';
import { asRecord } from './context';
import { RequestError } from './errors';
import { encodePrompt, countTokens, partText, roleMarker, seenImage, type PromptBlock } from './prompt';
import { replyChunks } from './reply';
import { argumentPieces, callId, outputText, type ScriptedReply } from './toolScript';
import { anthropicToolConversation } from './toolTurns';
import { turnReply } from './turnReply';
import { anthropicPlannerView } from './plannerTurns';

interface ParsedMessages {
  readonly model: string;
  readonly blocks: PromptBlock[];
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
  return content.map((block, i) => {
    const image = seenImage(block);
    return { text: (i === 0 ? marker : '') + partText(block), ...cacheControlOf(block), ...(image ? { images: [image] } : {}) };
  });
}

/**
 * Validates a Messages request and flattens it: tools, then system blocks, then message blocks
 * (tool_use and tool_result blocks as their JSON, like any non-text block).
 */
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
  messages.forEach((raw, i) => {
    const message = asRecord(raw);
    const roleOk = message && (message.role === 'user' || message.role === 'assistant' || (systemMessages && message.role === 'system'));
    if (!message || !roleOk) {
      throw new RequestError(400, { message: `messages.${i}.role: Input should be 'user' or 'assistant'` });
    }
    blocks.push(...contentBlocks(message.content, roleMarker(String(message.role)), `messages.${i}`));
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
  return { model, blocks };
}

/** The reply's content blocks: one text block, or one tool_use block per scripted call. */
function contentOf(reply: ScriptedReply): Array<Record<string, unknown>> {
  if (reply.kind === 'text') return [{ type: 'text', text: reply.text }];
  return reply.calls.map((call, i) => ({ type: 'tool_use', id: callId('toolu', reply.step, i), name: call.name, input: call.args }));
}

type Send = (type: string, fields: Record<string, unknown>) => Promise<boolean>;

/** Content block events: a tool_use block starts with empty input, then its JSON in pieces. */
async function streamContent(send: Send, reply: ScriptedReply, content: ReadonlyArray<Record<string, unknown>>): Promise<boolean> {
  for (const [index, block] of content.entries()) {
    const start = block.type === 'text' ? { ...block, text: '' } : { ...block, input: {} };
    if (!(await send('content_block_start', { index, content_block: start }))) return false;
    if (index === 0 && !(await send('ping', {}))) return false;
    const deltas =
      reply.kind === 'text'
        ? replyChunks(reply.text).map((text) => ({ type: 'text_delta', text }))
        : argumentPieces(reply.calls[index].arguments).map((partial_json) => ({ type: 'input_json_delta', partial_json }));
    for (const delta of deltas) if (!(await send('content_block_delta', { index, delta }))) return false;
    if (!(await send('content_block_stop', { index }))) return false;
  }
  return true;
}

/** POST /v1/messages */
export async function handleMessages(ex: Exchange): Promise<void> {
  const { model, blocks } = parseMessagesRequest(ex.body, ex.headers, true);
  const encoded = encodePrompt(model, blocks);
  const cache = ex.state.anthropicCache.account(encoded.boundaries, encoded.tokens.length, anthropicMinCacheableTokens(model), ex.now);
  const conversation = anthropicToolConversation(ex.body);
  const reply = await turnReply(ex, anthropicPlannerView(ex.body, conversation), conversation, blocks);
  if (reply === 'gone') return;
  const content = contentOf(reply);
  const stopReason = reply.kind === 'calls' ? 'tool_use' : 'end_turn';
  const outputTokens = countTokens(model, outputText(reply));
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
        content,
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { ...inputUsage, output_tokens: outputTokens, service_tier: 'standard' },
      },
      headers,
    );
    return;
  }

  const stream = ex.stream(headers);
  const send: Send = (type, fields) => stream.send({ type, ...fields }, type);
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
  if (!(await streamContent(send, reply, content))) return;
  if (!(await send('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { ...inputUsage, output_tokens: outputTokens } }))) return;
  if (!(await send('message_stop', {}))) return;
  stream.end();
}

/** POST /v1/messages/count_tokens: the prompt's size, without touching the cache. */
export function handleCountTokens(ex: Pick<Exchange, 'body' | 'headers' | 'json' | 'requestId'>): void {
  const { model, blocks } = parseMessagesRequest(ex.body, ex.headers, false);
  ex.json(200, { input_tokens: encodePrompt(model, blocks).tokens.length }, { 'request-id': ex.requestId });
}

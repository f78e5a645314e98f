import type { Exchange, StoredResponse } from './context';
import { asRecord } from './context';
import { RequestError } from './errors';
import { countTokens, encodePrompt, imagesOf, partText, roleMarker, type PromptBlock } from './prompt';
import { replyChunks } from './reply';
import { argumentPieces, callId, outputText, type ScriptedReply } from './toolScript';
import { responsesToolConversation } from './toolTurns';
import { turnReply } from './turnReply';
import { responsesPlannerView } from './plannerTurns';

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(partText).join('\n');
  return '';
}

/** One input or output item as prompt text (messages by role; tool calls and outputs by kind). */
function itemBlock(raw: unknown): PromptBlock {
  const item = asRecord(raw);
  if (!item) return { text: roleMarker('item') + JSON.stringify(raw ?? null) };
  if (typeof item.role === 'string' && (item.type === undefined || item.type === 'message')) {
    const images = imagesOf(item.content);
    return { text: roleMarker(item.role) + contentText(item.content), ...(images.length > 0 ? { images } : {}) };
  }
  if (item.type === 'function_call') {
    return { text: roleMarker('function_call') + `${String(item.name)} ${String(item.arguments)}` };
  }
  if (item.type === 'function_call_output') {
    return { text: roleMarker('tool') + (typeof item.output === 'string' ? item.output : JSON.stringify(item.output ?? null)) };
  }
  return { text: roleMarker(typeof item.type === 'string' ? item.type : 'item') + JSON.stringify(item) };
}

function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (Array.isArray(input)) return input;
  throw new RequestError(400, { message: "Invalid 'input': expected a string or an array of input items.", param: 'input' });
}

interface FunctionCallItem {
  readonly id: string;
  readonly type: 'function_call';
  readonly status: string;
  readonly arguments: string;
  readonly call_id: string;
  readonly name: string;
}

interface MessageItem {
  readonly id: string;
  readonly type: 'message';
  readonly status: string;
  readonly role: 'assistant';
  readonly content: ReadonlyArray<{ type: 'output_text'; text: string; annotations: never[]; logprobs: never[] }>;
}

function messageItem(id: string, text: string): MessageItem {
  return { id, type: 'message', status: 'completed', role: 'assistant', content: [{ type: 'output_text', text, annotations: [], logprobs: [] }] };
}

/** One function_call item per scripted call, with deterministic ids. */
function functionCallItems(reply: Extract<ScriptedReply, { kind: 'calls' }>): FunctionCallItem[] {
  return reply.calls.map((call, i) => ({
    id: callId('fc', reply.step, i),
    type: 'function_call',
    status: 'completed',
    arguments: call.arguments,
    call_id: callId('call', reply.step, i),
    name: call.name,
  }));
}

type Send = (type: string, fields: Record<string, unknown>) => Promise<boolean>;

/** A message item's events, text delta by delta; false once the stream is gone. */
async function streamMessage(send: Send, item: MessageItem): Promise<boolean> {
  const part = item.content[0];
  const where = { item_id: item.id, output_index: 0, content_index: 0 };
  return (
    (await send('response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } })) &&
    (await send('response.content_part.added', { ...where, part: { ...part, text: '' } })) &&
    (await sendEach(replyChunks(part.text), (delta) => send('response.output_text.delta', { ...where, delta, logprobs: [] }))) &&
    (await send('response.output_text.done', { ...where, text: part.text, logprobs: [] })) &&
    (await send('response.content_part.done', { ...where, part })) &&
    (await send('response.output_item.done', { output_index: 0, item }))
  );
}

/** Each function_call item's events, its arguments in pieces; false once the stream is gone. */
async function streamFunctionCalls(send: Send, items: readonly FunctionCallItem[]): Promise<boolean> {
  for (const [outputIndex, item] of items.entries()) {
    const where = { item_id: item.id, output_index: outputIndex };
    const ok =
      (await send('response.output_item.added', { output_index: outputIndex, item: { ...item, status: 'in_progress', arguments: '' } })) &&
      (await sendEach(argumentPieces(item.arguments), (delta) => send('response.function_call_arguments.delta', { ...where, delta }))) &&
      (await send('response.function_call_arguments.done', { ...where, name: item.name, arguments: item.arguments })) &&
      (await send('response.output_item.done', { output_index: outputIndex, item }));
    if (!ok) return false;
  }
  return true;
}

async function sendEach(pieces: readonly string[], sendOne: (piece: string) => Promise<boolean>): Promise<boolean> {
  for (const piece of pieces) if (!(await sendOne(piece))) return false;
  return true;
}

/** POST /v1/responses */
export async function handleResponses(ex: Exchange): Promise<void> {
  const body = ex.body;
  const model = body.model;
  if (typeof model !== 'string' || model.length === 0) {
    throw new RequestError(400, { message: 'you must provide a model parameter', param: 'model' });
  }
  const newItems = inputItems(body.input);
  let prior: readonly unknown[] = [];
  const previousId = body.previous_response_id;
  if (previousId !== undefined && previousId !== null) {
    const previous = typeof previousId === 'string' ? ex.state.responses.get(previousId) : undefined;
    if (!previous) {
      throw new RequestError(400, {
        message: `Previous response with id '${typeof previousId === 'string' ? previousId : JSON.stringify(previousId)}' not found.`,
        param: 'previous_response_id',
        code: 'previous_response_not_found',
      });
    }
    prior = previous.items;
  }
  const conversation = [...prior, ...newItems];
  if (conversation.length === 0) {
    throw new RequestError(400, { message: "Invalid 'input': the conversation is empty.", param: 'input' });
  }

  // Instructions apply to this request only; they are not carried over by previous_response_id.
  const blocks: PromptBlock[] = [];
  if (Array.isArray(body.tools) && body.tools.length > 0) blocks.push({ text: roleMarker('tools') + JSON.stringify(body.tools) });
  if (typeof body.instructions === 'string' && body.instructions.length > 0) blocks.push({ text: roleMarker('system') + body.instructions });
  for (const item of conversation) blocks.push(itemBlock(item));

  const encoded = encodePrompt(model, blocks);
  const cacheKey = `${model}\u0000${typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : ''}`;
  const cached = ex.state.openaiCache.account(cacheKey, encoded.tokens);
  const toolConversation = responsesToolConversation(body, conversation);
  const reply = await turnReply(ex, responsesPlannerView(body, conversation, toolConversation), toolConversation, blocks);
  if (reply === 'gone') return;
  const outputTokens = countTokens(model, outputText(reply));
  const id = ex.state.nextId('resp_local_');
  const store = body.store !== false;
  const createdAt = Math.floor(ex.now / 1000);
  const usage = {
    input_tokens: encoded.tokens.length,
    input_tokens_details: { cached_tokens: cached },
    output_tokens: outputTokens,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: encoded.tokens.length + outputTokens,
  };
  const message = reply.kind === 'text' ? messageItem(ex.state.nextId('msg_local_'), reply.text) : undefined;
  const calls = reply.kind === 'calls' ? functionCallItems(reply) : [];
  const output: Array<MessageItem | FunctionCallItem> = message ? [message] : calls;
  const responseWith = (status: string, output: unknown[], withUsage: boolean): Record<string, unknown> => ({
    id,
    object: 'response',
    created_at: createdAt,
    status,
    background: false,
    error: null,
    incomplete_details: null,
    instructions: typeof body.instructions === 'string' ? body.instructions : null,
    max_output_tokens: typeof body.max_output_tokens === 'number' ? body.max_output_tokens : null,
    metadata: asRecord(body.metadata) ?? {},
    model,
    output,
    parallel_tool_calls: true,
    previous_response_id: typeof previousId === 'string' ? previousId : null,
    prompt_cache_key: typeof body.prompt_cache_key === 'string' ? body.prompt_cache_key : null,
    reasoning: { effort: null, summary: null },
    service_tier: 'default',
    store,
    temperature: typeof body.temperature === 'number' ? body.temperature : 1,
    text: { format: asRecord(asRecord(body.text)?.format) ?? { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto',
    tools: Array.isArray(body.tools) ? body.tools : [],
    top_p: 1,
    truncation: 'disabled',
    usage: withUsage ? usage : null,
    user: null,
  });
  const completed = responseWith('completed', output, true);
  if (store) {
    // Function calls are stored too: a follow-up's function_call_output items answer them, and the
    // script counts them as a step taken.
    const stored: StoredResponse = { id, items: [...conversation, ...output], response: completed };
    ex.state.responses.set(id, stored);
  }
  const headers = { 'x-request-id': ex.requestId, 'openai-model': model };

  if (!ex.streaming) {
    ex.json(200, completed, headers);
    return;
  }

  const stream = ex.stream(headers);
  let sequence = 0;
  const send = (type: string, fields: Record<string, unknown>): Promise<boolean> =>
    stream.send({ type, sequence_number: sequence++, ...fields }, type);
  if (!(await stream.open())) return;
  if (!(await send('response.created', { response: responseWith('in_progress', [], false) }))) return;
  if (!(await send('response.in_progress', { response: responseWith('in_progress', [], false) }))) return;
  if (!(await (message ? streamMessage(send, message) : streamFunctionCalls(send, calls)))) return;
  if (!(await send('response.completed', { response: completed }))) return;
  stream.end();
}

/** GET /v1/responses/{id} */
export function getStoredResponse(ex: Pick<Exchange, 'state' | 'json'>, id: string): void {
  const stored = ex.state.responses.get(id);
  if (stored) ex.json(200, stored.response);
  else throw new RequestError(404, { message: `Response with id '${id}' not found.`, code: 'not_found' });
}

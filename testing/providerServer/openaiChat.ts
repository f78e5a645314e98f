import { RequestError } from './errors';
import type { Exchange } from './context';
import { asRecord } from './context';
import { countTokens, encodePrompt, imagesOf, partText, roleMarker, type PromptBlock } from './prompt';
import { replyChunks } from './reply';
import { argumentPieces, callId, outputText, type ScriptedCall } from './toolScript';
import { chatToolConversation } from './toolTurns';
import { turnReply } from './turnReply';
import { chatPlannerView } from './plannerTurns';

/** The text of a Chat Completions message's content (string, array of parts, or null). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map(partText).join('\n');
  return '';
}

/**
 * Model and prompt blocks of a Chat Completions request, validated. An assistant message's
 * tool_calls and a tool message's content are part of the prompt like any text.
 */
export function parseChatRequest(body: Record<string, unknown>): { model: string; blocks: PromptBlock[] } {
  const model = body.model;
  if (typeof model !== 'string' || model.length === 0) {
    throw new RequestError(400, { message: 'you must provide a model parameter', param: 'model' });
  }
  const messages = body.messages;
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new RequestError(400, { message: "Invalid 'messages': expected a non-empty array of messages.", param: 'messages' });
  }
  const blocks: PromptBlock[] = [];
  if (Array.isArray(body.tools) && body.tools.length > 0) blocks.push({ text: roleMarker('tools') + JSON.stringify(body.tools) });
  messages.forEach((raw, i) => {
    const message = asRecord(raw);
    if (!message || typeof message.role !== 'string') {
      throw new RequestError(400, { message: `Invalid 'messages[${i}]': each message needs a role.`, param: `messages[${i}]` });
    }
    let text = roleMarker(message.role) + contentText(message.content);
    if (Array.isArray(message.tool_calls)) text += '\n' + JSON.stringify(message.tool_calls);
    const images = imagesOf(message.content);
    blocks.push({ text, ...(images.length > 0 ? { images } : {}) });
  });
  return { model, blocks };
}

function chatUsage(promptTokens: number, cached: number, completionTokens: number): Record<string, unknown> {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: cached, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

/** The wire tool_calls of a scripted step (complete, as in a non-streamed message). */
function wireCalls(step: number, calls: readonly ScriptedCall[]): Array<Record<string, unknown>> {
  return calls.map((call, i) => ({ id: callId('call', step, i), type: 'function', function: { name: call.name, arguments: call.arguments } }));
}

/** POST /v1/chat/completions */
export async function handleChatCompletions(ex: Exchange): Promise<void> {
  const { model, blocks } = parseChatRequest(ex.body);
  const encoded = encodePrompt(model, blocks);
  const cacheKey = `${model}\u0000${typeof ex.body.prompt_cache_key === 'string' ? ex.body.prompt_cache_key : ''}`;
  const cached = ex.state.openaiCache.account(cacheKey, encoded.tokens);
  const conversation = chatToolConversation(ex.body);
  const reply = await turnReply(ex, chatPlannerView(ex.body, conversation), conversation, blocks);
  if (reply === 'gone') return;
  const finishReason = reply.kind === 'calls' ? 'tool_calls' : 'stop';
  const usage = chatUsage(encoded.tokens.length, cached, countTokens(model, outputText(reply)));
  const id = ex.state.nextId('chatcmpl-local-');
  const created = Math.floor(ex.now / 1000);
  const headers = { 'x-request-id': ex.requestId, 'openai-model': model };

  if (!ex.streaming) {
    const message =
      reply.kind === 'calls'
        ? { role: 'assistant', content: null, tool_calls: wireCalls(reply.step, reply.calls), refusal: null, annotations: [] }
        : { role: 'assistant', content: reply.text, refusal: null, annotations: [] };
    ex.json(
      200,
      {
        id,
        object: 'chat.completion',
        created,
        model,
        choices: [{ index: 0, message, logprobs: null, finish_reason: finishReason }],
        usage,
        service_tier: 'default',
        system_fingerprint: null,
      },
      headers,
    );
    return;
  }

  const includeUsage = asRecord(ex.body.stream_options)?.include_usage === true;
  const stream = ex.stream(headers);
  const chunk = (delta: Record<string, unknown>, finish: string | null): Record<string, unknown> => ({
    id,
    object: 'chat.completion.chunk',
    created,
    model,
    service_tier: 'default',
    system_fingerprint: null,
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
    ...(includeUsage ? { usage: null } : {}),
  });
  if (!(await stream.open())) return;
  if (reply.kind === 'calls') {
    if (!(await stream.send(chunk({ role: 'assistant', content: null, refusal: null }, null)))) return;
    // Per call: its id and name with empty arguments, then the arguments in pieces (clients reassemble by index).
    for (const [index, call] of reply.calls.entries()) {
      const head = { index, id: callId('call', reply.step, index), type: 'function', function: { name: call.name, arguments: '' } };
      if (!(await stream.send(chunk({ tool_calls: [head] }, null)))) return;
      for (const piece of argumentPieces(call.arguments)) {
        if (!(await stream.send(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }, null)))) return;
      }
    }
  } else {
    if (!(await stream.send(chunk({ role: 'assistant', content: '', refusal: null }, null)))) return;
    for (const piece of replyChunks(reply.text)) {
      if (!(await stream.send(chunk({ content: piece }, null)))) return;
    }
  }
  if (!(await stream.send(chunk({}, finishReason)))) return;
  if (includeUsage) {
    const final = { id, object: 'chat.completion.chunk', created, model, service_tier: 'default', system_fingerprint: null, choices: [], usage };
    if (!(await stream.send(final))) return;
  }
  if (!(await stream.send('[DONE]'))) return;
  stream.end();
}

/**
 * Raw-wire drivers for the tool-calling tests: per API, build a request from a user message and
 * the steps taken so far (calls and their results), and read the reply (JSON or SSE) back into
 * one shape, reassembling streamed arguments the way clients do.
 */
import type { WireJson } from '../../../testing/providerServer';
import { payloads, postJson, readSse } from './helpers';

export interface Call {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/** A step taken: the calls the server made and the results the client sends back, one per call. */
export interface Step {
  readonly calls: readonly Call[];
  readonly results: readonly string[];
}

export interface Outcome {
  readonly calls: Call[];
  readonly text: string;
  readonly stop: string;
  readonly promptTokens: number;
  readonly cachedTokens: number;
  readonly outputTokens: number;
  /** The JSON body, or the SSE payloads. */
  readonly raw: WireJson;
}

export interface Turn {
  readonly user: string;
  readonly steps?: readonly Step[];
  readonly stream: boolean;
  /** Declared tool names (default: readNote and localSearch); [] declares none. */
  readonly tools?: readonly string[];
  /** A long system prompt / instructions, so the prompt passes the 1024-token cache minimum. */
  readonly system?: string;
}

export interface Driver {
  readonly api: 'chat' | 'responses' | 'anthropic';
  readonly model: string;
  /** Call id prefix (`call` or `toolu`). */
  readonly idPrefix: string;
  send(turn: Turn): Promise<Outcome>;
}

const TOOLS = ['readNote', 'localSearch'];
const SCHEMA = { type: 'object', properties: { path: { type: 'string' }, query: { type: 'string' } } };

function parsedArgs(json: string): Record<string, unknown> {
  return JSON.parse(json) as Record<string, unknown>;
}

/** A call read off the wire (arguments as a JSON string). */
function call(id: unknown, name: unknown, args: unknown): Call {
  return { id: String(id), name: String(name), args: parsedArgs(String(args)) };
}

export function chatDriver(url: string, model = 'gpt-4o'): Driver {
  return {
    api: 'chat',
    model,
    idPrefix: 'call',
    async send(turn) {
      const tools = (turn.tools ?? TOOLS).map((name) => ({ type: 'function', function: { name, description: name, parameters: SCHEMA } }));
      const messages: unknown[] = [...(turn.system ? [{ role: 'system', content: turn.system }] : []), { role: 'user', content: turn.user }];
      for (const step of turn.steps ?? []) {
        messages.push({
          role: 'assistant',
          content: null,
          tool_calls: step.calls.map((c) => ({ id: c.id, type: 'function', function: { name: c.name, arguments: JSON.stringify(c.args) } })),
        });
        step.calls.forEach((c, i) => messages.push({ role: 'tool', tool_call_id: c.id, content: step.results[i] }));
      }
      const body = { model, messages, ...(tools.length > 0 ? { tools } : {}), stream: turn.stream, ...(turn.stream ? { stream_options: { include_usage: true } } : {}) };
      const response = await postJson(`${url}/v1/chat/completions`, body);
      if (!turn.stream) {
        const json = await response.json();
        const message = json.choices[0].message;
        const calls = ((message.tool_calls ?? []) as WireJson[]).map((c) => call(c.id, c.function.name, c.function.arguments));
        return { calls, text: message.content ?? '', stop: json.choices[0].finish_reason, ...chatUsage(json.usage), raw: json };
      }
      const chunks = payloads(await readSse(response));
      const parts: Array<{ id: string; name: string; args: string }> = [];
      let text = '';
      let stop = '';
      for (const chunk of chunks) {
        const choice = chunk.choices[0];
        if (!choice) continue;
        text += choice.delta.content ?? '';
        stop = choice.finish_reason ?? stop;
        for (const piece of (choice.delta.tool_calls ?? []) as WireJson[]) {
          parts[piece.index] ??= { id: '', name: '', args: '' };
          parts[piece.index].id += piece.id ?? '';
          parts[piece.index].name += piece.function?.name ?? '';
          parts[piece.index].args += piece.function?.arguments ?? '';
        }
      }
      const calls = parts.map((p) => call(p.id, p.name, p.args));
      return { calls, text, stop, ...chatUsage(chunks[chunks.length - 1].usage), raw: chunks };
    },
  };
}

function chatUsage(usage: WireJson): Pick<Outcome, 'promptTokens' | 'cachedTokens' | 'outputTokens'> {
  return { promptTokens: usage.prompt_tokens, cachedTokens: usage.prompt_tokens_details.cached_tokens, outputTokens: usage.completion_tokens };
}

/** The Responses input items of the steps taken (function_call items as the server returned them). */
export function responsesStepItems(steps: readonly Step[]): unknown[] {
  return steps.flatMap((step) => [
    ...step.calls.map((c) => ({ type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify(c.args) })),
    ...step.calls.map((c, i) => ({ type: 'function_call_output', call_id: c.id, output: step.results[i] })),
  ]);
}

/** Reads a Responses reply (JSON body or SSE events); `response` is the completed response object. */
export async function readResponses(response: Response, stream: boolean): Promise<Outcome & { response: WireJson }> {
  let final: WireJson;
  let raw: WireJson;
  let calls: Call[];
  let text: string;
  if (!stream) {
    final = await response.json();
    raw = final;
    calls = (final.output as WireJson[]).filter((o) => o.type === 'function_call').map((o) => call(o.call_id, o.name, o.arguments));
    text = (final.output as WireJson[]).filter((o) => o.type === 'message').map((o) => String(o.content[0].text)).join('');
  } else {
    const events = payloads(await readSse(response));
    raw = events;
    final = events[events.length - 1].response;
    const parts = new Map<number, { id: string; name: string; args: string }>();
    text = '';
    for (const event of events) {
      if (event.type === 'response.output_item.added' && event.item.type === 'function_call') {
        parts.set(Number(event.output_index), { id: String(event.item.call_id), name: String(event.item.name), args: String(event.item.arguments) });
      }
      if (event.type === 'response.function_call_arguments.delta') parts.get(Number(event.output_index))!.args += String(event.delta);
      if (event.type === 'response.output_text.delta') text += event.delta;
    }
    calls = [...parts.values()].map((p) => call(p.id, p.name, p.args));
  }
  const usage = final.usage;
  return {
    calls,
    text,
    stop: calls.length > 0 ? 'tool_calls' : 'stop',
    promptTokens: usage.input_tokens,
    cachedTokens: usage.input_tokens_details.cached_tokens,
    outputTokens: usage.output_tokens,
    raw,
    response: final,
  };
}

export function responsesDriver(url: string, model = 'gpt-4.1-mini'): Driver {
  return {
    api: 'responses',
    model,
    idPrefix: 'call',
    async send(turn) {
      const tools = (turn.tools ?? TOOLS).map((name) => ({ type: 'function', name, description: name, parameters: SCHEMA, strict: false }));
      const input = [{ role: 'user', content: turn.user }, ...responsesStepItems(turn.steps ?? [])];
      const body = { model, input, ...(turn.system ? { instructions: turn.system } : {}), ...(tools.length > 0 ? { tools } : {}), stream: turn.stream };
      return readResponses(await postJson(`${url}/v1/responses`, body), turn.stream);
    },
  };
}

export const ANTHROPIC_HEADERS = { 'x-api-key': 'x', 'anthropic-version': '2023-06-01' };

/** Anthropic; the last block of every request carries cache_control (as Strata's agent loop does). */
export function anthropicDriver(url: string, model = 'claude-sonnet-4-5'): Driver {
  return {
    api: 'anthropic',
    model,
    idPrefix: 'toolu',
    async send(turn) {
      const tools = (turn.tools ?? TOOLS).map((name) => ({ name, description: name, input_schema: SCHEMA }));
      const messages: Array<{ role: string; content: Array<Record<string, unknown>> }> = [{ role: 'user', content: [{ type: 'text', text: turn.user }] }];
      for (const step of turn.steps ?? []) {
        messages.push({ role: 'assistant', content: step.calls.map((c) => ({ type: 'tool_use', id: c.id, name: c.name, input: c.args })) });
        messages.push({ role: 'user', content: step.calls.map((c, i) => ({ type: 'tool_result', tool_use_id: c.id, content: step.results[i] })) });
      }
      const last = messages[messages.length - 1].content;
      last[last.length - 1] = { ...last[last.length - 1], cache_control: { type: 'ephemeral' } };
      const body = { model, max_tokens: 1024, messages, ...(turn.system ? { system: turn.system } : {}), ...(tools.length > 0 ? { tools } : {}), stream: turn.stream };
      const response = await postJson(`${url}/v1/messages`, body, ANTHROPIC_HEADERS);
      if (!turn.stream) {
        const json = await response.json();
        const content = json.content as WireJson[];
        const calls = content.filter((b) => b.type === 'tool_use').map((b): Call => ({ id: b.id, name: b.name, args: b.input }));
        const text = content.filter((b) => b.type === 'text').map((b) => String(b.text)).join('');
        return { calls, text, stop: json.stop_reason, ...anthropicUsage(json.usage), raw: json };
      }
      const events = payloads(await readSse(response));
      const blocks: Array<{ id: string; name: string; json: string; text: string; type: string }> = [];
      let stop = '';
      for (const event of events) {
        if (event.type === 'content_block_start') blocks[event.index] = { ...event.content_block, json: '', text: '' };
        if (event.type === 'content_block_delta' && event.delta.type === 'input_json_delta') blocks[event.index].json += event.delta.partial_json;
        if (event.type === 'content_block_delta' && event.delta.type === 'text_delta') blocks[event.index].text += event.delta.text;
        if (event.type === 'message_delta') stop = event.delta.stop_reason;
      }
      const calls = blocks.filter((b) => b.type === 'tool_use').map((b) => call(b.id, b.name, b.json));
      const delta = events.find((e) => e.type === 'message_delta');
      return { calls, text: blocks.map((b) => b.text).join(''), stop, ...anthropicUsage(delta.usage), raw: events };
    },
  };
}

/** promptTokens: the whole prompt (plain input plus cache reads and writes); cachedTokens: the reads. */
function anthropicUsage(usage: WireJson): Pick<Outcome, 'promptTokens' | 'cachedTokens' | 'outputTokens'> {
  return {
    promptTokens: usage.input_tokens + usage.cache_creation_input_tokens + usage.cache_read_input_tokens,
    cachedTokens: usage.cache_read_input_tokens,
    outputTokens: usage.output_tokens,
  };
}

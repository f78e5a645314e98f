/**
 * Reads, per API, what the tool script depends on (./toolScript.ts): the tools a request declares,
 * its last user-authored message, the assistant tool-call turns after it and the tool results
 * after it, each result named by the call it answers.
 */
import { asRecord } from './context';
import { isImagePart, partText } from './prompt';
import type { ToolConversation, ToolResult } from './toolScript';

/** A message's text (its images are not text: left out, so a question stays the words written). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.filter((part) => !isImagePart(part)).map(partText).join('\n');
  return '';
}

function declaredNames(tools: unknown, nameOf: (tool: Record<string, unknown>) => unknown): Set<string> {
  const names = new Set<string>();
  if (!Array.isArray(tools)) return names;
  for (const raw of tools) {
    const tool = asRecord(raw);
    const name = tool ? nameOf(tool) : undefined;
    if (typeof name === 'string') names.add(name);
  }
  return names;
}

function lastIndexWhere(items: readonly unknown[], test: (item: Record<string, unknown>) => boolean): number {
  for (let i = items.length - 1; i >= 0; i--) {
    const item = asRecord(items[i]);
    if (item && test(item)) return i;
  }
  return -1;
}

/** The name of the tool whose call `id` a result answers (else `fallback`). */
const nameFor = (names: ReadonlyMap<string, string>, id: unknown, fallback = 'unknown'): string =>
  (typeof id === 'string' ? names.get(id) : undefined) ?? fallback;

/** Chat Completions: tools [{type:'function', function:{name}}]; results are role 'tool' messages. */
export function chatToolConversation(body: Record<string, unknown>): ToolConversation {
  const declared = declaredNames(body.tools, (t) => (t.type === 'function' ? asRecord(t.function)?.name : undefined));
  const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
  const last = lastIndexWhere(messages, (m) => m.role === 'user');
  const callNames = new Map<string, string>();
  const results: ToolResult[] = [];
  let callTurns = 0;
  messages.forEach((raw, i) => {
    const message = asRecord(raw);
    if (!message) return;
    const calls: unknown[] = Array.isArray(message.tool_calls) ? message.tool_calls : [];
    for (const call of calls) {
      const record = asRecord(call);
      const name = asRecord(record?.function)?.name;
      if (typeof record?.id === 'string' && typeof name === 'string') callNames.set(record.id, name);
    }
    if (i <= last) return;
    if (message.role === 'assistant' && calls.length > 0) callTurns++;
    if (message.role === 'tool') {
      // A legacy `name` on the tool message names it when no call matches its id.
      const name = nameFor(callNames, message.tool_call_id, typeof message.name === 'string' ? message.name : 'unknown');
      results.push({ name, text: contentText(message.content) });
    }
  });
  return { declared, userText: last >= 0 ? contentText(asRecord(messages[last])?.content) : '', callTurns, results };
}

const isUserMessage = (item: Record<string, unknown>): boolean => item.role === 'user' && (item.type === undefined || item.type === 'message');

/**
 * Responses: tools [{type:'function', name}]; `items` is the whole conversation (previous_response_id
 * followed). A run of consecutive function_call items is one turn; results are function_call_output items.
 */
export function responsesToolConversation(body: Record<string, unknown>, items: readonly unknown[]): ToolConversation {
  const declared = declaredNames(body.tools, (t) => (t.type === 'function' ? t.name : undefined));
  const last = lastIndexWhere(items, isUserMessage);
  const callNames = new Map<string, string>();
  const results: ToolResult[] = [];
  let callTurns = 0;
  let inTurn = false;
  items.forEach((raw, i) => {
    const item = asRecord(raw);
    const isCall = item?.type === 'function_call';
    if (isCall && typeof item.call_id === 'string' && typeof item.name === 'string') callNames.set(item.call_id, item.name);
    if (i > last && isCall && !inTurn) callTurns++;
    inTurn = isCall;
    if (i > last && item?.type === 'function_call_output') {
      const text = typeof item.output === 'string' ? item.output : contentText(item.output);
      results.push({ name: nameFor(callNames, item.call_id), text });
    }
  });
  return { declared, userText: last >= 0 ? contentText(asRecord(items[last])?.content) : '', callTurns, results };
}

function blocksOf(content: unknown): Array<Record<string, unknown>> {
  if (!Array.isArray(content)) return [];
  return content.map(asRecord).filter((b): b is Record<string, unknown> => b !== undefined);
}

/** Anthropic's text of a user message: its text blocks (other blocks as JSON when it has none). */
function anthropicText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts = content.filter((b) => asRecord(b)?.type === 'text').map(partText);
  return (texts.length > 0 ? texts : content.map(partText)).join('\n');
}

/**
 * Anthropic: tools [{name, input_schema}]; a user message holding tool_result blocks is not
 * user-authored; a turn is an assistant message with tool_use blocks.
 */
export function anthropicToolConversation(body: Record<string, unknown>): ToolConversation {
  const declared = declaredNames(body.tools, (t) => (asRecord(t.input_schema) ? t.name : undefined));
  const messages: unknown[] = Array.isArray(body.messages) ? body.messages : [];
  const last = lastIndexWhere(messages, (m) => m.role === 'user' && !blocksOf(m.content).some((b) => b.type === 'tool_result'));
  const callNames = new Map<string, string>();
  const results: ToolResult[] = [];
  let callTurns = 0;
  messages.forEach((raw, i) => {
    const message = asRecord(raw);
    if (!message) return;
    const blocks = blocksOf(message.content);
    const uses = message.role === 'assistant' ? blocks.filter((b) => b.type === 'tool_use') : [];
    for (const use of uses) if (typeof use.id === 'string' && typeof use.name === 'string') callNames.set(use.id, use.name);
    if (i <= last) return;
    if (uses.length > 0) callTurns++;
    if (message.role !== 'user') return;
    for (const block of blocks) {
      if (block.type === 'tool_result') results.push({ name: nameFor(callNames, block.tool_use_id), text: contentText(block.content) });
    }
  });
  return { declared, userText: last >= 0 ? anthropicText(asRecord(messages[last])?.content) : '', callTurns, results };
}

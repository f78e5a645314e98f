import { z } from 'zod';
import { redactText } from '../security/redact';
import type { ToolSpec } from './types';
import type { ToolCall, ToolResult } from '../conversation/records/agent';
import { abortError, ERROR_PREFIX, errorText, messageOf, type AgentTool, type ToolContext } from './tool';
import { localSearch } from './tools/localSearch';
import { readNote } from './tools/readNote';
import { listFolder } from './tools/listFolder';
import { findByTag } from './tools/findByTag';
import { getActiveNote } from './tools/getActiveNote';
import { getBacklinks } from './tools/getBacklinks';
import { fetchUrl } from './tools/fetchUrl';
import { untilAborted } from '../untilAborted';
import { createNote } from './tools/createNote';
import { editNote } from './tools/editNote';
import { appendToNote } from './tools/appendToNote';
import { setProperties } from './tools/setProperties';
import { moveNote } from './tools/moveNote';

/** The agent's read-only tools, in the order they are offered (a fixed order: the tool list is part of the cached prefix). */
export const AGENT_TOOLS: readonly AgentTool[] = [localSearch, readNote, listFolder, findByTag, getActiveNote, getBacklinks, fetchUrl];

/** The write tools (issue 28): offered (and counted in the budget) only when the chat may write. */
export const WRITE_TOOLS: readonly AgentTool[] = [createNote, editNote, appendToNote, setProperties, moveNote];

/** The read tools, then the write tools: one list object, so its specs are built once. */
export const AGENT_WRITE_TOOLS: readonly AgentTool[] = [...AGENT_TOOLS, ...WRITE_TOOLS];

/** The tools of an agent turn: with the write tools when the chat may write. */
export function agentTools(canWrite: boolean): readonly AgentTool[] {
  return canWrite ? AGENT_WRITE_TOOLS : AGENT_TOOLS;
}

/**
 * The tools as providers are told about them: name, description, and the JSON Schema of the
 * arguments (as the model writes them: optional arguments are not required). Deterministic: the
 * same tools give byte-identical specs.
 */
export function toolSpecs(tools: readonly AgentTool[]): readonly ToolSpec[] {
  // Every step of every agent turn sends them, and the budget counts them: built once per tool list.
  let specs = specMemo.get(tools);
  if (!specs) {
    specs = tools.map((tool) => {
      const { $schema: _ignored, ...parameters } = z.toJSONSchema(tool.schema, { io: 'input' }) as Record<string, unknown>;
      return { name: tool.name, description: tool.description, parameters: withoutSafeIntegerBounds(parameters) };
    });
    specMemo.set(tools, specs);
  }
  return specs;
}

const specMemo = new WeakMap<readonly AgentTool[], readonly ToolSpec[]>();

/** zod bounds every integer by ±2^53-1: noise for the model (and tokens in every request), left out. */
function withoutSafeIntegerBounds(schema: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if ((key === 'maximum' && value === Number.MAX_SAFE_INTEGER) || (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)) continue;
    out[key] = value !== null && typeof value === 'object' && !Array.isArray(value) ? withoutSafeIntegerBounds(value as Record<string, unknown>) : value;
  }
  return out;
}

/**
 * One call answered: the tool's text, or an error result (content starting with `Error:`) for an
 * unknown tool, invalid arguments, a tool's error text or a failure. Never throws, except when the
 * turn is stopped (ctx.signal aborted): then it rejects with an AbortError so the loop stops.
 */
export async function runToolCall(call: ToolCall, tools: readonly AgentTool[], ctx: ToolContext): Promise<ToolResult> {
  // Secrets are redacted from every output (issue 26): it is shown, saved in the chat note and sent on.
  const answer = (text: string): ToolResult => {
    const content = redactText(text);
    return { callId: call.id, name: call.name, content, isError: content.startsWith(ERROR_PREFIX) };
  };
  if (ctx.signal.aborted) throw abortError();
  const tool = tools.find((t) => t.name === call.name);
  if (!tool) return answer(errorText(`unknown tool "${call.name}". Available tools: ${tools.map((t) => t.name).join(', ')}.`));
  const parsed = tool.schema.safeParse(argumentsOf(call.args));
  if (!parsed.success) return answer(errorText(`${tool.name}: invalid arguments: ${describeIssues(parsed.error)}`));
  try {
    // A host that cannot be cancelled (requestUrl, a slow search) must not hold the stop: the wait ends at once.
    const content = await untilAborted(tool.run(parsed.data, { ...ctx, callId: call.id }), ctx.signal, abortError);
    if (ctx.signal.aborted) throw abortError();
    return answer(content);
  } catch (error) {
    if (ctx.signal.aborted) throw abortError();
    return answer(errorText(`${tool.name} failed: ${messageOf(error)}`));
  }
}

/**
 * The arguments as the schema checks them: an object (a JSON string is parsed: some providers pass
 * the raw text), with null values left out (models often send `null` for an argument they skip).
 */
function argumentsOf(args: unknown): unknown {
  let value = args;
  if (typeof value === 'string') {
    try {
      value = value.trim() === '' ? {} : (JSON.parse(value) as unknown);
    } catch {
      return value;
    }
  }
  if (value === null || value === undefined) return {};
  if (typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== null));
}

/** `path: expected string; k: too big: expected number to be <=20`: each field and its problem. */
function describeIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.map(String).join('.');
      let message = issue.message.replace(/^Invalid input: /, '');
      if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) message = `expected ${issue.expected} (missing)`;
      if (issue.code === 'invalid_type' && issue.path.length === 0) message = 'expected an object of arguments';
      message = message.charAt(0).toLowerCase() + message.slice(1);
      return field === '' ? message : `${field}: ${message}`;
    })
    .join('; ');
}

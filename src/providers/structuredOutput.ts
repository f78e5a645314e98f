import { z } from 'zod';
import type { ProviderKind } from '../core/ports/chatModel';
import type { StructuredOutput } from './chatModels';

/**
 * How each provider kind is asked for a structured answer, through LangChain's withStructuredOutput.
 *
 * Forced tool calling everywhere ('functionCalling'): Anthropic's LangChain default, and the one
 * method every Claude model has (native JSON output exists on the newest only). For OpenAI Chat and
 * Responses, LangChain's default is 'jsonSchema', but then the OpenAI SDK parses the reply itself
 * (chat.completions.parse / responses.parse) and throws on malformed or off-schema JSON before
 * LangChain returns the raw message, so the answer's text is lost; a forced tool call in strict
 * mode is as constrained and keeps the raw arguments (malformed ones land in invalid_tool_calls).
 * OpenAI-compatible endpoints get no `strict` (an OpenAI extension) and may ignore the forced
 * choice and write text: the text is then the answer.
 */
export function structuredOutputFor(kind: ProviderKind, schema: z.ZodType, name: string): StructuredOutput {
  const strict = kind === 'openai' || kind === 'openai-responses' ? { strict: true } : {};
  return { schema: jsonSchemaOf(schema), name, method: 'functionCalling', ...strict };
}

/**
 * The schema as JSON Schema without its `$schema` key, which OpenAI's strict validator does not
 * list among the keywords it accepts. Passing JSON Schema (not zod) also keeps LangChain from
 * validating: the caller validates the raw answer with its own, more lenient rules.
 */
export function jsonSchemaOf(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema) as Record<string, unknown>;
  return rest;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
}

function list(value: unknown): Record<string, unknown>[] {
  return Array.isArray(value) ? value.map(record) : [];
}

/**
 * The answer in a reply to a forced tool call: the call's arguments (an object), or the raw
 * arguments text of a call LangChain could not parse (malformed JSON). Undefined when the model
 * called no tool (it wrote text instead).
 */
export function toolAnswer(message: unknown, name: string): unknown {
  const m = record(message);
  const calls = list(m.tool_calls);
  const call = calls.find((c) => c.name === name) ?? calls[0];
  if (call) return call.args;
  const invalid = list(m.invalid_tool_calls);
  const broken = invalid.find((c) => c.name === name) ?? invalid[0];
  if (broken) return typeof broken.args === 'string' ? broken.args : '';
  return undefined;
}

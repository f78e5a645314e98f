/**
 * Reads, per API, what the planner script depends on (./plannerScript.ts): the request's system
 * texts, its last user message and the form the answer was asked in.
 */
import { asRecord } from './context';
import type { AnswerForm, PlannerView } from './plannerScript';
import { isImagePart, partText } from './prompt';
import type { ToolConversation } from './toolScript';

function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.filter((part) => !isImagePart(part)).map(partText).join('\n');
  return '';
}

const isSystem = (role: unknown): boolean => role === 'system' || role === 'developer';

function systemOf(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  return items.flatMap((raw) => {
    const item = asRecord(raw);
    return item && isSystem(item.role) ? [contentText(item.content)] : [];
  });
}

/** The one tool a request declares, when it declares exactly one (tool_choice `required` / `any` then forces it). */
function onlyTool(tools: unknown, nameOf: (tool: Record<string, unknown>) => unknown): string | undefined {
  if (!Array.isArray(tools) || tools.length !== 1) return undefined;
  const tool = asRecord(tools[0]);
  const name = tool ? nameOf(tool) : undefined;
  return typeof name === 'string' ? name : undefined;
}

const isJsonFormat = (format: unknown): boolean => {
  const type = asRecord(format)?.type;
  return type === 'json_schema' || type === 'json_object';
};

function formOf(forced: string | undefined, json: boolean): AnswerForm {
  if (forced !== undefined) return { kind: 'tool', name: forced };
  return json ? { kind: 'json' } : { kind: 'text' };
}

/** Chat Completions: tool_choice {type:'function', function:{name}} (or `required` with one tool); response_format. */
export function chatPlannerView(body: Record<string, unknown>, conversation: ToolConversation): PlannerView {
  const choice = body.tool_choice;
  const named = asRecord(choice)?.type === 'function' ? asRecord(asRecord(choice)?.function)?.name : undefined;
  const forced = typeof named === 'string' ? named : choice === 'required' ? onlyTool(body.tools, (t) => asRecord(t.function)?.name) : undefined;
  return { systemTexts: systemOf(body.messages), userText: conversation.userText, form: formOf(forced, isJsonFormat(body.response_format)) };
}

/** Responses: instructions and system items; tool_choice {type:'function', name} (or `required`); text.format. */
export function responsesPlannerView(body: Record<string, unknown>, items: readonly unknown[], conversation: ToolConversation): PlannerView {
  const choice = body.tool_choice;
  const named = asRecord(choice)?.type === 'function' ? asRecord(choice)?.name : undefined;
  const forced = typeof named === 'string' ? named : choice === 'required' ? onlyTool(body.tools, (t) => t.name) : undefined;
  const instructions = typeof body.instructions === 'string' ? [body.instructions] : [];
  return { systemTexts: [...instructions, ...systemOf(items)], userText: conversation.userText, form: formOf(forced, isJsonFormat(asRecord(body.text)?.format)) };
}

/** Anthropic: system (string or blocks); tool_choice {type:'tool', name} (or `any` with one tool); output_config.format. */
export function anthropicPlannerView(body: Record<string, unknown>, conversation: ToolConversation): PlannerView {
  const choice = asRecord(body.tool_choice);
  const forced = choice?.type === 'tool' && typeof choice.name === 'string' ? choice.name : choice?.type === 'any' ? onlyTool(body.tools, (t) => t.name) : undefined;
  const system = body.system === undefined ? [] : [typeof body.system === 'string' ? body.system : contentText(body.system)];
  const blocks = Array.isArray(body.system) ? body.system.map(partText) : [];
  return {
    systemTexts: [...system, ...blocks, ...systemOf(body.messages)],
    userText: conversation.userText,
    form: formOf(forced, isJsonFormat(asRecord(body.output_config)?.format)),
  };
}

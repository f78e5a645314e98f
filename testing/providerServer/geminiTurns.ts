/**
 * Reads a Gemini generateContent request the way the server needs it: its prompt blocks (tools,
 * system instruction, then each content's parts in wire order), the tool conversation the script
 * depends on (./toolScript.ts) and the planner's view (./plannerScript.ts). A request naming a
 * cachedContents entry is read with the entry's tools and system instruction in front.
 */
import { asRecord } from './context';
import { RequestError } from './errors';
import type { AnswerForm, PlannerView } from './plannerScript';
import { roleMarker, seenImage, type PromptBlock } from './prompt';
import type { ToolConversation, ToolResult } from './toolScript';

type Json = Record<string, unknown>;

function list(value: unknown): Json[] {
  return Array.isArray(value) ? value.map(asRecord).filter((v): v is Json => v !== undefined) : [];
}

/** A part's text as the server counts it: text as is, anything else (calls, results) as its JSON. */
function partText(part: Json): string {
  if (typeof part.text === 'string') return part.text;
  const image = seenImage(part);
  if (image) return `[image ${image.mediaType} ${image.bytes} bytes sha256:${image.hash.slice(0, 16)}]`;
  return JSON.stringify(part);
}

/** The text parts of a content (images and calls left out): what a question or system text says. */
function plainText(content: Json | undefined): string {
  return list(content?.parts)
    .filter((p) => typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

/** One block per content: its role marker, then its parts' texts; its images after. */
function contentBlock(content: Json, role: string): PromptBlock {
  const parts = list(content.parts);
  const images = parts.flatMap((p) => {
    const image = seenImage(p);
    return image ? [image] : [];
  });
  return { text: roleMarker(role) + parts.map(partText).join('\n'), ...(images.length > 0 ? { images } : {}) };
}

/** The prefix part of a request or a cache entry: its tools and its system instruction. */
export function prefixBlocks(body: Json): PromptBlock[] {
  const blocks: PromptBlock[] = [];
  if (Array.isArray(body.tools) && body.tools.length > 0) blocks.push({ text: roleMarker('tools') + JSON.stringify(body.tools) });
  const system = asRecord(body.systemInstruction);
  if (system) blocks.push(contentBlock(system, 'system'));
  return blocks;
}

/** The contents' blocks, validated (roles user and model only). */
export function contentBlocks(body: Json, required: boolean): PromptBlock[] {
  const contents = body.contents;
  if (required && (!Array.isArray(contents) || contents.length === 0)) {
    throw new RequestError(400, { message: '* GenerateContentRequest.contents: contents is not specified' });
  }
  return list(contents).map((content, i) => {
    const role = typeof content.role === 'string' ? content.role : 'user';
    if (role !== 'user' && role !== 'model' && role !== 'function') {
      throw new RequestError(400, { message: `Please use a valid role: user, model. (contents[${i}].role: ${role})` });
    }
    return contentBlock(content, role);
  });
}

const hasResponse = (content: Json): boolean => list(content.parts).some((p) => asRecord(p.functionResponse));

/**
 * Tools [{functionDeclarations: [{name}]}] (the request's, else the cache entry's); a content with
 * functionResponse parts is not user-authored; a turn is a model content with functionCall parts.
 */
export function geminiToolConversation(body: Json, cached: Json | undefined): ToolConversation {
  const tools = Array.isArray(body.tools) ? body.tools : cached?.tools;
  const declared = new Set<string>();
  for (const tool of list(tools)) for (const fn of list(tool.functionDeclarations)) if (typeof fn.name === 'string') declared.add(fn.name);
  const contents = list(body.contents);
  let last = -1;
  contents.forEach((c, i) => {
    if ((c.role ?? 'user') === 'user' && !hasResponse(c)) last = i;
  });
  const results: ToolResult[] = [];
  let callTurns = 0;
  contents.forEach((content, i) => {
    if (i <= last) return;
    const parts = list(content.parts);
    if (content.role === 'model' && parts.some((p) => asRecord(p.functionCall))) callTurns++;
    for (const part of parts) {
      const response = asRecord(part.functionResponse);
      if (!response) continue;
      const inner = asRecord(response.response);
      const value = inner?.result ?? inner?.error ?? inner ?? '';
      results.push({ name: typeof response.name === 'string' ? response.name : 'unknown', text: typeof value === 'string' ? value : JSON.stringify(value) });
    }
  });
  return { declared, userText: last >= 0 ? plainText(contents[last]) : '', callTurns, results };
}

/** toolConfig mode ANY with one allowed function (or one declared): that call is forced; responseMimeType JSON asks for JSON text. */
export function geminiPlannerView(body: Json, cached: Json | undefined, conversation: ToolConversation): PlannerView {
  const calling = asRecord(asRecord(body.toolConfig)?.functionCallingConfig);
  const allowed = Array.isArray(calling?.allowedFunctionNames) ? calling.allowedFunctionNames.filter((n): n is string => typeof n === 'string') : [];
  const only = conversation.declared.size === 1 ? [...conversation.declared][0] : undefined;
  const forced = calling?.mode === 'ANY' ? (allowed.length === 1 ? allowed[0] : only) : undefined;
  const json = asRecord(body.generationConfig)?.responseMimeType === 'application/json';
  const form: AnswerForm = forced !== undefined ? { kind: 'tool', name: forced } : json ? { kind: 'json' } : { kind: 'text' };
  const system = asRecord(body.systemInstruction) ?? asRecord(cached?.systemInstruction);
  return { systemTexts: system ? [plainText(system)] : [], userText: conversation.userText, form };
}

import type { ChatMessage } from '../engine/messages';
import { PLAN_ANSWER_NAME } from './planSchema';
import type { Artifact, ArtifactPreview, PlannerInput } from './types';

/**
 * The planner model's messages: the instructions (system), then the budget, the goal, what is
 * already in context, a compact block per artifact to decide and the question last (user).
 * Deterministic: the input's order, plain integers, no clock. The local provider server
 * recognises a planner request by PLANNER_MARKER and reads the blocks back (ARTIFACT_HEADER,
 * ARTIFACT_META, QUESTION_HEADING), so those formats are part of this module's contract.
 *
 * Size: previews dominate, so they share PREVIEW_BUDGET_CHARS (about 3,000 tokens): each artifact
 * gets up to MAX_PREVIEW_CHARS (a whole preview of artifacts.ts) while there are 10 or fewer, less
 * as the count grows (one line under ONE_LINE_PREVIEW_CHARS, over 50 artifacts), and none below
 * MIN_PREVIEW_CHARS (over 150: the ids, titles and sizes must do). The rest is about 25 tokens per
 * artifact: with the instructions, 10 artifacts take about 3,000 tokens, 50 to 150 between 4,500
 * and 6,500, and 200 about 5,500.
 */

/** The first line of the planner's instructions: how a planner request is recognised. */
export const PLANNER_MARKER = 'You are the context planner of Strata, a chat assistant for an Obsidian vault.';

/** The line the question follows (last in the user message, after every artifact block). */
export const QUESTION_HEADING = 'Question:';
export const ARTIFACTS_HEADING = 'Artifacts to decide';
/** An artifact block's first line: `[n] id: "<id as a JSON string>"`. */
export const ARTIFACT_HEADER = /^\[(\d+)\] id: (".*")$/;
/** Its second line starts with its tokens: `  2345 tokens · 9000 chars · note "Title"…`. */
export const ARTIFACT_META = /^ {2}(\d+) tokens · /;

export const PREVIEW_BUDGET_CHARS = 12_000;
export const MAX_PREVIEW_CHARS = 1_200;
export const MIN_PREVIEW_CHARS = 80;
/** Below this share, a preview is one line: the outline, else the head's first lines. */
export const ONE_LINE_PREVIEW_CHARS = 240;
const MAX_QUESTION_CHARS = 4_000;
const MAX_GOAL_CHARS = 500;
const MAX_FIELD_CHARS = 200;
const MAX_KEPT_LISTED = 40;
const INDENT = '  ';
const TEXT_INDENT = '    ';

const INSTRUCTIONS = [
  PLANNER_MARKER,
  "A chat model will answer the user's question. The artifacts it could be given (notes, web pages, selections, folders, tool outputs) do not all fit its budget: you decide how each one goes into its request. You see a preview of each (its start, its headings, its end), never its whole text.",
  '',
  'Strategies:',
  '- include_full: the whole text. For an artifact the question is about, when its tokens fit the budget.',
  '- summarize: a summary written with a focus (what it must keep). For a relevant artifact too large to include whole, when the question needs its overall content.',
  '- rag_extract: only the passages matching a query. For a large artifact when the question needs specific facts from it.',
  '- exclude: left out. For an artifact the question does not need.',
  '',
  'Rules:',
  `- Decide every artifact under "${ARTIFACTS_HEADING}" exactly once, naming it by its id (the JSON string after "id:").`,
  '- Priority: 1 is the most important; give each artifact its own number (1, 2, 3, …). When the budget runs short, the lowest priorities are cut first.',
  '- Stay within the budget: the tokens of the artifacts included whole, plus a few hundred for each summary or extract, must not exceed it.',
  '- Artifacts under "Already in context" were decided before: do not decide them again, but count on what they give the model.',
  '- "historical" marks an artifact from an earlier turn of the chat: keep it only when the question still needs it.',
  '- rationale: one short line. focus: for summarize, else null. query: for rag_extract, else null. reasoning: a few sentences on the plan as a whole.',
  `- Answer with the ${PLAN_ANSWER_NAME} object: {"artifacts": [{"artifact_id", "strategy", "priority", "rationale", "focus", "query"}], "reasoning"}.`,
].join('\n');

/** Added for a provider without structured output: the answer comes back as text. */
export const JSON_ONLY_INSTRUCTION = [
  'Reply with the JSON object only (no prose, no code fence), for example:',
  '{"artifacts":[{"artifact_id":"Notes/Plan.md","strategy":"include_full","priority":1,"rationale":"The question is about this plan.","focus":null,"query":null}],"reasoning":"…"}',
].join('\n');

/** `text` cut to `max` characters (whole code points), with an ellipsis when cut. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  let out = '';
  for (const point of points) {
    if (out.length + point.length > max - 1) break;
    out += point;
  }
  return `${out}…`;
}

function oneLine(text: string, max: number): string {
  return cut(text.replace(/\s+/g, ' ').trim(), max);
}

function textLines(text: string): string[] {
  return text
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l.trim().length > 0);
}

/** Whole lines from the start within `max` characters (the first one cut when it alone is longer). */
function leadingLines(lines: readonly string[], max: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (const line of lines) {
    if (used + line.length > max) {
      if (out.length === 0 && max > 1) out.push(cut(line, max));
      break;
    }
    out.push(line);
    used += line.length + 1;
  }
  return out;
}

/** Whole lines from the end within `max` characters. */
function trailingLines(lines: readonly string[], max: number): string[] {
  const out: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    if (used + lines[i].length > max) break;
    out.unshift(lines[i]);
    used += lines[i].length + 1;
  }
  return out;
}

/** Outline entries joined by " | " within `max` characters. */
function outlineWithin(outline: readonly string[], max: number): string {
  let out = '';
  for (const entry of outline) {
    const heading = oneLine(entry, MAX_FIELD_CHARS);
    const next = out ? `${out} | ${heading}` : heading;
    if (next.length > max) break;
    out = next;
  }
  return out;
}

/** The preview lines within `share` characters: a quarter for the outline, then two thirds of the rest for the head. */
function previewLines(preview: ArtifactPreview, share: number): string[] {
  if (share < MIN_PREVIEW_CHARS) return [];
  if (share < ONE_LINE_PREVIEW_CHARS) {
    const outline = outlineWithin(preview.outline, share);
    if (outline) return [`${INDENT}outline: ${outline}`];
    const head = textLines(preview.head).map((l) => l.trim()).join(' / ');
    return head ? [`${INDENT}head: ${cut(head, share)}`] : [];
  }
  const out: string[] = [];
  const outline = outlineWithin(preview.outline, Math.floor(share / 4));
  if (outline) out.push(`${INDENT}outline: ${outline}`);
  const rest = share - outline.length;
  const tailLines = textLines(preview.tail);
  const head = leadingLines(textLines(preview.head), tailLines.length > 0 ? Math.floor((rest * 2) / 3) : rest);
  const headChars = head.reduce((n, l) => n + l.length + 1, 0);
  const tail = trailingLines(tailLines, rest - headChars);
  if (head.length > 0) out.push(`${INDENT}head:`, ...head.map((l) => TEXT_INDENT + l));
  if (tail.length > 0) out.push(`${INDENT}tail:`, ...tail.map((l) => TEXT_INDENT + l));
  return out;
}

/** The title, unless it only repeats the id's file name (a note's usual title). */
function titleOf(artifact: Artifact): string | null {
  const title = oneLine(artifact.title, MAX_FIELD_CHARS);
  const name = artifact.id.slice(artifact.id.lastIndexOf('/') + 1).replace(/\.md$/i, '');
  return title && title !== name ? title : null;
}

function artifactBlock(artifact: Artifact, index: number, share: number): string {
  const title = titleOf(artifact);
  const meta = [`${artifact.tokens} tokens`, `${artifact.chars} chars`, title === null ? artifact.type : `${artifact.type} ${JSON.stringify(title)}`];
  if (artifact.source !== artifact.id) meta.push(`from ${oneLine(artifact.source, MAX_FIELD_CHARS)}`);
  if (artifact.historical) meta.push('historical');
  return [`[${index + 1}] id: ${JSON.stringify(artifact.id)}`, INDENT + meta.join(' · '), ...previewLines(artifact.preview, share)].join('\n');
}

function keptSection(kept: PlannerInput['kept']): string {
  if (kept.length === 0) return 'Already in context: nothing.';
  const lines = kept.slice(0, MAX_KEPT_LISTED).map(({ artifact, decision }) => `- ${JSON.stringify(artifact.id)}: ${decision.strategy}, ${artifact.tokens} tokens`);
  const rest = kept.slice(MAX_KEPT_LISTED);
  if (rest.length > 0) lines.push(`- … and ${rest.length} more (${rest.reduce((n, k) => n + k.artifact.tokens, 0)} tokens)`);
  return ['Already in context (decided before; do not decide them again):', ...lines].join('\n');
}

/** The preview characters each artifact gets when `count` artifacts share the budget. */
export function previewShare(count: number): number {
  return count === 0 ? MAX_PREVIEW_CHARS : Math.min(MAX_PREVIEW_CHARS, Math.floor(PREVIEW_BUDGET_CHARS / count));
}

function userMessage(input: PlannerInput): string {
  const share = previewShare(input.artifacts.length);
  return [
    `Budget: ${input.budgetTokens} tokens for the artifacts to decide.`,
    `Goal: ${oneLine(input.goal, MAX_GOAL_CHARS) || 'answer the question'}`,
    '',
    keptSection(input.kept),
    '',
    `${ARTIFACTS_HEADING} (${input.artifacts.length}):`,
    '',
    input.artifacts.map((a, i) => artifactBlock(a, i, share)).join('\n\n'),
    '',
    QUESTION_HEADING,
    cut(input.question.trim(), MAX_QUESTION_CHARS),
  ].join('\n');
}

/**
 * The planner's request. `jsonOnly`: for a provider without structured output, the instructions
 * end by asking for the JSON object alone as text.
 */
export function plannerMessages(input: PlannerInput, options: { readonly jsonOnly?: boolean } = {}): ChatMessage[] {
  return [
    { role: 'system', content: options.jsonOnly ? `${INSTRUCTIONS}\n\n${JSON_ONLY_INSTRUCTION}` : INSTRUCTIONS },
    { role: 'user', content: userMessage(input) },
  ];
}

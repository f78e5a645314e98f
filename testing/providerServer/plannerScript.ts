/**
 * Scripted artifact planning (format in ./reply.ts): a request whose system text starts with the
 * planner's instructions (PLANNER_MARKER, src/core/planning/plannerPrompt.ts) is answered with a
 * plan, in the form the request asked for, instead of the chat reply. The plan is the question's
 * `[[plan …]]` directive (./planDirectives.ts), else a default computed from the artifact blocks of
 * the prompt. The per-API reading of a request is in ./plannerTurns.ts.
 */
import { ARTIFACT_HEADER, ARTIFACT_META, PLANNER_MARKER, QUESTION_HEADING } from '../../src/core/planning/plannerPrompt';
import type { Exchange } from './context';
import { RequestError } from './errors';
import { planDirectives, type PlanDirective } from './planDirectives';
import { stripDirectives, type ScriptedReply } from './toolScript';
import { summaryTurn } from './summaryScript';

/** How the request asked for the answer. */
export type AnswerForm =
  /** A forced tool call (OpenAI tool_choice function, Anthropic tool_choice tool): the plan is the call's arguments. */
  | { readonly kind: 'tool'; readonly name: string }
  /** response_format / text.format / output_config json_schema (or json_object): the plan is the message's text. */
  | { readonly kind: 'json' }
  /** Neither: the plan is the message's text too (the prompt asks for the JSON alone). */
  | { readonly kind: 'text' };

/** A request as the planner script reads it (./plannerTurns.ts). */
export interface PlannerView {
  /** Its system texts: system and developer messages, Responses instructions, Anthropic system blocks. */
  readonly systemTexts: readonly string[];
  /** The last user message's text: the planner prompt. */
  readonly userText: string;
  readonly form: AnswerForm;
}

/** Artifacts under this many tokens are included whole by the default plan; larger ones are extracted from. */
export const DEFAULT_PLAN_FULL_TOKENS = 1_500;
/** What `[[plan invalid]]` answers: JSON cut short. */
export const MALFORMED_PLAN = '{"artifacts": [{"artifact_id": ';

export function isPlannerRequest(systemTexts: readonly string[]): boolean {
  return systemTexts.some((text) => text.trimStart().startsWith(PLANNER_MARKER));
}

/** The question at the end of the planner prompt (after its first `Question:` line); the whole text when there is none. */
export function plannerQuestion(prompt: string): string {
  const heading = `\n${QUESTION_HEADING}\n`;
  const at = prompt.indexOf(heading);
  return at < 0 ? prompt : prompt.slice(at + heading.length);
}

/** The artifacts to decide, as the prompt lists them: each block's id, tokens and text (its lines up to the next block), in order. */
export function plannerArtifacts(prompt: string): { id: string; tokens: number; text: string }[] {
  const head = `\n${QUESTION_HEADING}\n`;
  const end = prompt.indexOf(head);
  const lines = (end < 0 ? prompt : prompt.slice(0, end)).split('\n');
  const out: { id: string; tokens: number; text: string; from: number }[] = [];
  lines.forEach((line, i) => {
    const header = ARTIFACT_HEADER.exec(line);
    const meta = header ? ARTIFACT_META.exec(lines[i + 1] ?? '') : null;
    if (!header || !meta) return;
    try {
      const id: unknown = JSON.parse(header[2]);
      if (typeof id === 'string') out.push({ id, tokens: Number(meta[1]), text: '', from: i });
    } catch {
      // Not a block written by plannerPrompt.ts: plain text.
    }
  });
  return out.map((a, k) => ({ id: a.id, tokens: a.tokens, text: lines.slice(a.from, k + 1 < out.length ? out[k + 1].from : lines.length).join('\n') }));
}

/** Words of the question worth matching: four letters or more, not the commonest ones. */
const COMMON = new Set(['what', 'which', 'when', 'where', 'does', 'have', 'that', 'this', 'with', 'from', 'into', 'about', 'there', 'their', 'would', 'could', 'should', 'please', 'tell', 'show', 'give', 'make', 'they', 'them', 'your', 'some', 'other', 'than', 'then', 'were', 'will', 'also', 'just', 'like', 'only', 'more', 'most', 'much', 'many']);

function questionWords(question: string): string[] {
  return [...new Set(question.toLowerCase().match(/\p{L}[\p{L}\p{N}]{3,}/gu) ?? [])].filter((w) => !COMMON.has(w));
}

/** The words of a text, lowercase, each also without a plural `s` (so "vents" meets "vent"). */
function wordSet(text: string): Set<string> {
  const out = new Set<string>();
  for (const w of text.toLowerCase().match(/\p{L}[\p{L}\p{N}]*/gu) ?? []) {
    out.add(w);
    if (w.length > 4 && w.endsWith('s')) out.add(w.slice(0, -1));
  }
  return out;
}

/** How a block bears on the question: a word in its id, title or headings (strong), only in its text (weak), or none. */
function bearing(text: string, words: readonly string[]): 'strong' | 'weak' | 'none' {
  const lines = text.split('\n');
  const named = wordSet([lines[0], lines[1], ...lines.filter((l) => l.trimStart().startsWith('outline:'))].join(' '));
  const stem = (w: string) => (w.length > 4 && w.endsWith('s') ? w.slice(0, -1) : w);
  if (words.some((w) => named.has(w) || named.has(stem(w)))) return 'strong';
  const all = wordSet(text);
  return words.some((w) => all.has(w) || all.has(stem(w))) ? 'weak' : 'none';
}

const OVERVIEW = /\b(overview|summar(y|ise|ize)|gist|outline|main points)\b/i;

/**
 * The default plan, as a cheap planner model might answer from the previews: an artifact whose id,
 * title or headings name a word of the question is extracted from (whole when small), one that only
 * mentions such a word (or any that bears on a question asking for an overview) is summarized for
 * the question (whole when small), one that shares no word is
 * left out; when nothing shares a word, small artifacts go whole and larger ones are summarized.
 * Priorities: the strong ones first, in prompt order.
 */
export function defaultPlan(prompt: string): Record<string, unknown> {
  const question = stripDirectives(plannerQuestion(prompt)).trim();
  const words = questionWords(question);
  const blocks = plannerArtifacts(prompt).map((a) => ({ ...a, bearing: bearing(a.text, words) }));
  const anyMatch = blocks.some((b) => b.bearing !== 'none');
  // A question about the whole ("an overview of…", "summarize…") is served by summaries, not passages.
  const overview = OVERVIEW.test(question);
  const rank = { strong: 0, weak: 1, none: 2 } as const;
  const ordered = [...blocks].sort((a, b) => rank[a.bearing] - rank[b.bearing]);
  const artifacts = blocks.map((a) => {
    const small = a.tokens < DEFAULT_PLAN_FULL_TOKENS;
    const priority = ordered.indexOf(a) + 1;
    const decide = (strategy: string, rationale: string, extra: { focus?: string; query?: string } = {}) => ({
      artifact_id: a.id,
      strategy,
      priority,
      rationale,
      focus: extra.focus ?? null,
      query: extra.query ?? null,
    });
    if (a.bearing === 'none' && anyMatch) return decide('exclude', 'Its preview shares no word with the question.');
    if (small) return decide('include_full', `Small enough to include whole (${a.tokens} tokens).`);
    if (a.bearing === 'strong' && !overview) return decide('rag_extract', `Its headings name the question's subject; too large to include whole (${a.tokens} tokens).`, { query: question || 'main points' });
    return decide('summarize', `Bears on the question but too large to include whole (${a.tokens} tokens).`, { focus: question || 'main points' });
  });
  return {
    artifacts,
    reasoning: `Default plan of the local provider server: artifacts naming the question's words are extracted from, those mentioning them summarized, the rest left out; under ${DEFAULT_PLAN_FULL_TOKENS} tokens whole.`,
  };
}

/** The directives that script this request: the question's (an artifact's preview is never read for them). */
function scripted(prompt: string): { answer?: PlanDirective; slowMs: number; error: boolean } {
  const directives = planDirectives(plannerQuestion(prompt));
  const slow = directives.find((d) => d.kind === 'slow');
  return {
    answer: directives.find((d) => d.kind === 'invalid') ?? directives.find((d) => d.kind === 'answer'),
    slowMs: slow?.kind === 'slow' ? slow.ms : 0,
    error: directives.some((d) => d.kind === 'error'),
  };
}

/** The plan's reply in the requested form; a malformed answer to a forced Anthropic tool call is text (tool_use input is an object). */
function replyOf(json: string, valid: boolean, form: AnswerForm, anthropic: boolean): ScriptedReply {
  if (form.kind !== 'tool' || (!valid && anthropic)) return { kind: 'text', text: json };
  const value: unknown = valid ? JSON.parse(json) : undefined;
  const args = value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  return { kind: 'calls', step: 1, calls: [{ name: form.name, args, arguments: json }] };
}

/**
 * The planner's reply to a planner request (a summary request's: its scripted summary), null for any other request, 'gone' when the client
 * left during a scripted wait. `[[plan error]]` throws the 500.
 */
export async function plannerTurn(ex: Pick<Exchange, 'api' | 'wait'>, view: PlannerView): Promise<ScriptedReply | 'gone' | null> {
  // An artifact summary request (the plan's summarize) gets its scripted summary (./summaryScript.ts).
  const summary = summaryTurn(view);
  if (summary) return summary;
  if (!isPlannerRequest(view.systemTexts)) return null;
  const script = scripted(view.userText);
  if (script.slowMs > 0 && !(await ex.wait(script.slowMs))) return 'gone';
  if (script.error) throw new RequestError(500, { message: 'Scripted planner failure ([[plan error]]).' });
  if (script.answer?.kind === 'invalid') return replyOf(MALFORMED_PLAN, false, view.form, ex.api === 'anthropic');
  const json = script.answer?.kind === 'answer' ? script.answer.json : JSON.stringify(defaultPlan(view.userText));
  return replyOf(json, true, view.form, ex.api === 'anthropic');
}

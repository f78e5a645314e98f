/**
 * Scripted artifact planning (format in ./reply.ts): a request whose system text starts with the
 * planner's instructions (PLANNER_MARKER, src/core/planning/plannerPrompt.ts) is answered with a
 * plan, in the form the request asked for, instead of the chat reply. The plan is the question's
 * `[[plan …]]` directive (./planDirectives.ts), else a default computed from the artifact blocks of
 * the prompt. The per-API reading of a request is in ./plannerTurns.ts.
 */
import { ARTIFACT_HEADER, ARTIFACT_META, PLANNER_MARKER, QUESTION_HEADING } from '../../core/planning/plannerPrompt';
import type { Exchange } from './context';
import { RequestError } from './errors';
import { planDirectives, type PlanDirective } from './planDirectives';
import { stripDirectives, type ScriptedReply } from './toolScript';

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

/** The artifacts to decide, as the prompt lists them: each block's id and tokens, in order. */
export function plannerArtifacts(prompt: string): { id: string; tokens: number }[] {
  const head = `\n${QUESTION_HEADING}\n`;
  const end = prompt.indexOf(head);
  const lines = (end < 0 ? prompt : prompt.slice(0, end)).split('\n');
  const out: { id: string; tokens: number }[] = [];
  lines.forEach((line, i) => {
    const header = ARTIFACT_HEADER.exec(line);
    const meta = header ? ARTIFACT_META.exec(lines[i + 1] ?? '') : null;
    if (!header || !meta) return;
    try {
      const id: unknown = JSON.parse(header[2]);
      if (typeof id === 'string') out.push({ id, tokens: Number(meta[1]) });
    } catch {
      // Not a block written by plannerPrompt.ts: plain text.
    }
  });
  return out;
}

/** The default plan: small artifacts whole, larger ones by extract on the question, priorities in prompt order. */
export function defaultPlan(prompt: string): Record<string, unknown> {
  const question = stripDirectives(plannerQuestion(prompt)).trim();
  const artifacts = plannerArtifacts(prompt).map((a, i) => {
    const full = a.tokens < DEFAULT_PLAN_FULL_TOKENS;
    return {
      artifact_id: a.id,
      strategy: full ? 'include_full' : 'rag_extract',
      priority: i + 1,
      rationale: full ? `Small enough to include whole (${a.tokens} tokens).` : `Too large to include whole (${a.tokens} tokens): the passages on the question.`,
      focus: null,
      query: full ? null : question || null,
    };
  });
  return { artifacts, reasoning: `Default plan of the local provider server: artifacts under ${DEFAULT_PLAN_FULL_TOKENS} tokens whole, larger ones by extract.` };
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
 * The planner's reply to a planner request, null for any other request, 'gone' when the client
 * left during a scripted wait. `[[plan error]]` throws the 500.
 */
export async function plannerTurn(ex: Pick<Exchange, 'api' | 'wait'>, view: PlannerView): Promise<ScriptedReply | 'gone' | null> {
  if (!isPlannerRequest(view.systemTexts)) return null;
  const script = scripted(view.userText);
  if (script.slowMs > 0 && !(await ex.wait(script.slowMs))) return 'gone';
  if (script.error) throw new RequestError(500, { message: 'Scripted planner failure ([[plan error]]).' });
  if (script.answer?.kind === 'invalid') return replyOf(MALFORMED_PLAN, false, view.form, ex.api === 'anthropic');
  const json = script.answer?.kind === 'answer' ? script.answer.json : JSON.stringify(defaultPlan(view.userText));
  return replyOf(json, true, view.form, ex.api === 'anthropic');
}

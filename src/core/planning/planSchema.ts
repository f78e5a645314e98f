import { z } from 'zod';
import { STRATEGIES } from '../conversation/records/plan';

/**
 * The planner model's answer, snake_case as the model writes it. Kept within OpenAI's strict
 * structured-output subset so one schema serves every provider: every field is required (an
 * optional field is left out of `required`, which strict mode rejects), so `focus` and `query`
 * are nullable instead of optional; objects allow no other keys (zod's JSON Schema says so).
 * validatePlan still accepts them absent, for providers answering in plain JSON text.
 */
export const PlanEntrySchema = z.object({
  artifact_id: z.string().describe('The artifact id, exactly as given.'),
  strategy: z.enum(STRATEGIES).describe('How the artifact goes into the request.'),
  priority: z.int().min(1).describe('1 is the most important.'),
  rationale: z.string().describe('One short line: why this strategy.'),
  focus: z.string().nullable().describe('summarize: what the summary must keep; null otherwise.'),
  query: z.string().nullable().describe('rag_extract: what to look for in the artifact; null otherwise.'),
});

export const PlanAnswerSchema = z
  .object({
    artifacts: z.array(PlanEntrySchema).describe('One entry per artifact to decide.'),
    reasoning: z.string().describe('A few sentences: how the plan fits the question and the budget.'),
  })
  .describe('The plan for the artifacts of one chat turn.');

export type PlanEntry = z.infer<typeof PlanEntrySchema>;
export type PlanAnswer = z.infer<typeof PlanAnswerSchema>;

/** The structured answer's name (the forced tool's name where the provider answers by tool call). */
export const PLAN_ANSWER_NAME = 'artifact_plan';

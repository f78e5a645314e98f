import type { ArtifactDecision, ArtifactType, PlanCall, ShouldPlanReason } from '../conversation/records/plan';

/**
 * Artifact planning (seed 004): when what a turn carries is large or the budget is tight, every
 * artifact (a Context Library item, a tool output) gets a strategy by relevance to the question.
 */

/** What the planner sees of an artifact instead of its text. */
export interface ArtifactPreview {
  /** The first characters (whole lines). */
  readonly head: string;
  /** Headings, outermost first, indented by level ("## Setup"). */
  readonly outline: readonly string[];
  /** The last characters (whole lines); empty when the head already reaches the end. */
  readonly tail: string;
}

/** One piece of information that may go into the request. */
export interface Artifact {
  /** The library id (vault path, URL, selection id…) or `tool:<turn>:<n>` for a tool output. */
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  /** Where it comes from: a vault path, a URL, `turn 3: localSearch`. */
  readonly source: string;
  readonly chars: number;
  /** Tokens of the whole text on the chat's model. */
  readonly tokens: number;
  /** sha256 of the text: a decision is kept while it does not change. */
  readonly hash: string;
  /** From an earlier turn (already in the conversation), not attached or produced this turn. */
  readonly historical: boolean;
  readonly preview: ArtifactPreview;
  /** The whole text (never sent to the planner; summaries and extracts are made from it). */
  readonly content: string;
}

export interface ArtifactPlan {
  readonly decisions: readonly ArtifactDecision[];
  readonly reasoning: string;
}

/** What the planner is given: the question, the goal, the room, and the artifacts (the kept ones for context). */
export interface PlannerInput {
  readonly question: string;
  readonly goal: string;
  /** Tokens the artifacts to decide may take together. */
  readonly budgetTokens: number;
  /** The artifacts to decide. */
  readonly artifacts: readonly Artifact[];
  /** Artifacts already in the conversation with their kept decision (not to be decided again). */
  readonly kept: readonly { readonly artifact: Artifact; readonly decision: ArtifactDecision }[];
}

/** A planner: the model (src/core/planning/llmPlanner.ts) or the deterministic one (heuristic.ts). */
export interface Planner {
  readonly kind: 'llm' | 'heuristic';
  /** Throws on any failure (the caller falls back to the deterministic plan, with a warning). */
  plan(input: PlannerInput, signal: AbortSignal): Promise<{ readonly plan: ArtifactPlan; readonly call: PlanCall | null }>;
}

export interface ShouldPlan {
  readonly plan: boolean;
  readonly reason: ShouldPlanReason;
  /** In the user's words: "the attachments (61,240 tokens) are over the 12,000-token room". */
  readonly detail: string;
}
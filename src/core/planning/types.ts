import type { ItemKind } from '../context/items';
import type { Usage } from '../usage';

/**
 * Artifact planning (seed 004): when what a turn carries is large or the budget is tight, every
 * artifact (a Context Library item, a tool output) gets a strategy by relevance to the question.
 */

export const STRATEGIES = ['include_full', 'summarize', 'rag_extract', 'exclude'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** A library item's kind, or a tool output (Vault QA's search block, an agent tool's result). */
export type ArtifactType = ItemKind | 'tool';

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

/** The planner's decision for one artifact. */
export interface ArtifactDecision {
  readonly id: string;
  readonly strategy: Strategy;
  /** 1 is the most important; decisions are carried out in priority order. */
  readonly priority: number;
  /** One line: why this strategy. */
  readonly rationale: string;
  /** summarize: what the summary should keep. */
  readonly focus?: string;
  /** rag_extract: what to look for in the artifact. */
  readonly query?: string;
}

export interface ArtifactPlan {
  readonly decisions: readonly ArtifactDecision[];
  readonly reasoning: string;
}

/** Who decided: the planner model, the deterministic planner, the fallback after a failed planner, the user. */
export const DECIDERS = ['llm', 'heuristic', 'fallback', 'user'] as const;
export type Decider = (typeof DECIDERS)[number];

/** A model call made for planning (the planner) or for a summary of an artifact. */
export interface PlanCall {
  readonly kind: 'planner' | 'summary';
  readonly provider: string;
  readonly model: string;
  readonly usage: Usage;
  /** USD; null when the price is unknown. */
  readonly cost: number | null;
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

export const SHOULD_PLAN_REASONS = [
  /** Nothing to decide: no artifact, or every one keeps its decision. */
  'no-artifacts',
  'all-decided',
  /** All of it is under 5,000 characters. */
  'small',
  /** It fits with a 30 % buffer and the chat's model is cheap. */
  'fits',
  'near-budget',
  'large-artifact',
  'historical-tools',
  'expensive-model',
  /** The user chose the deterministic planner (settings) or planning is off. */
  'heuristic-setting',
  'off',
] as const;
export type ShouldPlanReason = (typeof SHOULD_PLAN_REASONS)[number];

export interface ShouldPlan {
  readonly plan: boolean;
  readonly reason: ShouldPlanReason;
  /** In the user's words: "the attachments (61,240 tokens) are over the 12,000-token room". */
  readonly detail: string;
}

/** A user's override of an item's strategy (the library panel): always in full, or left out. */
export type PlanOverride = 'full' | 'exclude';

/** How one artifact went into this turn's request (no content: a reference and what was done). */
export interface ArtifactUsage {
  readonly id: string;
  readonly type: ArtifactType;
  readonly title: string;
  readonly strategy: Strategy;
  readonly priority: number;
  readonly rationale: string;
  readonly by: Decider;
  /** Decided on an earlier turn and kept as it was (sticky). */
  readonly kept: boolean;
  /** Tokens of the whole artifact, and of what was sent (0 when excluded). */
  readonly fullTokens: number;
  readonly tokens: number;
  readonly focus?: string;
  readonly query?: string;
  /** summarize: the summary came from the cache. */
  readonly cacheHit?: boolean;
}

/** A turn's artifact plan as the chat records it (the inspector's `plan` field, the turn details). */
export interface PlanRecord {
  readonly reason: ShouldPlanReason;
  readonly detail: string;
  /** Who made this turn's new decisions: null when nothing was planned (kept decisions only). */
  readonly planner: Decider | null;
  /** The planner failed (timed out, invalid JSON…): the deterministic plan was used instead. */
  readonly warning?: string;
  /** Tokens the artifacts may take in this request. */
  readonly roomTokens: number;
  readonly decisions: readonly ArtifactUsage[];
  /** The planner's call and the summaries' calls, apart from the main call. */
  readonly calls: readonly PlanCall[];
  readonly cache: { readonly hits: number; readonly misses: number };
  /** An earlier decision changed (the user's override, an edited note): a named prefix break. */
  readonly replanned?: readonly string[];
}

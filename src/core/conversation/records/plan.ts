import type { ItemKind } from '../../context/items';
import type { Usage } from '../../usage';

/*
 * Artifact planning's records (seed 004) as a chat keeps them: each turn's plan and the chat's kept
 * decisions. Plain data beside the chat model, which holds them; src/core/planning makes them and
 * re-exports these names.
 */

export const STRATEGIES = ['include_full', 'summarize', 'rag_extract', 'exclude'] as const;
export type Strategy = (typeof STRATEGIES)[number];

/** A library item's kind, or a tool output (Vault QA's search block, an agent tool's result). */
export type ArtifactType = ItemKind | 'tool';

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

/**
 * The chat's kept decisions (sticky, DESIGN "Planning decisions are sticky"): an item sent as a
 * summary or an extract is sent exactly so again while its text and the user's override do not
 * change, so the prefix that carries it stays byte for byte the same.
 */
export interface KeptDecision extends ArtifactDecision {
  readonly type: ArtifactType;
  readonly title: string;
  readonly by: Decider;
  /** sha256 of the artifact's whole text when it was decided: another text is decided again. */
  readonly sourceHash: string;
  /** Tokens of the whole artifact, and of what is sent for it (0: excluded). */
  readonly fullTokens: number;
  readonly tokens: number;
  /** Answered turn (1-based) in which it was decided. */
  readonly turn: number;
}

export interface PlanBook {
  /** By artifact id, in the order they were first decided. */
  readonly decisions: readonly KeptDecision[];
  /** The user's overrides (the library panel), by artifact id. */
  readonly overrides: readonly { readonly id: string; readonly override: PlanOverride }[];
}

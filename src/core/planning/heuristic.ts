import { ArtifactIndex } from './artifactIndex';
import type { Artifact, ArtifactPlan, Planner, PlannerInput } from './types';
import type { ArtifactDecision } from '../conversation/records/plan';

/** Chunks searched when ranking artifacts: enough that every artifact with a match gets a rank. */
const RANK_DEPTH = 2_000;

/**
 * Artifacts in order of relevance to the question: by the rank of each one's best chunk in the
 * vault search's ranking; artifacts with no matching word follow, in the order they came.
 */
export async function rankArtifacts(artifacts: readonly Artifact[], question: string): Promise<{ ranked: Artifact[]; matched: ReadonlySet<string> }> {
  const index = await ArtifactIndex.of(artifacts);
  const hits = await index.search(question, RANK_DEPTH);
  const order: string[] = [];
  for (const hit of hits) if (!order.includes(hit.id)) order.push(hit.id);
  const matched = new Set(order);
  const byId = new Map(artifacts.map((a) => [a.id, a]));
  const ranked = [...order.map((id) => byId.get(id) as Artifact), ...artifacts.filter((a) => !matched.has(a.id))];
  return { ranked, matched };
}

/**
 * The deterministic plan (`--planner heuristic`, and the fallback when the planner model fails):
 * relevance by search rank, then a contiguous greedy fit: artifacts go in full in rank order until
 * the first one that does not fit; from there on each is an extract for the question (the executor
 * sizes extracts to the room left, and excludes what no longer fits). No model call, no cost.
 */
export async function heuristicPlan(input: PlannerInput): Promise<ArtifactPlan> {
  const { ranked, matched } = await rankArtifacts(input.artifacts, input.question);
  const decisions: ArtifactDecision[] = [];
  let used = 0;
  let full = true;
  ranked.forEach((artifact, i) => {
    const priority = i + 1;
    const relevance = matched.has(artifact.id) ? `rank ${priority} for the question` : 'shares no word with the question';
    if (full && used + artifact.tokens <= input.budgetTokens) {
      used += artifact.tokens;
      decisions.push({ id: artifact.id, strategy: 'include_full', priority, rationale: `${relevance}; fits in full` });
      return;
    }
    full = false;
    decisions.push({ id: artifact.id, strategy: 'rag_extract', priority, rationale: `${relevance}; the sections that match it`, query: input.question });
  });
  return { decisions, reasoning: 'deterministic plan: relevance by search rank, contiguous greedy fit' };
}

export const HEURISTIC_PLANNER: Planner = {
  kind: 'heuristic',
  async plan(input) {
    return { plan: await heuristicPlan(input), call: null };
  },
};

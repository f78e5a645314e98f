import { readFileSync } from 'node:fs';
import path from 'node:path';
import { sha256Hex } from '../../../src/core/hash';
import { previewOf } from '../../../src/core/planning/artifacts';
import type { Artifact, PlannerInput } from '../../../src/core/planning/types';
import type { ArtifactDecision } from '../../../src/core/conversation/records/plan';
import { tokenCounterFor } from '../../../src/core/tokens/tokenCounter';
import { VAULT } from '../../helpers/paths';

/** Artifacts of the planner tests: real notes of the project's vault, previewed as the pipeline previews them. */
export const PLAN = 'Projects/Greenhouse/Plan.md';
export const VENT = 'Projects/Greenhouse/Ventilation.md';
/** About 2,500 tokens: over the local server's 1,500-token include_full limit. */
export const LONG = 'Tasks/Writing a task.md';

export function textArtifact(id: string, content: string, extra: Partial<Artifact> = {}): Artifact {
  return {
    id,
    type: 'note',
    title: path.basename(id, '.md'),
    source: id,
    chars: content.length,
    tokens: tokenCounterFor('gpt-4o').count(content),
    hash: sha256Hex(content),
    historical: false,
    preview: previewOf(content),
    content,
    ...extra,
  };
}

export function noteArtifact(notePath: string, extra: Partial<Artifact> = {}): Artifact {
  return textArtifact(notePath, readFileSync(path.join(VAULT, notePath), 'utf8'), extra);
}

export function plannerInput(artifacts: readonly Artifact[], extra: Partial<PlannerInput> = {}): PlannerInput {
  return { question: 'How do the vents open without electricity?', goal: 'Answer from the notes.', budgetTokens: 3000, artifacts, kept: [], ...extra };
}

export function kept(artifact: Artifact, strategy: ArtifactDecision['strategy'] = 'include_full'): PlannerInput['kept'][number] {
  return { artifact, decision: { id: artifact.id, strategy, priority: 1, rationale: 'Decided earlier.' } };
}

import path from 'node:path';
import type { ContextChip } from '../../src/core/context/items';
import type { ReplayOptions, ReplayedTurn } from '../../src/core/scenario/replay';
import { replayScenario } from '../../src/core/scenario/replay';
import type { Scenario, ScenarioEdit } from '../../src/core/scenario/scenario';
import type { ToolOutput } from '../../src/core/engine/types';
import { FsVault } from '../../src/node/fsVault';

export const FIXTURE_VAULT = path.join(__dirname, '..', 'fixtures', 'vault');
export const SHARED = path.join(__dirname, '..', '..', '..', 'shared');
export const CORPUS = path.join(SHARED, 'corpus');

export interface StepSpec {
  user: string;
  chips?: ContextChip[];
  tools?: ToolOutput[];
  edits?: ScenarioEdit[];
  remove?: string[];
  reply?: string;
}

/** Replay hand-written steps over a vault folder through the real resolver and engine. */
export async function runSteps(steps: StepSpec[], options: ReplayOptions = {}, vaultDir = FIXTURE_VAULT): Promise<ReplayedTurn[]> {
  const scenario: Scenario = {
    name: 'test',
    model: 'gpt-4o',
    turns: steps.map((s, i) => ({
      user: s.user,
      context: s.chips ?? [],
      edits: s.edits ?? [],
      tools: s.tools ?? [],
      remove: s.remove ?? [],
      reply: s.reply ?? `reply ${i + 1}`,
    })),
  };
  return replayScenario(scenario, new FsVault(vaultDir), options);
}

export const note = (p: string): ContextChip => ({ kind: 'note', path: p });

import type { ContextChip } from '../../src/core/context/items';
import type { ReplayOptions, ReplayedTurn } from '../../src/core/scenario/replay';
import { replayScenario } from '../../src/core/scenario/replay';
import type { Scenario, ScenarioEdit } from '../../src/core/scenario/scenario';
import type { ToolOutput } from '../../src/core/engine/types';
import { FsVault } from '../../src/node/fsVault';
import { VAULT } from './paths';

/** Our context wrappers, opening and closing: whatever a note contains, only these may appear. */
export const WRAPPER_OPEN = /<(note|url|selection|folder|tag)_context /g;
export const WRAPPER_CLOSE = /<\/(note|url|selection|folder|tag)_context>/g;

export interface StepSpec {
  user: string;
  chips?: ContextChip[];
  tools?: ToolOutput[];
  edits?: ScenarioEdit[];
  remove?: string[];
  reply?: string;
}

/** Replay hand-written steps over a vault folder through the real resolver and engine. */
export async function runSteps(steps: StepSpec[], options: ReplayOptions = {}, vaultDir = VAULT): Promise<ReplayedTurn[]> {
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

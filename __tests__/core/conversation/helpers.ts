import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { VaultReader } from '../../../src/core/ports/vault';
import type { PromptContextEngine } from '../../../src/core/engine/engine';
import type { Clock } from '../../../src/core/ports/clock';
import type { Conversation } from '../../../src/core/conversation/model';
import { conversationFromEngine } from '../../../src/core/conversation/reload';
import { replayScenario, type ReplayOptions, type ReplayedTurn } from '../../../src/core/scenario/replay';
import type { Scenario } from '../../../src/core/scenario/scenario';
import { FsVault } from '../../../src/node/fsVault';
import { loadScenarioFile } from '../../../src/node/scenarioFiles';
import { ROOT, SCENARIOS, SHARED_SCENARIOS } from '../../helpers/paths';

export { ROOT };

const jsonFiles = (dir: string): string[] =>
  readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => path.join(dir, f));

/**
 * The scenarios the conversation suites replay: the project's own (examples/scenarios). The corpus
 * run (`npm run test:corpus`) runs the same suites with the global STRATA_SCENARIOS = 'shared'
 * (jest.corpus.config.cjs): every shared scenario plus the demo.
 */
export function scenarioFiles(): string[] {
  if ((globalThis as { STRATA_SCENARIOS?: string }).STRATA_SCENARIOS === 'shared') {
    return [...jsonFiles(SHARED_SCENARIOS), path.join(SCENARIOS, 'demo.json')];
  }
  return jsonFiles(SCENARIOS);
}

export function loadScenario(file: string): { scenario: Scenario; vault: FsVault } {
  const { scenario, vaultDir } = loadScenarioFile(file);
  return { scenario, vault: new FsVault(vaultDir) };
}

/** A clock that ticks one second per reading, from a fixed start. */
export function tickingClock(start = Date.UTC(2026, 10, 22, 9, 0, 0)): Clock {
  let t = start;
  return { now: () => (t += 1000) };
}

export interface RecordedScenario {
  readonly turns: ReplayedTurn[];
  readonly engine: PromptContextEngine;
  readonly conversation: Conversation;
}

/** Replay a scenario and record the finished chat as a Conversation (with every turn's envelope record). */
export async function recordScenario(file: string, options: ReplayOptions = {}): Promise<RecordedScenario> {
  const { scenario, vault } = loadScenario(file);
  return recordScenarioOver(scenario, vault, options);
}

/** The same for a scenario built in the test, over its own vault. */
export async function recordScenarioOver(scenario: Scenario, vault: VaultReader, options: ReplayOptions = {}): Promise<RecordedScenario> {
  let last: PromptContextEngine | null = null;
  const turns = await replayScenario(scenario, vault, {
    ...options,
    beforeTurn: async (engine, turn, v) => {
      last = options.beforeTurn ? await options.beforeTurn(engine, turn, v) : engine;
      return last;
    },
  });
  const engine = last as unknown as PromptContextEngine;
  const conversation = conversationFromEngine(
    engine.snapshot(),
    { id: `chat-${scenario.name}`, provider: 'openai', model: scenario.model },
    tickingClock(),
    turns.map((t) => t.assembly),
  );
  return { turns, engine, conversation };
}

export type { VaultReader };

import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseScenario, ScenarioError, type Scenario } from '../core/scenario/scenario';

export interface LoadedScenario {
  scenario: Scenario;
  file: string;
  vaultDir: string;
}

/**
 * Read a scenario file and find its vault: `--vault` wins; otherwise the scenario's `vault` is a
 * folder under ../corpus/ (beside the scenarios folder) or a path relative to the scenario file.
 */
export function loadScenarioFile(file: string, vaultOverride?: string): LoadedScenario {
  const full = path.resolve(file);
  let text: string;
  try {
    text = readFileSync(full, 'utf8');
  } catch (error) {
    throw new ScenarioError(`cannot read scenario ${file}: ${(error as Error).message}`);
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new ScenarioError(`${file}: not valid JSON: ${(error as Error).message}`);
  }
  const scenario = parseScenario(data, file);
  const vaultDir = vaultOverride ? path.resolve(vaultOverride) : findVault(path.dirname(full), scenario.vault);
  if (!existsSync(vaultDir) || !statSync(vaultDir).isDirectory()) {
    throw new ScenarioError(`${file}: vault folder not found: ${vaultDir}`);
  }
  return { scenario, file: full, vaultDir };
}

function findVault(scenarioDir: string, vault: string | undefined): string {
  if (!vault) return scenarioDir;
  const inCorpus = path.resolve(scenarioDir, '..', 'corpus', vault);
  if (existsSync(inCorpus)) return inCorpus;
  return path.resolve(scenarioDir, vault);
}

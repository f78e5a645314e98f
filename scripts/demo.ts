/**
 * The demo: replays examples/scenarios/demo.json over the sample vault in examples/vault, offline,
 * and prints what the context engine sends each turn.
 */
import path from 'node:path';
import { formatTable } from '../src/core/scenario/inspectFormat';
import { replayScenario } from '../src/core/scenario/replay';
import { FsVault } from '../src/node/fsVault';
import { loadScenarioFile } from '../src/node/scenarioFiles';

async function main(): Promise<void> {
  const file = path.join(__dirname, '..', 'examples', 'scenarios', 'demo.json');
  const { scenario, vaultDir } = loadScenarioFile(file);
  const turns = await replayScenario(scenario, new FsVault(vaultDir));
  process.stdout.write(formatTable(`Strata demo: "${scenario.name}" over examples/vault (transcript rendering)`, turns));
}

main().catch((error: unknown) => {
  process.stderr.write(`demo: ${error instanceof Error ? error.stack ?? error.message : String(error)}\n`);
  process.exitCode = 1;
});

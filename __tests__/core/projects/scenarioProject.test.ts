/**
 * The scenario format's `project` (src/core/scenario/scenario.ts): its prompt joins L1 as a static
 * fragment, and a turn's `"search"` keeps only the hits inside its folder, as a project's Vault QA
 * turn does.
 */
import { parseScenario } from '../../../src/core/scenario/scenario';
import { replayScenario } from '../../../src/core/scenario/replay';
import { FsVault } from '../../../src/node/fsVault';
import { TermOverlapSearch } from '../../helpers/termSearch';
import { VAULT } from '../chat/controllerHarness';

const turns = [{ user: 'Which vent openers work without electricity for the seedlings?', search: 'vent openers seedlings watering' }];

test('a scenario in a project: the prompt in L1 (static), the search inside the folder', async () => {
  const scenario = parseScenario({
    name: 'project',
    project: { name: 'Greenhouse', folder: 'Projects/Greenhouse', prompt: 'Answer as the greenhouse log keeper.' },
    turns,
  });
  const [turn] = await replayScenario(scenario, new FsVault(VAULT), { search: new TermOverlapSearch(VAULT) });
  const L1 = turn.assembly.envelope.layers.L1.segments;
  expect(L1.map((s) => [s.id, s.lifecycle])).toEqual([
    ['system', 'static'],
    ['project', 'static'],
  ]);
  expect(L1[1].text).toBe('## Project\nAnswer as the greenhouse log keeper.');
  const block = turn.assembly.envelope.layers.L3.segments.find((s) => s.type === 'tool');
  expect(block?.text).toContain('Projects/Greenhouse/');
  expect(block?.text).not.toMatch(/Daily\/|Reading\//);

  // Without a project: the same search reaches the rest of the vault.
  const [plain] = await replayScenario(parseScenario({ name: 'plain', turns }), new FsVault(VAULT), { search: new TermOverlapSearch(VAULT) });
  expect(plain.assembly.envelope.layers.L1.segments.map((s) => s.id)).toEqual(['system']);
  expect(plain.assembly.envelope.layers.L3.segments.find((s) => s.type === 'tool')?.text).toMatch(/Daily\//);
});

test('a bad project is named in the error', () => {
  expect(() => parseScenario({ name: 'bad', project: 'Greenhouse', turns })).toThrow(/project: expected an object with name, prompt and optional folder/);
});

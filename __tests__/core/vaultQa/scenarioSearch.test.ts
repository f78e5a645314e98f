/**
 * The scenario format's `"search": "query"`: during replay the vault search runs and its
 * localSearch block becomes the turn's tool output (the inspector's messages show it); the block
 * stays in history byte for byte, survives a reload through the chat note, and a scenario with a
 * search but no search given fails by name.
 */
import { formatJsonl, toInspectRecord } from '../../../src/core/scenario/inspectFormat';
import { replayScenario } from '../../../src/core/scenario/replay';
import { parseScenario, ScenarioError } from '../../../src/core/scenario/scenario';
import { reloadThroughNote } from '../../../src/core/conversation/reload';
import { FsVault } from '../../../src/node/fsVault';
import { TermOverlapSearch } from '../../helpers/termSearch';
import { VAULT } from '../../helpers/paths';

const scenario = parseScenario({
  name: 'vault-qa',
  turns: [
    { user: 'How do the roof vents open?', search: 'roof vent openers wax', reply: 'Wax openers push them open [1].' },
    { user: 'What did they cost?', search: 'automatic vent openers budget', reply: '90 € for two [1].' },
    { user: 'And submarines?', search: 'submarine periscope' },
  ],
});

test('"search" parses, and must be a non-empty string', () => {
  expect(scenario.turns[0].search).toBe('roof vent openers wax');
  expect(() => parseScenario({ name: 'x', turns: [{ user: 'a', search: '' }] })).toThrow('turns[0].search: must be a non-empty string');
  expect(() => parseScenario({ name: 'x', turns: [{ user: 'a', search: 3 }] })).toThrow('turns[0].search: must be a string');
});

test('replay runs the search: the block is the turn tool output, kept in history, and the inspector shows it', async () => {
  const vault = new FsVault(VAULT);
  const turns = await replayScenario(scenario, vault, { search: new TermOverlapSearch(VAULT) });
  const blocks = turns.map((t) => t.assembly.envelope.layers.L3.segments.filter((s) => s.type === 'tool').map((s) => s.text));
  expect(blocks.map((b) => b.length)).toEqual([1, 1, 1]);
  expect(blocks[0][0]).toMatch(/^<tool_output tool="localSearch" input="roof vent openers wax">\nVault search for: roof vent openers wax\n/);
  expect(blocks[0][0]).toContain('Projects/Greenhouse/Ventilation.md › Ventilation');
  expect(blocks[2][0]).toContain('Nothing relevant was found in the vault');
  // Later requests carry the earlier blocks unchanged, and never break the prefix.
  const third = turns[2].assembly.messages;
  expect(third[1].content).toContain(blocks[0][0]);
  expect(third[3].content).toContain(blocks[1][0]);
  expect(turns.map((t) => t.assembly.prefixChange)).toEqual([null, null, null]);
  const jsonl = formatJsonl(turns, { budget: null });
  expect(jsonl.split('\n')[0]).toContain('localSearch');
  expect(toInspectRecord(turns[1]).messages.at(-1)!.content).toContain('Citation rules:');
});

test('the same scenario reloaded through the chat note before every turn sends the same bytes', async () => {
  const vault = new FsVault(VAULT);
  const search = new TermOverlapSearch(VAULT);
  const plain = await replayScenario(scenario, vault, { search });
  const fields = { id: 'qa', provider: 'inspect', model: 'gpt-4o' };
  const reloaded = await replayScenario(scenario, vault, {
    search,
    beforeTurn: async (engine, _turn, v) => (await reloadThroughNote(engine, v, fields, {})).engine,
  });
  expect(reloaded.map((t) => t.assembly.messages)).toEqual(plain.map((t) => t.assembly.messages));
});

test('a scenario with "search" and no search given fails by name', async () => {
  await expect(replayScenario(scenario, new FsVault(VAULT))).rejects.toThrow(ScenarioError);
  await expect(replayScenario(scenario, new FsVault(VAULT))).rejects.toThrow('turn 1 has "search"');
});

/**
 * Dataview blocks as context (issue 31): each `dataview`/`dataviewjs` block of an attached note is
 * its own item right after the note (id = note path + query hash), its result rendered by Dataview
 * (here the stand-in over the sample vault, through the real port); a changed result is a new
 * version, the same result costs nothing; without Dataview the query text is sent and the title
 * says results are unavailable; dataviewjs is never run. Real files, resolver, engine, tokenizer.
 */
import { dataviewBlocks, dataviewId } from '../../../src/core/context/dataview/dataviewBlocks';
import { ChipResolver } from '../../../src/core/context/resolver';
import { parseScenario } from '../../../src/core/scenario/scenario';
import { replayScenario } from '../../../src/core/scenario/replay';
import { toInspectRecord } from '../../../src/core/scenario/inspectFormat';
import { FsVault } from '../../../src/node/fsVault';
import type { VaultReader } from '../../../src/core/ports/vault';
import { withDataview } from '../../../testing/dataview/standInVault';
import { expectGolden } from '../../helpers/golden';
import { VAULT } from '../../helpers/paths';

const DASH = 'Dashboards/Greenhouse dashboard.md';

describe('dataview blocks', () => {
  test('fenced dataview and dataviewjs blocks in note order; other code blocks and inline fields are not blocks', () => {
    const text = ['key:: value', '```js', '```dataview', 'not a block', '```', '~~~~dataview', 'LIST', '```', '~~~~', '```dataviewjs', 'dv.list([1])', '```'].join('\n');
    expect(dataviewBlocks(text)).toEqual([
      { lang: 'dataview', query: 'LIST\n```', line: 6 },
      { lang: 'dataviewjs', query: 'dv.list([1])', line: 10 },
    ]);
    expect(dataviewId('a.md', { lang: 'dataview', query: 'LIST' })).toMatch(/^a\.md#dataview-[0-9a-f]{12}$/);
    expect(dataviewId('a.md', { lang: 'dataview', query: 'LIST' })).not.toBe(dataviewId('a.md', { lang: 'dataviewjs', query: 'LIST' }));
  });

  test('with Dataview: each block its own item after the note, results from Dataview (golden)', async () => {
    const resolver = new ChipResolver(withDataview(new FsVault(VAULT)));
    const { items, problems } = await resolver.resolve([{ kind: 'note', path: DASH }, { kind: 'note', path: 'Tasks/Priorities.md' }]);
    expect(problems).toEqual([]);
    expect(items.map((i) => [i.kind, i.title])).toEqual([
      ['note', 'Greenhouse dashboard'],
      ['dataview', 'Greenhouse dashboard · dataview: TABLE status'],
      ['dataview', 'Greenhouse dashboard · dataview: LIST'],
      ['dataview', 'Greenhouse dashboard · dataviewjs (result unavailable)'],
      ['note', 'Priorities'],
    ]);
    expect(items[0].content).toContain('status:: tracking'); // inline fields stay text
    expect(items[1].content).toContain('| [[Projects/Greenhouse/Plan.md\\|Plan]] | active |');
    expect(items[2].content).toContain('- [[Tasks/Priorities.md|Priorities]]');
    expect(items[3].content).toContain('dv.paragraph(');
    expect(items[3].content).toContain('Strata does not run them');
    expectGolden('dataview-dashboard', items.slice(1, 4).map((i) => ({ id: i.id, title: i.title, content: i.content.split('\n') })));
  });

  test('without Dataview: the query text, and the title says results are unavailable', async () => {
    const { items } = await new ChipResolver(new FsVault(VAULT)).resolve([{ kind: 'note', path: DASH }]);
    expect(items.map((i) => i.title)).toEqual([
      'Greenhouse dashboard',
      'Greenhouse dashboard · dataview: TABLE status (results unavailable)',
      'Greenhouse dashboard · dataview: LIST (results unavailable)',
      'Greenhouse dashboard · dataviewjs (result unavailable)',
    ]);
    expect(items[1].content).toContain('```dataview\nTABLE status\nFROM "Projects/Greenhouse"\nSORT file.name ASC\n```');
    expect(items[1].content).toContain('the Dataview plugin is not enabled');
  });

  test('a query Dataview cannot run: its error and the query text; a block gone is null', async () => {
    const files = new Map([['Bad.md', '```dataview\nCALENDAR file.day\n```\n']]);
    const memory: VaultReader = { read: (p) => Promise.resolve(files.get(p) ?? null), listMarkdown: () => Promise.resolve([...files.keys()]) };
    const resolver = new ChipResolver(withDataview(memory));
    const { items } = await resolver.resolve([{ kind: 'note', path: 'Bad.md' }]);
    expect(items[1].title).toBe('Bad · dataview: CALENDAR file.day (query failed)');
    expect(items[1].content).toContain('```dataview\nCALENDAR file.day\n```');
    expect(items[1].content).toContain('Dataview could not run this query (Dataview: Error parsing query');
    expect(await resolver.dataviewItem(items[1].id, 'Bad.md')).toEqual(items[1]);
    expect(await resolver.dataviewItem('Bad.md#dataview-000000000000', 'Bad.md')).toBeNull();
  });

  test('freshness follows the result: a changed result is a new version, the same result costs nothing', async () => {
    // A vault in memory the test changes between turns; the dashboard note itself never changes.
    const files = new Map<string, string>([
      ['Dash.md', '# Dash\n\n```dataview\nLIST\nFROM "Tasks"\n```\n'],
      ['Tasks/One.md', '# One\n'],
    ]);
    const memory: VaultReader = {
      read: (p) => Promise.resolve(files.get(p) ?? null),
      listMarkdown: () => Promise.resolve([...files.keys()].filter((p) => p.endsWith('.md')).sort()),
    };
    const scenario = parseScenario(
      {
        name: 'dataview-freshness',
        model: 'gpt-4o',
        turns: [
          { user: 'What does the dashboard list?', context: [{ note: 'Dash.md' }], reply: 'One task note.' },
          { user: 'Anything else?', reply: 'No.' },
          { user: 'And now?', reply: 'Two task notes.' },
          { user: 'Still two?', reply: 'Yes.' },
        ],
      },
      'inline',
    );
    const id = dataviewId('Dash.md', { lang: 'dataview', query: 'LIST\nFROM "Tasks"' });
    const turns = (
      await replayScenario(scenario, withDataview(memory), {
        beforeTurn: (engine, turn) => {
          if (turn === 3) files.set('Tasks/Two.md', '# Two\n'); // the query's result changes, not the note
          return Promise.resolve(engine);
        },
      })
    ).map(toInspectRecord);
    expect(turns[0].messages.some((m) => m.content.includes('- [[Tasks/One.md|One]]'))).toBe(true);
    expect(turns[1].freshness).toEqual([]);
    expect(turns[1].prefixChange).toBeNull();
    expect(turns[2].freshness).toEqual([{ id, status: 'updated', fromVersion: 1, toVersion: 2 }]);
    expect(turns[2].messages.some((m) => m.content.includes('- [[Tasks/Two.md|Two]]'))).toBe(true);
    expect(turns[3].freshness).toEqual([]);
    expect(turns[3].prefixChange).toBeNull();
  });
});

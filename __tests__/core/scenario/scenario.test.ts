import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { parseScenario, ScenarioError } from '../../../src/core/scenario/scenario';
import { SCENARIOS } from '../../helpers/paths';

const README_EXAMPLE = {
  name: 'short-name',
  vault: 'tasks-docs',
  model: 'gpt-4o',
  turns: [
    {
      user: "the user's message (L5)",
      context: [
        { note: 'Queries/Filters.md' },
        { folder: 'Getting Started/Statuses' },
        { tag: '#feature/recurrence' },
        { url: 'https://example.org/page', content: 'page text, given inline (no network)' },
        { selection: { note: 'Queries/Sorting.md', fromLine: 10, toLine: 24 } },
      ],
      edits: [{ note: 'Queries/Filters.md', append: 'text appended before this turn' }],
      tools: [{ name: 'localSearch', input: 'query', output: 'canned tool output' }],
      reply: 'canned assistant reply',
    },
  ],
};

describe('scenario schema', () => {
  test('the format README example reads as chips, edits and tools', () => {
    expect(parseScenario(README_EXAMPLE)).toEqual({
      name: 'short-name',
      vault: 'tasks-docs',
      model: 'gpt-4o',
      turns: [
        {
          user: "the user's message (L5)",
          context: [
            { kind: 'note', path: 'Queries/Filters.md' },
            { kind: 'folder', path: 'Getting Started/Statuses' },
            { kind: 'tag', tag: '#feature/recurrence' },
            { kind: 'url', url: 'https://example.org/page', content: 'page text, given inline (no network)' },
            { kind: 'selection', path: 'Queries/Sorting.md', fromLine: 10, toLine: 24 },
          ],
          edits: [{ note: 'Queries/Filters.md', append: 'text appended before this turn' }],
          tools: [{ name: 'localSearch', input: 'query', output: 'canned tool output' }],
          reply: 'canned assistant reply',
          remove: [],
        },
      ],
    });
  });

  test('a turn may attach a PDF (project chip, issue 31)', () => {
    const s = parseScenario({ name: 'x', turns: [{ user: 'hi', context: [{ pdf: 'Attachments/Greenhouse manual.pdf' }] }] });
    expect(s.turns[0].context).toEqual([{ kind: 'pdf', path: 'Attachments/Greenhouse manual.pdf' }]);
  });

  test('every project scenario reads', () => {
    const files = readdirSync(SCENARIOS).filter((f) => f.endsWith('.json'));
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) expect(() => parseScenario(JSON.parse(readFileSync(path.join(SCENARIOS, file), 'utf8')), file)).not.toThrow();
  });

  test('optional parts: absent lists are empty, a tool without input has an empty one, page text that is not text is ignored', () => {
    const s = parseScenario({ name: 'x', turns: [{ user: 'hi', context: [{ url: 'u', content: 4 }], tools: [{ name: 't', output: 'o' }] }] });
    expect(s.model).toBe('gpt-4o');
    expect(s.turns[0]).toEqual({ user: 'hi', context: [{ kind: 'url', url: 'u' }], edits: [], tools: [{ name: 't', input: '', output: 'o' }], remove: [] });
  });

  const damaged = (turn: Record<string, unknown>) => ({ name: 'x', turns: [{ user: 'hi', ...turn }] });
  test.each([
    ['not an object', [1], 'top level: expected a JSON object'],
    ['no name', { turns: [{ user: 'u' }] }, 'name: required string'],
    ['vault not text', { name: 'x', vault: 1, turns: [{ user: 'u' }] }, 'vault: must be a string'],
    ['model null', { name: 'x', model: null, turns: [{ user: 'u' }] }, 'model: must be a string'],
    ['turns not a list', { name: 'x', turns: {} }, 'turns: required non-empty array'],
    ['a turn not an object', { name: 'x', turns: ['hi'] }, 'turns[0]: expected an object'],
    ['reply not text', damaged({ reply: 1 }), 'turns[0].reply: must be a string'],
    ['context not a list', damaged({ context: 'a.md' }), 'turns[0].context: must be an array'],
    ['a selection without lines', damaged({ context: [{ selection: { note: 'a.md' } }] }), 'turns[0].context[0]: selection needs note (string), fromLine and toLine (numbers)'],
    ['an edit without a note', damaged({ edits: [{ append: 'x' }] }), 'turns[0].edits[0]: needs note (string)'],
    ['a tool without output', damaged({ tools: [{ name: 't' }] }), 'turns[0].tools[0].output: needs name and output (strings)'],
    ['a removed id not text', damaged({ remove: [1] }), 'turns[0].remove[0]: must be a string'],
  ])('%s: a ScenarioError that names the field', (_name, data, message) => {
    expect(() => parseScenario(data, 'f.json')).toThrow(new ScenarioError(`f.json: ${message}`));
  });

  test('every wrong field is named, not just the first', () => {
    expect(() => parseScenario({ name: '', turns: [{ user: 1 }, { user: 'ok', tools: 3 }] })).toThrow(
      'scenario: name: required string; turns[0].user: required string; turns[1].tools: must be an array',
    );
  });

  test('any JSON value either reads or fails with a ScenarioError, never another exception', () => {
    const chip = fc.record({ note: fc.jsonValue(), url: fc.jsonValue(), selection: fc.jsonValue() }, { requiredKeys: [] });
    const turn = fc.record({ user: fc.jsonValue(), context: fc.oneof(fc.array(chip), fc.jsonValue()), edits: fc.jsonValue(), tools: fc.jsonValue() }, { requiredKeys: [] });
    const scenario = fc.record({ name: fc.jsonValue(), model: fc.jsonValue(), turns: fc.oneof(fc.array(turn), fc.jsonValue()) }, { requiredKeys: [] });
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), scenario), (data) => {
        try {
          const s = parseScenario(data);
          expect(s.turns.length).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(ScenarioError);
        }
      }),
      { numRuns: 1000 },
    );
  });
});

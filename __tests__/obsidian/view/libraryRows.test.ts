import type { ChatState, LibraryEntry, PlannedEntry, PlanView } from '../../../src/core/chat/chatState';
import { ZERO_USAGE } from '../../../src/core/usage';
import { libraryRows } from '../../../src/obsidian/view/libraryRows';
import { planCostText, sentText } from '../../../src/obsidian/view/planLabels';

function item(id: string, tokens: number, version = 1): LibraryEntry {
  return { id, kind: 'note', title: id.replace(/\.md$/, ''), source: id, tokens, version, enteredTurn: 1 };
}

function entry(id: string, strategy: PlannedEntry['strategy'], tokens: number, fullTokens: number, extra: Partial<PlannedEntry> = {}): PlannedEntry {
  return { id, type: 'note', title: id.replace(/\.md$/, ''), strategy, rationale: `why ${id}`, by: 'heuristic', tokens, fullTokens, turn: 1, ...extra };
}

function state(library: LibraryEntry[], plan: Partial<PlanView> = {}): ChatState {
  const view: PlanView = { entries: [], overrides: [], last: null, usage: ZERO_USAGE, cost: null, calls: 0, ...plan };
  return { library, plan: view } as unknown as ChatState;
}

describe('libraryRows', () => {
  test('an item without a decision goes in full, with no rationale', () => {
    expect(libraryRows(state([item('Plan.md', 900, 2)]))).toEqual([
      { id: 'Plan.md', type: 'note', title: 'Plan', detail: 'Plan.md · v2', strategy: 'include_full', tokens: 900, fullTokens: 900, rationale: '', sent: true },
    ]);
  });

  test('a planned item shows its strategy, tokens sent of the whole, and the reason', () => {
    const [row] = libraryRows(state([item('Handbook.md', 1200)], { entries: [entry('Handbook.md', 'rag_extract', 1200, 38000)] }));
    expect(row).toMatchObject({ strategy: 'rag_extract', tokens: 1200, fullTokens: 38000, rationale: 'why Handbook.md', sent: true });
    expect(sentText(row.strategy, row.tokens, row.fullTokens)).toBe('1.2k of 38k tokens');
  });

  test('items the plan left out are listed after the library, not sent', () => {
    const rows = libraryRows(state([item('Plan.md', 900)], { entries: [entry('Old.md', 'exclude', 0, 5000)] }));
    expect(rows.map((r) => [r.id, r.strategy, r.sent])).toEqual([
      ['Plan.md', 'include_full', true],
      ['Old.md', 'exclude', false],
    ]);
    expect(rows[1]).toMatchObject({ tokens: 0, fullTokens: 5000, rationale: 'why Old.md' });
  });

  test('an override replaces the decision: pinned in full in the library, excluded by the user out of it', () => {
    const rows = libraryRows(
      state([item('Handbook.md', 1200)], {
        overrides: [
          { id: 'Handbook.md', override: 'full' },
          { id: 'Projects/Gone.md', override: 'exclude' },
          { id: 'folder:Projects', override: 'exclude' },
        ],
      }),
    );
    expect(rows.map((r) => [r.id, r.type, r.title, r.strategy, r.override, r.sent])).toEqual([
      ['Handbook.md', 'note', 'Handbook', 'include_full', 'full', true],
      ['Projects/Gone.md', 'note', 'Gone', 'exclude', 'exclude', false],
      ['folder:Projects', 'folder', 'Projects/', 'exclude', 'exclude', false],
    ]);
    expect(rows[0].rationale).toMatch(/sent in full from the next request/);
    expect(rows[1].rationale).toMatch(/not sent/);
  });

  test('an override on a planned-out item keeps one row with both', () => {
    const rows = libraryRows(state([], { entries: [entry('Old.md', 'exclude', 0, 5000, { override: 'full' })] }));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ strategy: 'exclude', override: 'full', sent: false });
  });
});

describe('plan labels', () => {
  test('tokens sent: whole items show their size alone', () => {
    expect(sentText('include_full', 38_000, 38_000)).toBe('38k');
    expect(sentText('summarize', 800, 38_000)).toBe('800 of 38k tokens');
  });

  test('planning cost: calls, tokens in and out, dollars', () => {
    const usage = { ...ZERO_USAGE, inputTokens: 3900, outputTokens: 200 };
    expect(planCostText({ usage, cost: 0.0012, calls: 3 })).toBe('3 calls, 4.1k tokens, $0.0012');
    expect(planCostText({ usage: ZERO_USAGE, cost: null, calls: 1 })).toBe('1 call, 0 tokens, unknown price');
  });
});

describe('libraryRows after an override dropped the decision', () => {
  const last = {
    reason: 'near-budget',
    detail: 'over',
    planner: 'heuristic',
    roomTokens: 7000,
    decisions: [{ id: 'Handbook.md', type: 'note', title: 'Handbook', strategy: 'rag_extract', priority: 1, rationale: 'rank 1', by: 'heuristic', kept: false, fullTokens: 38000, tokens: 6900 }],
    calls: [],
    cache: { hits: 0, misses: 0 },
  } as const;

  test('pinned in full: still the extract the last request sent, until the next one', () => {
    const [row] = libraryRows(state([item('Handbook.md', 6900)], { last, overrides: [{ id: 'Handbook.md', override: 'full' }] }));
    expect(row).toMatchObject({ strategy: 'rag_extract', override: 'full', tokens: 6900, fullTokens: 38000 });
    expect(row.rationale).toMatch(/pinned/);
  });

  test('back to the plan: the last form, decided again on the next request', () => {
    const [row] = libraryRows(state([item('Handbook.md', 6900)], { last }));
    expect(row).toMatchObject({ strategy: 'rag_extract', tokens: 6900, fullTokens: 38000, rationale: 'The plan decides again on the next request.' });
    expect(row.override).toBeUndefined();
  });
});

test('an item the user excluded keeps the title and size the last plan knew', () => {
  const last = {
    reason: 'near-budget',
    detail: 'over',
    planner: 'heuristic',
    roomTokens: 7000,
    decisions: [{ id: 'Docs/Handbook.md', type: 'note', title: 'House handbook', strategy: 'rag_extract', priority: 1, rationale: 'rank 1', by: 'heuristic', kept: false, fullTokens: 38000, tokens: 6900 }],
    calls: [],
    cache: { hits: 0, misses: 0 },
  } as const;
  const [row] = libraryRows(state([], { last, overrides: [{ id: 'Docs/Handbook.md', override: 'exclude' }] }));
  expect(row).toMatchObject({ title: 'House handbook', strategy: 'exclude', override: 'exclude', fullTokens: 38000, sent: false });
});

test('a condensed item (issue 27) is marked, with its form and why; asked in full, it says so', () => {
  const entry: LibraryEntry = { id: 'A.md', kind: 'note', title: 'A', source: 'A.md', tokens: 700, version: 1, enteredTurn: 1 };
  const held = (fullAgain: boolean) => ({ ...state([entry]), condensed: [{ id: 'A.md', form: 'outline' as const, fullAgain }] });
  expect(libraryRows(held(false))[0]).toMatchObject({ condensed: { form: 'outline', fullAgain: false }, rationale: expect.stringMatching(/^Condensed to its heading outline/), sent: true });
  expect(libraryRows(held(true))[0].rationale).toBe('You asked for it in full: the next request sends it whole again.');
});

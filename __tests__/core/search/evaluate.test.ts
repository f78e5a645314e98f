import { readFileSync } from 'node:fs';
import path from 'node:path';
import { evaluateSearch, parseEvalSet, type EvalQuestion } from '../../../src/core/search/evaluate';
import { formatEvalTable } from '../../../src/core/search/evalFormat';
import type { SearchHit, SearchOptions, VaultSearch } from '../../../src/core/search/types';
import { ROOT } from '../../helpers/paths';

function hit(p: string, heading = '', score = 1): SearchHit {
  return { path: p, headings: heading ? [heading] : [], heading, startLine: 1, endLine: 2, text: '', snippet: '', score };
}

/** A search that answers each query with a fixed list, and records the options it was asked with. */
class FixedSearch implements VaultSearch {
  readonly asked: SearchOptions[] = [];
  constructor(private readonly answers: Record<string, SearchHit[]>) {}
  search(query: string, options: SearchOptions = {}): Promise<SearchHit[]> {
    this.asked.push(options);
    return Promise.resolve(this.answers[query] ?? []);
  }
}

const q = (id: string, vault: string, question: string, expected: string[], heading?: string): EvalQuestion => ({ id, vault, question, expected, ...(heading ? { heading } : {}) });

describe('evaluateSearch', () => {
  it('ranks by distinct notes, counts recall@1/@5 and MRR per vault and overall, and lists the misses', async () => {
    const a = new FixedSearch({
      first: [hit('x.md'), hit('y.md')],
      // Three chunks of x.md before y.md: y.md is still the second note, not the fourth hit.
      second: [hit('x.md'), hit('x.md'), hit('x.md'), hit('y.md')],
      sixth: ['n1', 'n2', 'n3', 'n4', 'n5', 'want'].map((n) => hit(`${n}.md`)),
      none: [],
    });
    const b = new FixedSearch({ alt: [hit('z.md'), hit('other.md'), hit('b2.md')] });
    const questions = [
      q('a1', 'A', 'first', ['x.md']),
      q('a2', 'A', 'second', ['y.md']),
      q('a3', 'A', 'sixth', ['want.md']),
      q('a4', 'A', 'none', ['x.md']),
      q('b1', 'B', 'alt', ['nope.md', 'b2.md']),
    ];
    const report = await evaluateSearch(questions, new Map([['A', a], ['B', b]]));
    expect(report.outcomes.map((o) => o.rank)).toEqual([1, 2, 6, null, 3]);
    expect(report.overall).toMatchObject({ questions: 5, foundAt1: 1, foundAt5: 3, recallAt1: 0.2, recallAt5: 0.6 });
    expect(report.overall.mrr).toBeCloseTo((1 + 1 / 2 + 1 / 6 + 0 + 1 / 3) / 5, 12);
    expect(report.vaults.map((v) => [v.vault, v.figures.questions, v.figures.foundAt5])).toEqual([['A', 4, 2], ['B', 1, 1]]);
    expect(report.misses.map((m) => m.id)).toEqual(['a3', 'a4']);
    // Issue 33 compares at every k the evaluation prints: 1, 3, 5 and 10.
    expect(report.overall).toMatchObject({ foundAt3: 3, foundAt10: 4, recallAt3: 0.6, recallAt10: 0.8 });
    expect(report.misses[0].top).toEqual(['n1.md', 'n2.md', 'n3.md', 'n4.md', 'n5.md']);
    // Every question asks for 10 notes, one hit per note.
    expect([...a.asked, ...b.asked].every((o) => o.k === 10 && o.perNote === 1)).toBe(true);
  });

  it('counts a note found below the 10th note as not found', async () => {
    const search = new FixedSearch({ deep: Array.from({ length: 12 }, (_, i) => hit(`n${i + 1}.md`)) });
    const report = await evaluateSearch([q('d', 'A', 'deep', ['n11.md'])], new Map([['A', search]]));
    expect(report.outcomes[0].rank).toBeNull();
    expect(report.overall.mrr).toBe(0);
  });

  it('reports heading@5 only for questions that name a heading, from the expected note\'s hits', async () => {
    const search = new FixedSearch({
      right: [hit('other.md', 'Setup'), hit('doc.md', 'Intro'), hit('doc.md', 'Setup')],
      wrong: [hit('doc.md', 'Intro')],
      whole: [hit('doc.md')],
    });
    const report = await evaluateSearch(
      [q('h1', 'A', 'right', ['doc.md'], 'Setup'), q('h2', 'A', 'wrong', ['doc.md'], 'Setup'), q('h3', 'A', 'whole', ['doc.md'])],
      new Map([['A', search]]),
    );
    expect(report.outcomes.map((o) => o.headingAt5)).toEqual([true, false, null]);
    expect(report.overall).toMatchObject({ headingQuestions: 2, headingAt5: 1 });
  });

  it('refuses a question whose vault has no search', async () => {
    await expect(evaluateSearch([q('x', 'missing', 'anything', ['a.md'])], new Map())).rejects.toThrow('no search for vault "missing" (question x)');
  });

  it('prints a table per target and vault, then the misses with what came first', async () => {
    const search = new FixedSearch({ found: [hit('a.md')], lost: [hit('b.md'), hit('c.md')] });
    const report = await evaluateSearch([q('v-found', 'V', 'found', ['a.md']), q('v-lost', 'V', 'lost', ['a.md'])], new Map([['V', search]]));
    const text = formatEvalTable([{ target: 'fake', report, buildMs: { V: 12.4 } }]);
    expect(text.split('\n').slice(0, 4)).toEqual([
      'target  vault  questions    recall@1    recall@5    MRR  heading@5  build',
      '------  -----  ---------  ----------  ----------  -----  ---------  -----',
      'fake    V              2  50.0 % (1)  50.0 % (1)  0.500          -  12 ms',
      'fake    all            2  50.0 % (1)  50.0 % (1)  0.500          -  12 ms',
    ]);
    expect(text).toContain('fake: 1 of 2 not in the top 5\n  V v-lost (rank >10): "lost"\n    expected a.md\n    got      b.md | c.md\n');
  });
});

describe('the questions found at k', () => {
  it('prints found@1/3/5/10 per target and vault, each marked against the first target', async () => {
    const baseline = new FixedSearch({ one: [hit('b.md'), hit('a.md')], two: [hit('c.md')] });
    const better = new FixedSearch({ one: [hit('a.md')], two: [] });
    const qs = [q('v-one', 'V', 'one', ['a.md']), q('v-two', 'V', 'two', ['c.md'])];
    const runs = [
      { target: 'base', report: await evaluateSearch(qs, new Map([['V', baseline]])), buildMs: {} },
      { target: 'new', report: await evaluateSearch(qs, new Map([['V', better]])), buildMs: {} },
    ];
    const text = formatEvalTable(runs);
    expect(text).toContain(
      [
        'questions found at k (+ above, = tied, - below base)',
        'target  vault  found@1  found@3  found@5  found@10',
        '------  -----  -------  -------  -------  --------',
        'base    V            1        2        2         2',
        'base    all          1        2        2         2',
        'new     V           1=       1-       1-        1-',
        'new     all         1=       1-       1-        1-',
      ].join('\n'),
    );
  });
});

describe('parseEvalSet', () => {
  const one = { id: 'a', vault: 'v', question: 'q?', expected: ['a.md'] };

  it('rejects a wrong version, an empty expected list and a repeated id', () => {
    expect(() => parseEvalSet({ version: 2, questions: [one] })).toThrow('malformed evaluation set: version');
    expect(() => parseEvalSet({ version: 1, questions: [{ ...one, expected: [] }] })).toThrow('questions.0.expected');
    expect(() => parseEvalSet({ version: 1, questions: [one, one] })).toThrow('question id "a" is repeated');
  });

  it('reads the repository\'s set: 30+ questions over the three corpus vaults, each with a heading only where it names one', () => {
    const questions = parseEvalSet(JSON.parse(readFileSync(path.join(ROOT, 'bench', 'search-eval', 'questions.json'), 'utf8')));
    expect(questions.length).toBeGreaterThanOrEqual(30);
    expect([...new Set(questions.map((x) => x.vault))].sort()).toEqual(['kepano', 'tasks-demo', 'tasks-docs']);
    for (const x of questions) {
      expect(x.id.startsWith(x.vault === 'tasks-docs' ? 'docs-' : x.vault === 'tasks-demo' ? 'demo-' : 'kepano-')).toBe(true);
      for (const p of x.expected) expect(p).toMatch(/^[^/].*\.md$/);
    }
  });
});

import { makeItem, type ContextItem } from '../../../src/core/context/items';
import { decideItems, type ItemDecisionInput } from '../../../src/core/engine/decide';
import type { LibraryItem } from '../../../src/core/engine/types';

const note = (id: string, content: string, extra: Partial<Pick<ContextItem, 'source' | 'title' | 'via'>> = {}) =>
  makeItem({ id, kind: 'note', title: id, source: id, content, ...extra });

/** The library's copy of a note, as an earlier turn sent it. */
function sent(item: ContextItem, version: number, via?: string): LibraryItem {
  return { id: item.id, kind: item.kind, title: item.title, source: item.source, ...(via ? { via } : {}), version, hash: item.hash, content: item.content, tokens: 0, enteredTurn: 1 };
}

/** The library's latest versions, keyed by id, in the order given. */
const versions = (...items: LibraryItem[]) => new Map(items.map((item) => [item.id, item]));

function decide(fields: Partial<ItemDecisionInput>) {
  return decideItems({ latest: versions(), items: [], policy: 'fresh', ...fields });
}

describe('decideItems: items attached this turn', () => {
  it('an item the library has not seen enters as new, version 1', () => {
    const a = note('a.md', 'A');
    expect(decide({ items: [a] })).toEqual({ enter: [{ item: a, mode: 'new', version: 1 }], referenced: [], freshness: [] });
  });

  it('an item whose hash matches the library copy is referenced by id', () => {
    const a = note('a.md', 'A');
    expect(decide({ latest: versions(sent(a, 1)), items: [a] })).toEqual({ enter: [], referenced: ['a.md'], freshness: [] });
  });

  it.each(['fresh', 'fresh-attached'] as const)('a changed item is sent as its next version under the %s policy', (policy) => {
    const old = note('a.md', 'A1');
    const now = note('a.md', 'A3');
    const decision = decide({ latest: versions(sent(old, 2)), items: [now], policy });
    expect(decision.enter).toEqual([{ item: now, mode: 'update', version: 3 }]);
    expect(decision.referenced).toEqual([]);
    expect(decision.freshness).toEqual([{ id: 'a.md', status: 'updated', fromVersion: 2, toVersion: 3, detail: expect.stringContaining('sent in full') }]);
  });

  it('a changed item keeps the library copy under the stable policy, referenced and reported stale', () => {
    const old = note('a.md', 'A1');
    const decision = decide({ latest: versions(sent(old, 2)), items: [note('a.md', 'A2')], policy: 'stable' });
    expect(decision.enter).toEqual([]);
    expect(decision.referenced).toEqual(['a.md']);
    expect(decision.freshness).toEqual([{ id: 'a.md', status: 'stale-kept', fromVersion: 2, detail: expect.stringContaining('stable policy') }]);
    expect(decision.freshness[0]).not.toHaveProperty('toVersion');
  });

  it('an id attached twice is decided once, where it first appears', () => {
    const a = note('a.md', 'A');
    const b = note('b.md', 'B');
    const twice = decide({ items: [a, b, note('a.md', 'A, edited between chips')] });
    expect(twice.enter).toEqual([
      { item: a, mode: 'new', version: 1 },
      { item: b, mode: 'new', version: 1 },
    ]);
    const referencedTwice = decide({ latest: versions(sent(a, 1)), items: [a, a] });
    expect(referencedTwice).toEqual({ enter: [], referenced: ['a.md'], freshness: [] });
  });

  it('attached items keep chip order: new ones enter in order, references in order', () => {
    const a = note('a.md', 'A');
    const b = note('b.md', 'B');
    const c = note('c.md', 'C');
    const d = note('d.md', 'D');
    const decision = decide({ latest: versions(sent(a, 1), sent(b, 1)), items: [d, b, c, a] });
    expect(decision.enter.map((e) => e.item.id)).toEqual(['d.md', 'c.md']);
    expect(decision.referenced).toEqual(['b.md', 'a.md']);
  });
});

describe('decideItems: library notes re-read but not attached (current)', () => {
  const a = note('a.md', 'A1');
  const b = note('b.md', 'B1');
  const library = versions(sent(a, 1, 'folder:notes'), sent(b, 4));

  it('a changed note is sent as its next version under the fresh policy, keeping the folder it came through', () => {
    const now = note('a.md', 'A2');
    const decision = decide({ latest: library, current: new Map([['a.md', now]]), policy: 'fresh' });
    expect(decision.enter).toEqual([{ item: { ...now, via: 'folder:notes' }, mode: 'update', version: 2 }]);
    expect(decision.referenced).toEqual([]);
    expect(decision.freshness).toEqual([{ id: 'a.md', status: 'updated', fromVersion: 1, toVersion: 2, detail: expect.stringContaining('library note changed') }]);
  });

  it.each(['fresh-attached', 'stable'] as const)('a changed note keeps the library copy under the %s policy', (policy) => {
    const decision = decide({ latest: library, current: new Map([['b.md', note('b.md', 'B2')]]), policy });
    expect(decision.enter).toEqual([]);
    expect(decision.referenced).toEqual([]);
    expect(decision.freshness).toEqual([{ id: 'b.md', status: 'stale-kept', fromVersion: 4, detail: expect.stringContaining(`(${policy} policy)`) }]);
  });

  it.each(['fresh', 'fresh-attached', 'stable'] as const)('a note gone from the vault (null) keeps the library copy under %s', (policy) => {
    const decision = decide({ latest: library, current: new Map([['b.md', null]]), policy });
    expect(decision).toEqual({
      enter: [],
      referenced: [],
      freshness: [{ id: 'b.md', status: 'missing-kept', fromVersion: 4, detail: expect.stringContaining('no longer in the vault') }],
    });
  });

  it('unchanged notes, and library notes left out of current, raise nothing', () => {
    expect(decide({ latest: library, current: new Map([['a.md', a]]) })).toEqual({ enter: [], referenced: [], freshness: [] });
    expect(decide({ latest: library })).toEqual({ enter: [], referenced: [], freshness: [] });
    expect(decide({ latest: library, current: new Map([['elsewhere.md', null]]) })).toEqual({ enter: [], referenced: [], freshness: [] });
  });

  it('a note attached this turn is decided as attached, whatever current says', () => {
    const decision = decide({ latest: library, items: [a], current: new Map([['a.md', null]]) });
    expect(decision).toEqual({ enter: [], referenced: ['a.md'], freshness: [] });
  });

  it('a moved note keeps its id: unchanged it raises nothing; changed, its new version carries the new path', () => {
    const moved = note('a.md', 'A1', { source: 'archive/a.md', title: 'a' });
    expect(decide({ latest: library, current: new Map([['a.md', moved]]) })).toEqual({ enter: [], referenced: [], freshness: [] });

    const movedAndEdited = note('a.md', 'A2', { source: 'archive/a.md', title: 'a' });
    const decision = decide({ latest: library, current: new Map([['a.md', movedAndEdited]]) });
    expect(decision.enter).toHaveLength(1);
    expect(decision.enter[0]).toMatchObject({ mode: 'update', version: 2, item: { id: 'a.md', source: 'archive/a.md', via: 'folder:notes', content: 'A2' } });
    expect(decision.freshness.map((e) => [e.id, e.status])).toEqual([['a.md', 'updated']]);
  });

  it('attached decisions come first (chip order), then library notes (library order)', () => {
    const c = note('c.md', 'C');
    const decision = decide({
      latest: library,
      items: [c],
      current: new Map<string, ContextItem | null>([
        ['b.md', note('b.md', 'B2')],
        ['a.md', note('a.md', 'A2')],
      ]),
    });
    expect(decision.enter.map((e) => `${e.item.id}@${e.version}`)).toEqual(['c.md@1', 'a.md@2', 'b.md@5']);
    expect(decision.freshness.map((e) => e.id)).toEqual(['a.md', 'b.md']);
  });
});

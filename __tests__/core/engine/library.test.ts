import { ContextLibrary } from '../../../src/core/engine/library';
import type { LibraryItem } from '../../../src/core/engine/types';

const version = (id: string, v: number): LibraryItem => ({
  id,
  kind: 'note',
  title: id,
  source: id,
  version: v,
  hash: `${id}@${v}`,
  content: `${id} version ${v}`,
  tokens: 0,
  enteredTurn: v,
});

describe('ContextLibrary.latestVersions', () => {
  it('holds what latest() lists, in the same order, before and after a compaction moves an id', () => {
    const library = new ContextLibrary([version('a.md', 1), version('b.md', 1), version('a.md', 2)]);
    const ids = () => [...library.latestVersions().keys()];
    expect(ids()).toEqual(['a.md', 'b.md']);
    expect([...library.latestVersions().values()]).toEqual(library.latest());
    // Compaction keeps a.md@2 where it entered, after b.md: the order follows it.
    expect(library.compact()).toBe(1);
    expect(ids()).toEqual(['b.md', 'a.md']);
    expect([...library.latestVersions().values()]).toEqual(library.latest());
    expect(library.latestVersions().get('a.md')?.version).toBe(2);
  });
});

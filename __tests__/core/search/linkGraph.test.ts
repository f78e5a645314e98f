import { LinkGraph } from '../../../src/core/search/linkGraph';
import { linkBonuses } from '../../../src/core/search/graphExpansion';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { formatSavedIndex, readSavedIndex, type SavedIndexFile } from '../../../src/core/search/savedIndex';
import { MemoryVault } from './memoryVault';

const noPause = (): Promise<void> => Promise.resolve();

describe('LinkGraph', () => {
  test('outgoing and incoming links resolve as Obsidian does (names, paths, markdown links, embeds), code excluded', () => {
    const graph = new LinkGraph();
    graph.set('Garden/Tomatoes.md', 'See [[Compost]] and ![[Soil#pH]] and [the beds](../Plans/Beds.md).\n```\n[[Not a link]]\n```');
    graph.set('Garden/Compost.md', 'Back to [[Tomatoes|the tomatoes]]. [[Compost]] again.');
    graph.set('Garden/Soil.md', 'Nothing here.');
    graph.set('Plans/Beds.md', '[[Garden/Tomatoes]]');
    graph.set('Not a link.md', '');
    expect(graph.outgoing('Garden/Tomatoes.md')).toEqual(['Garden/Compost.md', 'Garden/Soil.md', 'Plans/Beds.md']);
    expect(graph.incoming('Garden/Tomatoes.md')).toEqual(['Garden/Compost.md', 'Plans/Beds.md']);
    expect(graph.incoming('Not a link.md')).toEqual([]);
    expect(graph.neighbours('Garden/Compost.md')).toEqual(['Garden/Tomatoes.md']); // its link to itself is not a neighbour
  });

  test('an edit or a delete changes the links at once; a note created later resolves a link written before it', () => {
    const graph = new LinkGraph();
    graph.set('a.md', '[[b]] [[c]]');
    graph.set('b.md', '');
    expect(graph.outgoing('a.md')).toEqual(['b.md']);
    graph.set('c.md', '');
    expect(graph.outgoing('a.md')).toEqual(['b.md', 'c.md']);
    expect(graph.incoming('c.md')).toEqual(['a.md']);
    graph.set('a.md', '[[c]]');
    expect(graph.incoming('b.md')).toEqual([]);
    graph.delete('c.md');
    expect(graph.outgoing('a.md')).toEqual([]);
  });

  test('toJSON and fromJSON give the same graph; a malformed value is refused', () => {
    const graph = new LinkGraph();
    graph.set('x/a.md', '[[b]] [c](c.md)');
    graph.set('x/b.md', '');
    graph.set('x/c.md', '');
    const copy = LinkGraph.fromJSON(JSON.parse(JSON.stringify(graph.toJSON())));
    expect(copy?.toJSON()).toEqual(graph.toJSON());
    expect(copy?.outgoing('x/a.md')).toEqual(['x/b.md', 'x/c.md']);
    expect(LinkGraph.fromJSON({})).toBeNull();
    expect(LinkGraph.fromJSON([['a.md', [[3]]]])).toBeNull();
  });
});

describe('linkBonuses', () => {
  const graph = { neighbours: (p: string) => ({ a: ['b', 'hub', 'far'], c: ['hub'], b: ['a'] })[p] ?? [] };

  test('notes linked with the best notes get a share of their score, the best seed only, and only when they matched', () => {
    const best = new Map([['a', 10], ['c', 8], ['b', 2], ['hub', 1], ['z', 5]]);
    const bonuses = linkBonuses(best, graph, 2, 0.2);
    expect([...bonuses].sort()).toEqual([['b', 2], ['hub', 2]]); // 'far' did not match; 'hub' takes a's share, not a's + c's
    expect(linkBonuses(best, graph, 2, 0).size).toBe(0);
  });
});

describe('VaultIndex and links', () => {
  test('a saved index keeps the links; a stored index of format 2 is rebuilt', async () => {
    const vault = new MemoryVault({ 'a.md': 'apples, see [[b]]', 'b.md': 'bananas', 'c.md': 'cherries [[a]]' });
    const index = await VaultIndex.create(vault, {}, { pause: noPause });
    expect(index.links.neighbours('a.md')).toEqual(['b.md', 'c.md']);
    const saved = await index.serialize();
    const restored = new VaultIndex(vault);
    expect(restored.restoreReport(saved)).toBe('restored');
    expect(restored.links.neighbours('a.md')).toEqual(['b.md', 'c.md']);
    const stored = readSavedIndex(saved) as SavedIndexFile;
    const old = formatSavedIndex({ ...stored, version: 2 });
    expect(new VaultIndex(vault).restoreReport(old)).toBe('other-version');
    const noLinks = formatSavedIndex({ ...stored, links: [] });
    expect(new VaultIndex(vault).restoreReport(noLinks)).toBe('damaged');
    index.remove('b.md');
    expect(index.links.neighbours('a.md')).toEqual(['c.md']);
  });
});

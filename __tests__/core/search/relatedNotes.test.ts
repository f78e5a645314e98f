import { relatedNotes, relatedQuery, LINK_WEIGHT } from '../../../src/core/search/relatedNotes';
import { VaultIndex } from '../../../src/core/search/vaultIndex';
import { MemoryVault } from './memoryVault';

const noPause = (): Promise<void> => Promise.resolve();

const NOTES: Record<string, string> = {
  'Garden/Tomatoes.md': '---\naliases: [love apples]\ntags: [vegetable]\n---\n# Tomatoes\n\n## Staking\nStake the tomato vines early; tomato vines sprawl. See [[Compost]].\n',
  'Garden/Compost.md': '# Compost\nTurn the heap weekly. Tomato vines and leaves go in the heap.\n',
  'Garden/Peppers.md': '# Peppers\nPeppers, like tomato vines, want staking and sun.\n',
  'Kitchen/Bread.md': '# Bread\nKnead the dough, let it rise. Tomatoes on toast.\n',
  'Kitchen/Unrelated.md': '# Knitting\nCast on forty stitches.\n',
  'Index.md': 'Everything about the garden: [[Tomatoes]].\n',
};

async function index(): Promise<VaultIndex> {
  return VaultIndex.create(new MemoryVault(NOTES), {}, { pause: noPause });
}

describe('relatedQuery', () => {
  test('the name, aliases, headings and tags count more than body words; stop words and numbers are left out', () => {
    const query = relatedQuery('Garden/Tomatoes.md', NOTES['Garden/Tomatoes.md']).split(' ');
    expect(query[0]).toBe('tomatoes');
    expect(query.indexOf('love')).toBeLessThan(query.indexOf('heap') < 0 ? query.length : query.indexOf('heap'));
    expect(query).toContain('vegetable');
    expect(query).toContain('vines');
    expect(query).not.toContain('the');
  });

  test('words in more than a tenth of the chunks are left out when their rarity is known', () => {
    const rarity = { frequency: (term: string) => (term === 'vine' ? 50 : 1), chunks: 300 };
    expect(relatedQuery('Garden/Tomatoes.md', NOTES['Garden/Tomatoes.md'], 10, rarity).split(' ')).not.toContain('vines');
  });
});

describe('relatedNotes', () => {
  test('notes sharing telling words come first, linked notes are in whatever their words, the note itself never', async () => {
    const related = await relatedNotes(await index(), 'Garden/Tomatoes.md', NOTES['Garden/Tomatoes.md']);
    const paths = related.map((r) => r.path);
    expect(paths).not.toContain('Garden/Tomatoes.md');
    expect(paths).not.toContain('Kitchen/Unrelated.md');
    expect(paths).toContain('Garden/Peppers.md');
    expect(related.find((r) => r.path === 'Garden/Compost.md')?.link).toBe('to');
    expect(related.find((r) => r.path === 'Index.md')?.link).toBe('from');
    expect(related.find((r) => r.path === 'Index.md')?.score).toBeGreaterThanOrEqual(LINK_WEIGHT);
    // Deterministic: the same index and note give the same list.
    expect(await relatedNotes(await index(), 'Garden/Tomatoes.md', NOTES['Garden/Tomatoes.md'])).toEqual(related);
  });

  test('k limits the list; a note with nothing in common and no link gets an empty one', async () => {
    const idx = await index();
    expect(await relatedNotes(idx, 'Garden/Tomatoes.md', NOTES['Garden/Tomatoes.md'], { k: 1 })).toHaveLength(1);
    expect(await relatedNotes(idx, 'Kitchen/Unrelated.md', NOTES['Kitchen/Unrelated.md'])).toEqual([]);
  });

  test('with a semantic ranker its notes join the list', async () => {
    const idx = await index();
    const ids = idx.embeddingTargets().map((t) => t.id);
    const knitting = ids.find((id) => idx.pathOf(id) === 'Kitchen/Unrelated.md') as number;
    idx.setSemantic({ rank: () => Promise.resolve([knitting]) });
    const related = await relatedNotes(idx, 'Garden/Tomatoes.md', NOTES['Garden/Tomatoes.md']);
    expect(related.map((r) => r.path)).toContain('Kitchen/Unrelated.md');
  });
});

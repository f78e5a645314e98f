import { ChipResolver } from '../../../src/core/context/resolver';
import { extractTags, tagMatches } from '../../../src/core/context/tags';
import { FsVault } from '../../../src/node/fsVault';
import { VAULT } from '../../helpers/paths';

describe('ChipResolver', () => {
  const resolver = new ChipResolver(new FsVault(VAULT));

  it('gives notes stable ids from their path and sha256 content hashes', async () => {
    const { items } = await resolver.resolve([{ kind: 'note', path: 'Notes/Ideas.md' }]);
    expect(items[0]).toMatchObject({ id: 'Notes/Ideas.md', kind: 'note', title: 'Ideas', source: 'Notes/Ideas.md' });
    expect(items[0].hash).toMatch(/^[0-9a-f]{64}$/);
    const again = await resolver.resolve([{ kind: 'note', path: 'Notes/Ideas.md' }]);
    expect(again.items[0].hash).toBe(items[0].hash);
  });

  it('expands a folder recursively and sorted, into a listing and its notes', async () => {
    const { items } = await resolver.resolve([{ kind: 'folder', path: 'Notes' }]);
    expect(items.map((i) => i.id)).toEqual(['folder:Notes', 'Notes/Deep/Tricky.md', 'Notes/Ideas.md']);
    expect(items[0].content).toContain('- Notes/Deep/Tricky.md');
    expect(items[1].via).toBe('folder:Notes');
  });

  it('finds tags inline and in frontmatter, nested tags matching their parent', async () => {
    const { items } = await resolver.resolve([{ kind: 'tag', tag: 'piano' }]);
    expect(items.map((i) => i.id)).toEqual(['tag:#piano', 'Notes/Ideas.md', 'Piano Lessons/Lesson 4.md']);
  });

  it('slices selections by 1-based inclusive line range; several selections of a note are distinct', async () => {
    const { items } = await resolver.resolve([
      { kind: 'selection', path: 'Piano Lessons/Lesson 4.md', fromLine: 4, toLine: 4 },
      { kind: 'selection', path: 'Piano Lessons/Lesson 4.md', fromLine: 6, toLine: 7 },
    ]);
    expect(items.map((i) => [i.id, i.content])).toEqual([
      ['Piano Lessons/Lesson 4.md#L4-L4', '# Lesson 4'],
      ['Piano Lessons/Lesson 4.md#L6-L7', '1. Scales: C major and A minor, hands together.\n2. Arpeggios in C.'],
    ]);
  });

  it('deduplicates by id within a turn, keeping the first appearance', async () => {
    const { items } = await resolver.resolve([{ kind: 'note', path: 'Notes/Ideas.md' }, { kind: 'folder', path: 'Notes' }]);
    expect(items.map((i) => i.id)).toEqual(['Notes/Ideas.md', 'folder:Notes', 'Notes/Deep/Tricky.md']);
  });

  it('reports what it cannot attach instead of dropping it silently', async () => {
    // Edge cases/: ok.md, bin.md (NUL bytes), big.md (2000 characters), empty/ (no markdown).
    const small = new ChipResolver(new FsVault(VAULT), { maxItemChars: 1000 });
    const { items, problems } = await small.resolve([
      { kind: 'note', path: 'Edge cases/ok.md' },
      { kind: 'note', path: 'Edge cases/gone.md' },
      { kind: 'note', path: 'Edge cases/bin.md' },
      { kind: 'note', path: 'Edge cases/big.md' },
      { kind: 'selection', path: 'Edge cases/ok.md', fromLine: 5, toLine: 9 },
      { kind: 'selection', path: 'Edge cases/ok.md', fromLine: 3, toLine: 1 },
      { kind: 'folder', path: 'Edge cases/empty' },
      { kind: 'tag', tag: '#nothing' },
      { kind: 'url', url: 'https://example.org' },
      { kind: 'note', path: '../outside.md' },
    ]);
    expect(items.map((i) => i.id)).toEqual(['Edge cases/ok.md']);
    expect(problems.map((p) => [p.chipId, p.reason])).toEqual([
      ['Edge cases/gone.md', 'missing'],
      ['Edge cases/bin.md', 'binary'],
      ['Edge cases/big.md', 'too-large'],
      ['Edge cases/ok.md#L5-L9', 'bad-range'],
      ['Edge cases/ok.md#L3-L1', 'bad-range'],
      ['folder:Edge cases/empty', 'empty'],
      ['tag:#nothing', 'empty'],
      ['https://example.org', 'empty'],
      ['../outside.md', 'unreadable'],
    ]);
  });
});

describe('tags', () => {
  it('reads frontmatter lists and strings, inline tags, and ignores code and headings', () => {
    const text = ['---', 'tags: [Alpha, beta/gamma]', 'tag: single', '---', '# Heading', 'text #inline and #nested/tag', '`#code` and', '```', '#fenced', '```', 'issue #123'].join('\n');
    expect(extractTags(text)).toEqual(['#alpha', '#beta/gamma', '#inline', '#nested/tag']);
    expect(extractTags('---\ntags: one, two\n---\n')).toEqual(['#one', '#two']);
    expect(extractTags('---\ntags: [unclosed\n---\n#ok')).toEqual(['#ok']);
  });

  it('matches nested tags to their parents only', () => {
    expect(tagMatches('#piano/theory', '#piano')).toBe(true);
    expect(tagMatches('#pianos', '#piano')).toBe(false);
    expect(tagMatches('#Piano', 'piano')).toBe(true);
  });
});

import { UnreadableNoteError } from '../../../src/core/context/vaultReader';
import type { VaultReader } from '../../../src/core/ports/vault';
import { BaselineBm25, bm25Tokens } from '../../../src/core/search/baselineBm25';

/** Notes in memory; a path mapped to an Error is a note the reader refuses. */
class MemoryVault implements VaultReader {
  reads = 0;
  constructor(private readonly notes: Record<string, string | Error>) {}
  read(p: string): Promise<string | null> {
    this.reads++;
    const note = this.notes[p];
    if (note instanceof Error) return Promise.reject(note);
    return Promise.resolve(note ?? null);
  }
  listMarkdown(): Promise<string[]> {
    return Promise.resolve(Object.keys(this.notes).sort());
  }
}

const filler = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 37}`).join(' ');

describe('BaselineBm25', () => {
  it('tokenises lower-cased letters and digits, without stop words, stemming or folding', () => {
    expect(bm25Tokens('The Café’s 2 Gardens, watering-pot; and IT')).toEqual(['café', 's', '2', 'gardens', 'watering', 'pot']);
  });

  it('ranks the note with the rarer term first and gives one whole-note hit per note', async () => {
    const vault = new MemoryVault({
      'garden.md': '# Garden\n\nWatering tomatoes in July.\nCompost twice a year.',
      'kitchen.md': '# Kitchen\n\nTomatoes and basil for the sauce.',
      'notes/tools.md': 'Spade, rake and a watering can.',
    });
    const search = await BaselineBm25.build(vault);
    expect(search.size).toBe(3);
    const hits = await search.search('when should I compost the tomatoes');
    expect(hits.map((h) => h.path)).toEqual(['garden.md', 'kitchen.md']);
    expect(hits[0]).toMatchObject({ headings: [], heading: '', startLine: 1, endLine: 4, text: '# Garden\n\nWatering tomatoes in July.\nCompost twice a year.' });
    expect(hits[0].snippet).toBe('Watering tomatoes in July.');
    expect(hits[0].score).toBeGreaterThan(hits[1].score);
  });

  it('matches the file name as well as the text', async () => {
    const search = await BaselineBm25.build(new MemoryVault({ 'Recipes/Lemon tart.md': 'Bake for 30 minutes.', 'other.md': 'Something else.' }));
    expect((await search.search('lemon')).map((h) => h.path)).toEqual(['Recipes/Lemon tart.md']);
  });

  it('lets a long note that mentions a term once rank below a short note about it (length normalisation)', async () => {
    const search = await BaselineBm25.build(
      new MemoryVault({ 'a-long.md': `${filler(2000)} pruning`, 'b-short.md': 'Pruning roses in March.', 'c.md': filler(50) }),
    );
    expect((await search.search('pruning')).map((h) => h.path)).toEqual(['b-short.md', 'a-long.md']);
  });

  it('breaks ties by path and honours k', async () => {
    const search = await BaselineBm25.build(new MemoryVault({ 'b.md': 'same words', 'a.md': 'same words', 'c.md': 'same words', 'd.md': 'other' }));
    expect((await search.search('same')).map((h) => h.path)).toEqual(['a.md', 'b.md', 'c.md']);
    expect((await search.search('same', { k: 2 })).map((h) => h.path)).toEqual(['a.md', 'b.md']);
    expect(await search.search('the and of')).toEqual([]);
  });

  it('leaves out notes the reader refuses, and rethrows other read errors', async () => {
    const refused = new UnreadableNoteError('big.md', 'too-large', 'over the limit');
    const search = await BaselineBm25.build(new MemoryVault({ 'big.md': refused, 'ok.md': 'fine text' }));
    expect(search.size).toBe(1);
    await expect(BaselineBm25.build(new MemoryVault({ 'bad.md': new Error('disk on fire') }))).rejects.toThrow('disk on fire');
  });

  it('stops when the signal is aborted', async () => {
    const search = await BaselineBm25.build(new MemoryVault({ 'a.md': 'text' }));
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await expect(search.search('text', { signal: controller.signal })).rejects.toThrow('cancelled');
  });
});

import { generateVault, MemoryVault } from '../../bench/search/generateVault';

describe('the generated vault of the search bench', () => {
  const vault = generateVault(400, 7);

  it('is the same for the same seed and different for another', () => {
    const again = generateVault(400, 7);
    expect([...again.notes]).toEqual([...vault.notes]);
    expect(again.queries).toEqual(vault.queries);
    expect([...generateVault(400, 8).notes.keys()]).not.toEqual([...vault.notes.keys()]);
  });

  it('has notes of realistic sizes, with headings, frontmatter, folders and tasks', () => {
    const texts = [...vault.notes.values()];
    const sizes = texts.map((t) => t.length).sort((a, b) => a - b);
    expect(vault.notes.size).toBe(400);
    expect(sizes[0]).toBeGreaterThanOrEqual(80);
    expect(sizes[sizes.length - 1]).toBeLessThanOrEqual(80_000 + 2_000);
    const medianSize = sizes[200];
    expect(medianSize).toBeGreaterThan(700);
    expect(medianSize).toBeLessThan(2500);
    const share = (test: (t: string) => boolean) => texts.filter(test).length / texts.length;
    expect(share((t) => /^## /m.test(t))).toBeGreaterThan(0.3);
    expect(share((t) => t.startsWith('---\ntags: ['))).toBeGreaterThan(0.25);
    expect(share((t) => /^- \[[ x]\] /m.test(t))).toBeGreaterThan(0.2);
    expect(share((t) => t.includes('[['))).toBeGreaterThan(0.2);
    expect(new Set([...vault.notes.keys()].map((p) => p.split('/')[0])).size).toBeGreaterThan(10);
    expect(vault.bytes).toBe(texts.reduce((sum, t) => sum + Buffer.byteLength(t), 0));
  });

  it('reads through the VaultReader port, paths sorted', async () => {
    const reader = new MemoryVault(vault.notes);
    const paths = await reader.listMarkdown();
    expect(paths).toEqual([...vault.notes.keys()].sort());
    expect(await reader.read(paths[0])).toBe(vault.notes.get(paths[0]));
    expect(await reader.read('missing.md')).toBeNull();
  });
});

import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ChipResolver } from '../../src/core/context/resolver';
import { FsVault } from '../../src/node/fsVault';

// A vault on disk with real symbolic links: out of the vault (a file, /etc/passwd, a folder), inside
// it, and in cycles.
describe('FsVault and symbolic links', () => {
  let base: string;
  let root: string;

  beforeAll(() => {
    base = mkdtempSync(path.join(os.tmpdir(), 'strata-symlinks-'));
    root = path.join(base, 'vault');
    const outside = path.join(base, 'outside');
    mkdirSync(path.join(root, 'Notes', 'Deep'), { recursive: true });
    mkdirSync(outside, { recursive: true });
    writeFileSync(path.join(root, 'Notes', 'a.md'), 'Inside the vault.\n');
    writeFileSync(path.join(root, 'Notes', 'Deep', 'b.md'), 'Deeper inside.\n');
    writeFileSync(path.join(outside, 'secret.md'), 'SECRET outside the vault.\n');
    symlinkSync(path.join(outside, 'secret.md'), path.join(root, 'Notes', 'secret.md'));
    symlinkSync('/etc/passwd', path.join(root, 'passwd.md'));
    symlinkSync('../../outside/secret.md', path.join(root, 'Notes', 'relative.md'));
    symlinkSync(outside, path.join(root, 'Outside'));
    symlinkSync('a.md', path.join(root, 'Notes', 'alias.md'));
    // Cycles: a folder linking to the vault, and one to its own parent.
    symlinkSync(root, path.join(root, 'Notes', 'loop'));
    symlinkSync('..', path.join(root, 'Notes', 'Deep', 'up'));
  });
  afterAll(() => rmSync(base, { recursive: true, force: true }));

  test('a link to a file outside the vault is refused, and the resolver says why', async () => {
    const vault = new FsVault(root);
    const resolver = new ChipResolver(vault);
    const { items, problems } = await resolver.resolve([
      { kind: 'note', path: 'Notes/secret.md' },
      { kind: 'note', path: 'passwd.md' },
      { kind: 'note', path: 'Notes/relative.md' },
      { kind: 'note', path: 'Outside/secret.md' },
    ]);
    expect(items).toEqual([]);
    expect(problems.map((p) => [p.chipId, p.reason])).toEqual([
      ['Notes/secret.md', 'outside-vault'],
      ['passwd.md', 'outside-vault'],
      ['Notes/relative.md', 'outside-vault'],
      ['Outside/secret.md', 'outside-vault'],
    ]);
    for (const p of problems) {
      expect(p.detail).toMatch(/outside the vault/);
      // The target is not named: the detail is shown to the model as well as to the user.
      expect(p.detail).not.toContain(base);
    }
    await expect(vault.read('passwd.md')).rejects.toThrow(/outside the vault/);
  });

  test('a link inside the vault is read; a path with .. is still refused (as unreadable: the path itself is wrong)', async () => {
    const vault = new FsVault(root);
    expect(await vault.read('Notes/alias.md')).toBe('Inside the vault.\n');
    expect(await vault.read('Notes/loop/Notes/a.md')).toBe('Inside the vault.\n');
    const { problems } = await new ChipResolver(vault).resolve([{ kind: 'note', path: '../outside/secret.md' }]);
    expect(problems.map((p) => p.reason)).toEqual(['unreadable']);
    expect(await vault.read('Notes/missing.md')).toBeNull();
  });

  test('listing does not walk out through a linked folder and ends despite link cycles', async () => {
    const listed = await new FsVault(root).listMarkdown();
    expect(listed).toEqual(['Notes/Deep/b.md', 'Notes/a.md']);
    const { items } = await new ChipResolver(new FsVault(root)).resolve([{ kind: 'folder', path: 'Notes' }]);
    expect(items.map((i) => i.id)).toEqual(['folder:Notes', 'Notes/Deep/b.md', 'Notes/a.md']);
  });
});

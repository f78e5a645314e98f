import path from 'node:path';
import { makeItem, basename, type ContextItem } from '../../src/core/context/items';
import { FsVault } from '../../src/node/fsVault';

/**
 * The largest `count` notes of the shared corpus (all three vaults), ordered by vault and path:
 * 200 notes come to about 0.9 MB. Ids are prefixed with the vault name so paths never collide.
 */
export async function corpusNotes(corpusDir: string, count: number): Promise<ContextItem[]> {
  const all: ContextItem[] = [];
  for (const vaultName of ['kepano', 'tasks-demo', 'tasks-docs']) {
    const vault = new FsVault(path.join(corpusDir, vaultName));
    for (const rel of await vault.listMarkdown()) {
      const content = await vault.read(rel);
      if (!content) continue;
      const id = `${vaultName}/${rel}`;
      all.push(makeItem({ id, kind: 'note', title: basename(rel), source: id, content }));
    }
  }
  const byCode = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  const largest = [...all].sort((a, b) => b.content.length - a.content.length || byCode(a.id, b.id)).slice(0, count);
  if (largest.length < count) throw new Error(`the corpus at ${corpusDir} has only ${largest.length} readable notes; ${count} needed`);
  return largest.sort((a, b) => byCode(a.id, b.id));
}

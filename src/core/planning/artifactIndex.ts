import type { VaultReader } from '../ports/vault';
import { VaultIndex } from '../search/vaultIndex';
import type { SearchHit } from '../search/types';

/**
 * Artifacts searched with the vault search's own ranking (chunks by heading, BM25 per field): an
 * in-memory vault of synthetic paths, so ids that are URLs or selections index like notes.
 */
export class ArtifactIndex {
  private constructor(
    private readonly index: VaultIndex,
    private readonly paths: ReadonlyMap<string, string>,
  ) {}

  static async of(texts: readonly { readonly id: string; readonly content: string }[]): Promise<ArtifactIndex> {
    const byPath = new Map<string, string>();
    const paths = new Map<string, string>();
    texts.forEach((t, i) => {
      const path = `artifact-${String(i + 1).padStart(4, '0')}.md`;
      byPath.set(path, t.content);
      paths.set(path, t.id);
    });
    const vault: VaultReader = {
      read: (path) => Promise.resolve(byPath.get(path) ?? null),
      listMarkdown: () => Promise.resolve([...byPath.keys()]),
    };
    // Yield every few artifacts: a turn may rank a long chat's condensed library (150 notes, ~190 ms
    // of work), which must not hold Obsidian's main thread in one task.
    return new ArtifactIndex(await VaultIndex.create(vault, {}, { yieldEvery: 10 }), paths);
  }

  /** Chunks ranked for `query`, best first, with the artifact id each belongs to. */
  async search(query: string, k: number): Promise<Array<SearchHit & { readonly id: string }>> {
    const hits = await this.index.search(query, { k });
    return hits.map((h) => ({ ...h, id: this.paths.get(h.path) ?? h.path }));
  }

  /** Every chunk of the artifacts, as the index cut them (for an extract when nothing matches). */
  get chunkCount(): number {
    return this.index.chunkCount;
  }
}

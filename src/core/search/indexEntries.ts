import type { NoteStat } from '../ports/vault';

/** What the vault index (vaultIndex.ts) keeps per chunk and per note, and saves (savedIndex.ts). */

export interface ChunkMeta {
  readonly path: string;
  readonly headings: readonly string[];
  readonly startLine: number;
  readonly endLine: number;
  /** Hash of the chunk's embedding text (title, headings, lines): a vector computed from another hash is stale. */
  readonly hash: string;
}

export interface NoteEntry {
  hash: string;
  stat: NoteStat | null;
  readonly ids: readonly number[];
}

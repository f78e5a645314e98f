/** The engine's only view of a vault. Obsidian and the filesystem each implement it. */
export interface VaultReader {
  /** Note text, or null when no file exists at that vault-relative path. */
  read(path: string): Promise<string | null>;
  /** Every markdown file's vault-relative path, sorted by code point. */
  listMarkdown(): Promise<string[]>;
  /** Optional fast path: tags of a note as the host already indexed them (Obsidian's metadata cache). */
  tagsOf?(path: string): Promise<string[] | null>;
  /** Optional: modification time (ms) and size in bytes, or null when no file exists; lets the search index skip unchanged notes. */
  stat?(path: string): Promise<NoteStat | null>;
}

export interface NoteStat {
  readonly mtime: number;
  readonly size: number;
}

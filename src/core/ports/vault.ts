import type { DataviewPort } from './dataview';

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
  /**
   * Optional: the same stat, answered at once where the host keeps it in memory (Obsidian's
   * TFile.stat): the freshness check asks it for every library note each turn, and 700 promises
   * cost more than the lookups. `undefined`: not known in memory (ask `stat`).
   */
  statNow?(path: string): NoteStat | null | undefined;
  /**
   * Optional: a file's bytes (an image embedded in a note), or null when no file exists at that
   * vault-relative path. Throws UnreadableNoteError for a file that must not be read (outside the vault).
   */
  readBinary?(path: string): Promise<Uint8Array | null>;
  /**
   * Optional: the vault path a link in note `from` points to (`![[x.png]]` → `attachments/x.png`), as
   * the host resolves links, or null when it points nowhere. Without it, a link is read as a vault path.
   */
  resolveLink?(link: string, from: string): Promise<string | null>;
  /**
   * Optional: a PDF's text page by page, read through the host's pdf.js (src/core/context/pdf), or
   * null when no file is there. Throws PdfReadError for a PDF that cannot be read (a password, broken).
   * Absent: PDFs cannot be attached on this host.
   */
  readPdf?(path: string): Promise<PdfText | null>;
  /** Optional: the Dataview plugin's queries over this vault, when it is enabled (issue 31). */
  readonly dataview?: DataviewPort;
}

/** A PDF's text: one entry per page, '' for a page without text (an image, a scan). */
export interface PdfText {
  readonly pages: readonly string[];
}

export interface NoteStat {
  readonly mtime: number;
  readonly size: number;
}

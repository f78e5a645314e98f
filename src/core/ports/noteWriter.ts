/**
 * How the agent's write tools and the undo of an edit change the vault (issue 28). Obsidian implements
 * it with Vault.process, Vault.create, FileManager.renameFile (links updated) and
 * FileManager.trashFile (src/obsidian/noteWriter.ts); Node with plain files (src/node/fsNoteWriter.ts).
 * Paths are vault-relative and already checked by core (src/core/edits/writePaths.ts); an
 * implementation still refuses a path that leaves the vault.
 */
export interface NoteWriter {
  /** The note's text, or null when no file is there. */
  read(path: string): Promise<string | null>;
  /** Whether anything (a file or a folder) is at that path. */
  exists(path: string): Promise<boolean>;
  /**
   * Change a note's text atomically, like Vault.process: `change` gets the text as it is now and
   * returns the text to write (the same text: nothing is written). Resolves to the text written.
   * Throws when the note is not there.
   */
  process(path: string, change: (current: string) => string): Promise<string>;
  /** A new note (its folders made as needed). Throws when anything is already at that path: a create never overwrites. */
  create(path: string, text: string): Promise<void>;
  /** Move or rename a note; the host updates links to it where it can. Throws when the target is taken. */
  rename(path: string, newPath: string): Promise<void>;
  /** Remove a note the way the user's settings say (Obsidian's trash): the undo of a create. */
  trash(path: string): Promise<void>;
  /** Folders the user excluded (Obsidian's "Excluded files"), vault-relative: writes never go there. */
  excludedFolders?(): readonly string[];
}

/**
 * Where chat notes live. Obsidian implements it over the Vault API (src/obsidian/chatStore.ts),
 * Node over a folder (src/node/fsChatStore.ts); MemoryChatStore (src/core/conversation/store.ts) serves tests and the inspector.
 * Paths are vault-relative with '/'.
 */
export interface ChatNoteStore {
  /** Markdown files in the folder and its subfolders, sorted. */
  list(folder: string): Promise<string[]>;
  read(path: string): Promise<string | null>;
  /** Whether a note is there, without reading it (a long chat's note is megabytes); absent: read() tells. */
  exists?(path: string): Promise<boolean>;
  /** Create a new note (and its folders). Fails if one exists at that path. */
  create(path: string, text: string): Promise<void>;
  /**
   * Replace a note's text atomically: `update` gets the text as it is now (which may hold a
   * concurrent edit) and returns the new text. Vault.process in Obsidian.
   */
  process(path: string, update: (current: string) => string): Promise<string>;
  /**
   * Rename a note (a chat's title changed). Obsidian: FileManager.renameFile, which updates links to
   * it. Absent: chat notes keep the name they were created with.
   */
  rename?(from: string, to: string): Promise<void>;
  /** Move to the trash (Obsidian: FileManager.trashFile, which honours the user's trash setting). */
  trash(path: string): Promise<void>;
}

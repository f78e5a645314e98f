import { trimTrailingSlashes } from '../trim';

/**
 * Where chat notes live. Obsidian implements it over the Vault API (src/obsidian/chatStore.ts),
 * Node over a folder (src/node/fsChatStore.ts); MemoryChatStore serves tests and the inspector.
 * Paths are vault-relative with '/'.
 */
export interface ChatStore {
  /** Markdown files in the folder and its subfolders, sorted. */
  list(folder: string): Promise<string[]>;
  read(path: string): Promise<string | null>;
  /** Create a new note (and its folders). Fails if one exists at that path. */
  create(path: string, text: string): Promise<void>;
  /**
   * Replace a note's text atomically: `update` gets the text as it is now (which may hold a
   * concurrent edit) and returns the new text. Vault.process in Obsidian.
   */
  process(path: string, update: (current: string) => string): Promise<string>;
  /** Move to the trash (Obsidian: FileManager.trashFile, which honours the user's trash setting). */
  trash(path: string): Promise<void>;
}

export class MemoryChatStore implements ChatStore {
  readonly files = new Map<string, string>();

  list(folder: string): Promise<string[]> {
    const prefix = folder ? `${trimTrailingSlashes(folder)}/` : '';
    return Promise.resolve([...this.files.keys()].filter((p) => p.startsWith(prefix) && p.endsWith('.md')).sort());
  }

  read(path: string): Promise<string | null> {
    return Promise.resolve(this.files.get(path) ?? null);
  }

  create(path: string, text: string): Promise<void> {
    if (this.files.has(path)) return Promise.reject(new Error(`${path} already exists`));
    this.files.set(path, text);
    return Promise.resolve();
  }

  process(path: string, update: (current: string) => string): Promise<string> {
    const current = this.files.get(path);
    if (current === undefined) return Promise.reject(new Error(`${path} does not exist`));
    const next = update(current);
    this.files.set(path, next);
    return Promise.resolve(next);
  }

  trash(path: string): Promise<void> {
    this.files.delete(path);
    return Promise.resolve();
  }
}

import { normalizePath, type App, type TFile } from 'obsidian';
import type { ChatNoteStore } from '../core/ports/chatNoteStore';

/**
 * Chat notes in the vault, through the Vault API only: `vault.create` for a new chat,
 * `vault.process` for every update (so the merge sees, and keeps, an edit made in the editor
 * meanwhile), `fileManager.renameFile` when a chat's title changes, `fileManager.trashFile` for deletion (honours the user's trash setting). The
 * chat logic itself (codec, merge, list) lives in src/core/conversation.
 */
export class ObsidianChatStore implements ChatNoteStore {
  constructor(private readonly app: App) {}

  list(folder: string): Promise<string[]> {
    const root = normalizePath(folder);
    const prefix = root === '/' ? '' : `${root}/`;
    const paths = this.app.vault
      .getMarkdownFiles()
      .map((f) => f.path)
      .filter((p) => p.startsWith(prefix))
      .sort();
    return Promise.resolve(paths);
  }

  async read(path: string): Promise<string | null> {
    const file = this.file(path);
    return file ? this.app.vault.read(file) : null;
  }

  exists(path: string): Promise<boolean> {
    return Promise.resolve(this.file(path) !== null);
  }

  async create(path: string, text: string): Promise<void> {
    const target = normalizePath(path);
    const folder = target.includes('/') ? target.slice(0, target.lastIndexOf('/')) : '';
    if (folder) await this.ensureFolder(folder);
    await this.app.vault.create(target, text);
  }

  async process(path: string, update: (current: string) => string): Promise<string> {
    const file = this.file(path);
    if (!file) throw new Error(`chat note not found: ${path}`);
    return this.app.vault.process(file, update);
  }

  /** FileManager.renameFile: links to the chat note follow it (when the user's setting says so). */
  async rename(from: string, to: string): Promise<void> {
    const file = this.file(from);
    if (!file) throw new Error(`chat note not found: ${from}`);
    const target = normalizePath(to);
    if (this.file(target)) throw new Error(`${target} already exists`);
    await this.app.fileManager.renameFile(file, target);
  }

  async trash(path: string): Promise<void> {
    const file = this.file(path);
    if (file) await this.app.fileManager.trashFile(file);
  }

  private file(path: string): TFile | null {
    return this.app.vault.getFileByPath(normalizePath(path));
  }

  private async ensureFolder(folder: string): Promise<void> {
    let current = '';
    for (const part of folder.split('/')) {
      current = current ? `${current}/${part}` : part;
      if (!this.app.vault.getAbstractFileByPath(current)) await this.app.vault.createFolder(current);
    }
  }
}

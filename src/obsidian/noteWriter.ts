import { normalizePath, TFile, TFolder, type App } from 'obsidian';
import type { NoteWriter } from '../core/ports/noteWriter';

/**
 * The write port in Obsidian (issue 28): Vault.process changes a note atomically against its text at
 * that moment, Vault.create never overwrites, FileManager.renameFile moves a note and updates the
 * links to it, FileManager.trashFile removes one the way the user's settings say. Paths go through
 * normalizePath; the vault API cannot reach outside the vault.
 */
export class ObsidianNoteWriter implements NoteWriter {
  constructor(
    private readonly app: App,
    /** The folders the user excluded from Strata's search: the agent does not write there either. */
    private readonly excluded: () => readonly string[] = () => [],
  ) {}

  async read(path: string): Promise<string | null> {
    const file = this.app.vault.getAbstractFileByPath(normalizePath(path));
    return file instanceof TFile ? this.app.vault.read(file) : null;
  }

  exists(path: string): Promise<boolean> {
    return Promise.resolve(this.app.vault.getAbstractFileByPath(normalizePath(path)) !== null);
  }

  async process(path: string, change: (current: string) => string): Promise<string> {
    return this.app.vault.process(this.file(path), change);
  }

  async create(path: string, text: string): Promise<void> {
    const target = normalizePath(path);
    if (this.app.vault.getAbstractFileByPath(target)) throw new Error(`${target} already exists`);
    await this.ensureFolder(parentOf(target));
    await this.app.vault.create(target, text);
  }

  async rename(path: string, newPath: string): Promise<void> {
    const target = normalizePath(newPath);
    if (this.app.vault.getAbstractFileByPath(target)) throw new Error(`${target} already exists`);
    await this.ensureFolder(parentOf(target));
    await this.app.fileManager.renameFile(this.file(path), target);
  }

  async trash(path: string): Promise<void> {
    await this.app.fileManager.trashFile(this.file(path));
  }

  excludedFolders(): readonly string[] {
    return this.excluded();
  }

  private file(path: string): TFile {
    const file = this.app.vault.getAbstractFileByPath(normalizePath(path));
    if (!(file instanceof TFile)) throw new Error(`${path} is not a note in the vault`);
    return file;
  }

  private async ensureFolder(folder: string): Promise<void> {
    if (folder === '' || this.app.vault.getAbstractFileByPath(folder) instanceof TFolder) return;
    await this.app.vault.createFolder(folder);
  }
}

function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
}

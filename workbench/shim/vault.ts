import { fsApi, type FileEntry, type Stat } from './api';
import { Events } from './events';
import { TAbstractFile, TFile, TFolder } from './files';
import { normalizePath } from './util';

export interface DataWriteOptions {
  ctime?: number;
  mtime?: number;
}

function parentPath(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '/' : path.slice(0, i);
}

/**
 * Obsidian's `DataAdapter` subset over the vault folder on disk (including the config folder, which
 * the Vault API hides).
 */
export class WorkbenchAdapter {
  constructor(private readonly vaultName: string) {}
  getName(): string {
    return this.vaultName;
  }
  async exists(path: string): Promise<boolean> {
    return (await fsApi.stat(normalizePath(path))) !== null;
  }
  async stat(path: string): Promise<Stat | null> {
    return fsApi.stat(normalizePath(path));
  }
  async read(path: string): Promise<string> {
    return (await fsApi.read(normalizePath(path))).content;
  }
  async readBinary(path: string): Promise<ArrayBuffer> {
    return fsApi.readBinary(normalizePath(path));
  }
  async write(path: string, data: string): Promise<void> {
    await fsApi.write(normalizePath(path), data, 'overwrite');
  }
  async append(path: string, data: string): Promise<void> {
    const exists = await this.exists(path);
    const before = exists ? await this.read(path) : '';
    await this.write(path, before + data);
  }
  async process(path: string, fn: (data: string) => string): Promise<string> {
    const next = fn(await this.read(path));
    await this.write(path, next);
    return next;
  }
  async list(path: string): Promise<{ files: string[]; folders: string[] }> {
    return fsApi.list(normalizePath(path));
  }
  async mkdir(path: string): Promise<void> {
    await fsApi.mkdir(normalizePath(path));
  }
  async remove(path: string): Promise<void> {
    await fsApi.remove(normalizePath(path));
  }
  async rmdir(path: string): Promise<void> {
    await fsApi.remove(normalizePath(path));
  }
  async trashLocal(path: string): Promise<void> {
    await fsApi.trash(normalizePath(path));
  }
  async trashSystem(path: string): Promise<boolean> {
    await fsApi.trash(normalizePath(path));
    return true;
  }
  async rename(from: string, to: string): Promise<void> {
    await fsApi.rename(normalizePath(from), normalizePath(to));
  }
  getResourcePath(path: string): string {
    return `/api/fs/raw?${new URLSearchParams({ path }).toString()}`;
  }
}

/**
 * Obsidian's `Vault` over the workbench server. The file tree and markdown text are loaded at boot
 * and kept in step with every write, so reads of the tree are synchronous as in Obsidian; writes go
 * to disk before the promise resolves and then fire the same events Obsidian fires.
 */
export class Vault extends Events {
  adapter: WorkbenchAdapter;
  configDir = '.obsidian';
  private readonly root: TFolder;
  private readonly byPath = new Map<string, TAbstractFile>();
  /** Text last read or written, by path: cachedRead and the metadata cache use it. */
  readonly contents = new Map<string, string>();

  constructor(private readonly vaultName: string, entries: FileEntry[]) {
    super();
    this.adapter = new WorkbenchAdapter(vaultName);
    this.root = new TFolder(this, '/', null);
    this.byPath.set('/', this.root);
    const sorted = [...entries].sort((a, b) => a.path.split('/').length - b.path.split('/').length || (a.path < b.path ? -1 : 1));
    for (const entry of sorted) {
      const item = this.insert(entry.path, entry.kind);
      if (item instanceof TFile) {
        item.stat = { ctime: entry.ctime, mtime: entry.mtime, size: entry.size };
        if (entry.content !== undefined) this.contents.set(entry.path, entry.content);
      }
    }
  }

  private insert(path: string, kind: 'file' | 'folder'): TAbstractFile {
    const parent = this.byPath.get(parentPath(path));
    if (!(parent instanceof TFolder)) throw new Error(`Folder does not exist: ${parentPath(path)}`);
    const item = kind === 'file' ? new TFile(this, path, parent) : new TFolder(this, path, parent);
    parent.children.push(item);
    this.byPath.set(path, item);
    return item;
  }

  getName(): string {
    return this.vaultName;
  }

  getRoot(): TFolder {
    return this.root;
  }

  getAbstractFileByPath(path: string): TAbstractFile | null {
    const p = normalizePath(path);
    return this.byPath.get(p === '' ? '/' : p) ?? null;
  }

  getFileByPath(path: string): TFile | null {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFile ? f : null;
  }

  getFolderByPath(path: string): TFolder | null {
    const f = this.getAbstractFileByPath(path);
    return f instanceof TFolder ? f : null;
  }

  getAllLoadedFiles(): TAbstractFile[] {
    return [...this.byPath.values()];
  }

  getAllFolders(includeRoot = false): TFolder[] {
    return [...this.byPath.values()].filter((f): f is TFolder => f instanceof TFolder && (includeRoot || !f.isRoot()));
  }

  getFiles(): TFile[] {
    return [...this.byPath.values()].filter((f): f is TFile => f instanceof TFile);
  }

  getMarkdownFiles(): TFile[] {
    return this.getFiles().filter((f) => f.extension === 'md');
  }

  static recurseChildren(root: TFolder, cb: (file: TAbstractFile) => unknown): void {
    cb(root);
    for (const child of root.children) {
      if (child instanceof TFolder) Vault.recurseChildren(child, cb);
      else cb(child);
    }
  }

  async read(file: TFile): Promise<string> {
    const { content, stat } = await fsApi.read(file.path);
    this.contents.set(file.path, content);
    file.stat = { ctime: stat.ctime, mtime: stat.mtime, size: stat.size };
    return content;
  }

  async cachedRead(file: TFile): Promise<string> {
    const cached = this.contents.get(file.path);
    return cached !== undefined ? cached : this.read(file);
  }

  async readBinary(file: TFile): Promise<ArrayBuffer> {
    return fsApi.readBinary(file.path);
  }

  getResourcePath(file: TFile): string {
    return this.adapter.getResourcePath(file.path);
  }

  async create(path: string, data: string, _options?: DataWriteOptions): Promise<TFile> {
    const p = normalizePath(path);
    if (this.byPath.has(p)) throw new Error('File already exists.');
    if (!(this.byPath.get(parentPath(p)) instanceof TFolder)) throw new Error(`Folder does not exist: ${parentPath(p)}`);
    const stat = await fsApi.write(p, data, 'create');
    const file = this.insert(p, 'file');
    if (!(file instanceof TFile)) throw new Error(`Not a file: ${p}`);
    file.stat = { ctime: stat.ctime, mtime: stat.mtime, size: stat.size };
    this.contents.set(p, data);
    this.trigger('create', file);
    return file;
  }

  async createFolder(path: string): Promise<TFolder> {
    const p = normalizePath(path);
    if (this.byPath.has(p)) throw new Error('Folder already exists.');
    await fsApi.mkdir(p);
    // Obsidian creates missing parents too.
    const parts = p.split('/');
    let folder: TFolder = this.root;
    for (let i = 1; i <= parts.length; i++) {
      const sub = parts.slice(0, i).join('/');
      const existing = this.byPath.get(sub);
      if (existing instanceof TFolder) {
        folder = existing;
        continue;
      }
      if (existing) throw new Error(`Not a folder: ${sub}`);
      const created = this.insert(sub, 'folder');
      if (!(created instanceof TFolder)) throw new Error(`Not a folder: ${sub}`);
      folder = created;
      this.trigger('create', folder);
    }
    return folder;
  }

  async modify(file: TFile, data: string, _options?: DataWriteOptions): Promise<void> {
    const stat = await fsApi.write(file.path, data, 'modify');
    file.stat = { ctime: stat.ctime, mtime: stat.mtime, size: stat.size };
    this.contents.set(file.path, data);
    this.trigger('modify', file);
  }

  async append(file: TFile, data: string, options?: DataWriteOptions): Promise<void> {
    await this.modify(file, (await this.read(file)) + data, options);
  }

  async process(file: TFile, fn: (data: string) => string, options?: DataWriteOptions): Promise<string> {
    const next = fn(await this.read(file));
    await this.modify(file, next, options);
    return next;
  }

  async delete(file: TAbstractFile, _force?: boolean): Promise<void> {
    await fsApi.remove(file.path);
    this.forget(file);
  }

  async trash(file: TAbstractFile, _system: boolean): Promise<void> {
    await fsApi.trash(file.path);
    this.forget(file);
  }

  private forget(file: TAbstractFile): void {
    if (file instanceof TFolder) for (const child of [...file.children]) this.forget(child);
    file.parent?.children.remove(file);
    this.byPath.delete(file.path);
    this.contents.delete(file.path);
    this.trigger('delete', file);
  }

  async rename(file: TAbstractFile, newPath: string): Promise<void> {
    const to = normalizePath(newPath);
    if (this.byPath.has(to)) throw new Error('Destination file already exists!');
    const newParent = this.byPath.get(parentPath(to));
    if (!(newParent instanceof TFolder)) throw new Error(`Folder does not exist: ${parentPath(to)}`);
    await fsApi.rename(file.path, to);
    const moves: [TAbstractFile, string][] = [];
    const collect = (f: TAbstractFile, base: string): void => {
      moves.push([f, base]);
      if (f instanceof TFolder) for (const c of f.children) collect(c, `${base}/${c.name}`);
    };
    collect(file, to);
    file.parent?.children.remove(file);
    newParent.children.push(file);
    file.parent = newParent;
    for (const [f, p] of moves) {
      const old = f.path;
      this.byPath.delete(old);
      const text = this.contents.get(old);
      this.contents.delete(old);
      f.setPath(p);
      this.byPath.set(p, f);
      if (text !== undefined) this.contents.set(p, text);
      this.trigger('rename', f, old);
    }
  }

  async copy(file: TFile, newPath: string): Promise<TFile> {
    return this.create(newPath, await this.read(file));
  }

  /**
   * Not Obsidian API: mirrors a change made on disk behind the app's back (what Obsidian's file
   * watcher does): a new file fires 'create', a changed one 'modify', a vanished one 'delete'.
   */
  async reloadFromDisk(path: string): Promise<void> {
    const p = normalizePath(path);
    const stat = await fsApi.stat(p);
    const known = this.byPath.get(p);
    if (!stat) {
      if (known) this.forget(known);
      return;
    }
    if (known instanceof TFile) {
      await this.read(known);
      this.trigger('modify', known);
      return;
    }
    if (known || stat.type !== 'file') return;
    const parts = p.split('/');
    for (let i = 1; i < parts.length; i++) {
      const sub = parts.slice(0, i).join('/');
      if (!this.byPath.has(sub)) this.trigger('create', this.insert(sub, 'folder'));
    }
    const file = this.insert(p, 'file');
    if (file instanceof TFile) {
      if (p.endsWith('.md')) await this.read(file);
      else file.stat = { ctime: stat.ctime, mtime: stat.mtime, size: stat.size };
      this.trigger('create', file);
    }
  }
}

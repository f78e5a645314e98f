import type { Vault } from './vault';

/** Obsidian's file tree objects. Paths are vault-relative, without a leading slash; the root is '/'. */
export abstract class TAbstractFile {
  vault: Vault;
  path: string;
  name: string;
  parent: TFolder | null;

  constructor(vault: Vault, path: string, parent: TFolder | null) {
    this.vault = vault;
    this.path = path;
    this.name = path === '/' ? '' : path.slice(path.lastIndexOf('/') + 1);
    this.parent = parent;
  }

  /** Moves the object to a new path (rename): keeps the same instance, like Obsidian. */
  setPath(path: string): void {
    this.path = path;
    this.name = path.slice(path.lastIndexOf('/') + 1);
  }
}

export interface FileStats {
  ctime: number;
  mtime: number;
  size: number;
}

export class TFile extends TAbstractFile {
  stat: FileStats = { ctime: 0, mtime: 0, size: 0 };
  basename = '';
  extension = '';

  constructor(vault: Vault, path: string, parent: TFolder | null) {
    super(vault, path, parent);
    this.setPath(path);
  }

  override setPath(path: string): void {
    super.setPath(path);
    const dot = this.name.lastIndexOf('.');
    this.basename = dot > 0 ? this.name.slice(0, dot) : this.name;
    this.extension = dot > 0 ? this.name.slice(dot + 1) : '';
  }
}

export class TFolder extends TAbstractFile {
  children: TAbstractFile[] = [];

  isRoot(): boolean {
    return this.path === '/';
  }
}

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { NoteWriter } from '../core/ports/noteWriter';

/**
 * The write port over a vault folder on disk (issue 28), for the inspector, the workbench and tests.
 * Every path is checked to stay inside the vault (also through symbolic links); a create uses the
 * exclusive flag, so it never overwrites; a rename refuses a taken target; links are not rewritten
 * (Obsidian's renameFile does that in the app). `changed` is told after every write (the vault's
 * cached listing is dropped there).
 */
export class FsNoteWriter implements NoteWriter {
  private realRoot: Promise<string> | null = null;

  constructor(
    readonly root: string,
    private readonly options: { readonly excluded?: readonly string[]; readonly changed?: () => void; readonly trashFolder?: string } = {},
  ) {}

  async read(relative: string): Promise<string | null> {
    const full = await this.inside(relative);
    try {
      return await fs.readFile(full, 'utf8');
    } catch {
      return null;
    }
  }

  async exists(relative: string): Promise<boolean> {
    const full = await this.inside(relative);
    try {
      await fs.lstat(full);
      return true;
    } catch {
      return false;
    }
  }

  async process(relative: string, change: (current: string) => string): Promise<string> {
    const full = await this.inside(relative);
    const current = await fs.readFile(full, 'utf8');
    const next = change(current);
    if (next !== current) {
      // Written beside and renamed over: a crash mid-write leaves the old note whole.
      const temp = `${full}.strata-${process.pid}.tmp`;
      await fs.writeFile(temp, next, 'utf8');
      await fs.rename(temp, full);
      this.options.changed?.();
    }
    return next;
  }

  async create(relative: string, text: string): Promise<void> {
    const full = await this.inside(relative);
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.writeFile(full, text, { encoding: 'utf8', flag: 'wx' });
    this.options.changed?.();
  }

  async rename(from: string, to: string): Promise<void> {
    const source = await this.inside(from);
    const target = await this.inside(to);
    if (await this.exists(to)) throw new Error(`${to} already exists`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(source, target);
    this.options.changed?.();
  }

  async trash(relative: string): Promise<void> {
    const full = await this.inside(relative);
    // Like Obsidian's "move to .trash": kept, out of sight.
    const trash = path.join(this.root, this.options.trashFolder ?? '.trash');
    await fs.mkdir(trash, { recursive: true });
    let target = path.join(trash, path.basename(full));
    for (let n = 2; await fs.lstat(target).then(() => true, () => false); n++) target = path.join(trash, `${path.basename(full, '.md')} ${n}.md`);
    await fs.rename(full, target);
    this.options.changed?.();
  }

  excludedFolders(): readonly string[] {
    return this.options.excluded ?? [];
  }

  /** The file's place on disk; throws when the path leaves the vault (by '..' or through a link). */
  private async inside(relative: string): Promise<string> {
    const normalized = path.posix.normalize(relative.replace(/\\/g, '/'));
    if (normalized.startsWith('../') || normalized === '..' || path.posix.isAbsolute(normalized)) throw new Error(`${relative} leaves the vault`);
    const full = path.join(this.root, ...normalized.split('/'));
    this.realRoot ??= fs.realpath(this.root);
    const root = await this.realRoot;
    // The deepest part of the path that exists must be inside the vault once links are followed.
    let probe = full;
    for (;;) {
      const real = await fs.realpath(probe).catch(() => null);
      if (real !== null) {
        if (real !== root && !real.startsWith(root + path.sep)) throw new Error(`${relative} leads outside the vault`);
        break;
      }
      const parent = path.dirname(probe);
      if (parent === probe) break;
      probe = parent;
    }
    return full;
  }
}

import type { NoteStat, VaultReader } from '../../../src/core/ports/vault';

/** An in-memory vault that counts reads and keeps a stat per note (mtime bumps on every write). */
export class MemoryVault implements VaultReader {
  readonly files = new Map<string, { text: string; mtime: number }>();
  reads: string[] = [];
  private clock = 1;

  constructor(files: Record<string, string> = {}, readonly withStat = true) {
    for (const [path, text] of Object.entries(files)) this.write(path, text);
    if (!withStat) this.stat = undefined;
  }

  write(path: string, text: string): void {
    this.files.set(path, { text, mtime: this.clock++ });
  }

  /** Bump a note's time without changing its text (a save with no edit, a sync touching the file). */
  touch(path: string): void {
    const file = this.files.get(path);
    if (file) file.mtime = this.clock++;
  }

  delete(path: string): void {
    this.files.delete(path);
  }

  read(path: string): Promise<string | null> {
    this.reads.push(path);
    return Promise.resolve(this.files.get(path)?.text ?? null);
  }

  listMarkdown(): Promise<string[]> {
    return Promise.resolve([...this.files.keys()].filter((p) => p.endsWith('.md')).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  }

  stat?: (path: string) => Promise<NoteStat | null> = (path) => {
    const file = this.files.get(path);
    return Promise.resolve(file ? { mtime: file.mtime, size: Buffer.byteLength(file.text) } : null);
  };
}

import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ChatNoteStore } from '../core/ports/chatNoteStore';
import { trimSlashes } from '../core/trim';

/** Chat notes in a folder on disk (tests, the inspector). Not atomic across processes: Node tooling only. */
export class FsChatStore implements ChatNoteStore {
  constructor(readonly root: string) {}

  async list(folder: string): Promise<string[]> {
    const out: string[] = [];
    const walk = async (rel: string): Promise<void> => {
      let entries;
      try {
        entries = await fs.readdir(this.full(rel), { withFileTypes: true });
      } catch {
        return;
      }
      for (const e of entries) {
        const child = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) await walk(child);
        else if (e.isFile() && e.name.endsWith('.md')) out.push(child);
      }
    };
    await walk(trimSlashes(folder));
    return out.sort();
  }

  async read(rel: string): Promise<string | null> {
    try {
      return await fs.readFile(this.full(rel), 'utf8');
    } catch {
      return null;
    }
  }

  async create(rel: string, text: string): Promise<void> {
    const full = this.full(rel);
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.writeFile(full, text, { encoding: 'utf8', flag: 'wx' });
  }

  async exists(rel: string): Promise<boolean> {
    try {
      return (await fs.stat(this.full(rel))).isFile();
    } catch {
      return false;
    }
  }

  async process(rel: string, update: (current: string) => string): Promise<string> {
    const current = await this.read(rel);
    if (current === null) throw new Error(`${rel} does not exist`);
    const next = update(current);
    await fs.writeFile(this.full(rel), next, 'utf8');
    return next;
  }

  async trash(rel: string): Promise<void> {
    await fs.rm(this.full(rel), { force: true });
  }

  private full(rel: string): string {
    const normalized = path.posix.normalize(rel.replace(/\\/g, '/'));
    if (normalized.startsWith('..') || path.posix.isAbsolute(normalized)) throw new Error(`${rel} leaves the chat folder`);
    return path.join(this.root, ...normalized.split('/').filter((p) => p && p !== '.'));
  }
}

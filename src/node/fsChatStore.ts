import { promises as fs } from 'node:fs';
import path from 'node:path';
import type { ChatNoteStore } from '../core/ports/chatNoteStore';
import { trimSlashes } from '../core/trim';

const encoder = new TextEncoder();

/**
 * The note's UTF-8 bytes. TextEncoder.encodeInto is several times faster than the string path of
 * fs.writeFile (Buffer.from) for a text with any non-ASCII character (every chat note: its
 * headings' "·"): at 1.5 MB, 1 ms instead of 5.
 */
function utf8(text: string): Uint8Array {
  // Not zero-filled: encodeInto writes every byte of the part that is kept.
  const bytes = Buffer.allocUnsafe(text.length * 3);
  const { written } = encoder.encodeInto(text, bytes);
  return bytes.subarray(0, written);
}

/** Notes whose text is kept after a read or write, for the read that the next save's process() makes. */
const KEPT_NOTES = 8;

/**
 * Chat notes in a folder on disk (tests, the inspector, the benchmarks). Not atomic across processes:
 * Node tooling only. A note's text is kept after it is read or written, with the file's modification
 * time and size, and served again while a stat says the file is unchanged (what Obsidian's cachedRead
 * does): a save of a long chat does not read back the megabytes it wrote. A changed file is read.
 */
export class FsChatStore implements ChatNoteStore {
  private readonly kept = new Map<string, { readonly mtimeMs: number; readonly size: number; readonly text: string }>();

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
    const full = this.full(rel);
    try {
      // The stat comes first: a file changed after it is read again next time, never missed.
      const stat = await fs.stat(full);
      const kept = this.kept.get(full);
      if (kept && kept.mtimeMs === stat.mtimeMs && kept.size === stat.size) return kept.text;
      // The bytes, decoded at once: readFile's 'utf8' decodes a long note chunk by chunk into a rope
      // that the decoder then flattens (a 1.5 MB chat note: ~1 ms more, more on a busy heap).
      const text = (await fs.readFile(full)).toString('utf8');
      this.keep(full, stat, text);
      return text;
    } catch {
      this.kept.delete(full);
      return null;
    }
  }

  /** Keep a note's text as of this stat (the newest few notes only). */
  private keep(full: string, stat: { mtimeMs: number; size: number }, text: string): void {
    this.kept.delete(full);
    this.kept.set(full, { mtimeMs: stat.mtimeMs, size: stat.size, text });
    if (this.kept.size > KEPT_NOTES) this.kept.delete(this.kept.keys().next().value as string);
  }

  /** After this process wrote a note: its text, as of the file's stat now. */
  private async wrote(full: string, text: string): Promise<void> {
    try {
      this.keep(full, await fs.stat(full), text);
    } catch {
      this.kept.delete(full);
    }
  }

  async create(rel: string, text: string): Promise<void> {
    const full = this.full(rel);
    await fs.mkdir(path.dirname(full), { recursive: true });
    await fs.writeFile(full, text, { encoding: 'utf8', flag: 'wx' });
    await this.wrote(full, text);
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
    const full = this.full(rel);
    this.kept.delete(full);
    await fs.writeFile(full, utf8(next));
    await this.wrote(full, next);
    return next;
  }

  async rename(from: string, to: string): Promise<void> {
    const source = this.full(from);
    const target = this.full(to);
    if (await this.exists(to)) throw new Error(`${to} already exists`);
    await fs.mkdir(path.dirname(target), { recursive: true });
    this.kept.delete(source);
    await fs.rename(source, target);
  }

  async trash(rel: string): Promise<void> {
    this.kept.delete(this.full(rel));
    await fs.rm(this.full(rel), { force: true });
  }

  private full(rel: string): string {
    const normalized = path.posix.normalize(rel.replace(/\\/g, '/'));
    if (normalized.startsWith('..') || path.posix.isAbsolute(normalized)) throw new Error(`${rel} leaves the chat folder`);
    return path.join(this.root, ...normalized.split('/').filter((p) => p && p !== '.'));
  }
}

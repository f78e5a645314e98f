import { trimTrailingSlashes } from '../trim';

import type { ChatNoteStore } from '../ports/chatNoteStore';

/** Chat notes in memory: tests, the inspector, benchmarks. */
export class MemoryChatStore implements ChatNoteStore {
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

  rename(from: string, to: string): Promise<void> {
    const text = this.files.get(from);
    if (text === undefined) return Promise.reject(new Error(`${from} does not exist`));
    if (this.files.has(to)) return Promise.reject(new Error(`${to} already exists`));
    this.files.delete(from);
    this.files.set(to, text);
    return Promise.resolve();
  }

  trash(path: string): Promise<void> {
    this.files.delete(path);
    return Promise.resolve();
  }
}

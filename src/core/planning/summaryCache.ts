import { sha256Hex } from '../hash';

/** A summary of an artifact as the cache keeps it. */
export interface CachedSummary {
  readonly text: string;
  /** The model that wrote it (`provider/model`). */
  readonly model: string;
}

/** Where the cache lives between sessions (the plugin's folder in Obsidian, a file or memory in Node). */
export interface SummaryStore {
  load(): Promise<Readonly<Record<string, CachedSummary>> | null>;
  save(entries: Readonly<Record<string, CachedSummary>>): Promise<void>;
}

/** Kept entries: the oldest go first (a summary is a few hundred tokens; 500 are well under 1 MB). */
export const SUMMARY_CACHE_ENTRIES = 500;

/**
 * Summaries of artifacts, keyed by artifact id + content hash + focus (seed 004 milestone 7: the same
 * artifact summarized for another question is another entry), persisted so a reopened chat or a
 * second chat on the same note does not pay for the summary again. Counts hits and misses.
 */
export class SummaryCache {
  private entries = new Map<string, CachedSummary>();
  private loaded: Promise<void> | null = null;
  private saving: Promise<void> = Promise.resolve();
  hits = 0;
  misses = 0;

  constructor(
    private readonly store: SummaryStore | null = null,
    private readonly limit = SUMMARY_CACHE_ENTRIES,
  ) {}

  static key(id: string, hash: string, focus: string): string {
    return sha256Hex(`${id}\n${hash}\n${focus.trim()}`).slice(0, 32);
  }

  private load(): Promise<void> {
    this.loaded ??= (this.store?.load() ?? Promise.resolve(null))
      .catch(() => null)
      .then((stored) => {
        if (!stored) return;
        for (const [key, value] of Object.entries(stored)) {
          if (value && typeof value.text === 'string' && typeof value.model === 'string' && !this.entries.has(key)) this.entries.set(key, value);
        }
      });
    return this.loaded;
  }

  /** The cached summary, counted as a hit or a miss. */
  async get(key: string): Promise<CachedSummary | undefined> {
    await this.load();
    const found = this.entries.get(key);
    if (found) this.hits += 1;
    else this.misses += 1;
    return found;
  }

  /** Keep a summary (and write the cache out; a failed write only costs a later summary). */
  async set(key: string, value: CachedSummary): Promise<void> {
    await this.load();
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.limit) this.entries.delete(this.entries.keys().next().value as string);
    const store = this.store;
    if (!store) return;
    const snapshot = Object.fromEntries(this.entries);
    this.saving = this.saving.then(() => store.save(snapshot)).catch(() => undefined);
    await this.saving;
  }

  get size(): number {
    return this.entries.size;
  }
}

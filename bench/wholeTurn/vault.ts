import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { NoteStat, VaultReader } from '../../src/core/ports/vault';

const AREAS = ['Projects/Greenhouse', 'Projects/Kitchen', 'Reading', 'Daily', 'Piano', 'Garden', 'Work/Meetings', 'Work/Plans', 'Travel', 'Health'];
const WORDS = (
  'the plan week soil seed water light window vent heat cold frost spring summer autumn winter note idea list task ' +
  'budget meeting follow review draft chapter scale practice tempo recipe bread oven flour yeast trip train hotel ' +
  'walk sleep run stretch doctor report quarter goal risk owner date change reason result measure compare keep drop'
).split(' ');

/** Deterministic words from a small linear congruential generator: every note differs, every run is the same. */
function words(seed: number, count: number): string {
  let x = (seed * 2654435761 + 12345) >>> 0;
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    out.push(WORDS[x % WORDS.length]);
  }
  return out.join(' ');
}

/** A ~2 KB note with headings, paragraphs and tasks. */
export function noteText(i: number): string {
  const para = (k: number) => `${words(i * 31 + k, 52)}.`;
  return [
    `# Note ${i}`,
    '',
    `## Context`,
    '',
    para(1),
    '',
    para(2),
    '',
    `## Details`,
    '',
    para(3),
    '',
    para(4),
    '',
    `## Next`,
    '',
    `- [ ] ${words(i * 31 + 5, 8)}`,
    `- [x] ${words(i * 31 + 6, 8)}`,
    '',
  ].join('\n');
}

export function notePath(i: number): string {
  return `${AREAS[i % AREAS.length]}/Note ${String(i).padStart(4, '0')}.md`;
}

/** Writes `count` notes under `root` (notes `first`… of the generator); returns their vault paths in index order. */
export function writeVault(root: string, count: number, first = 0): string[] {
  const paths: string[] = [];
  for (let i = first; i < first + count; i++) {
    const rel = notePath(i);
    const full = path.join(root, ...rel.split('/'));
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, noteText(i));
    paths.push(rel);
  }
  return paths;
}

/** Counts what the engine asks of a vault: the cost of change detection shows as reads per turn. */
export class CountingVault implements VaultReader {
  reads = 0;
  stats = 0;
  readonly stat?: (path: string) => Promise<NoteStat | null>;
  readonly statNow?: (path: string) => NoteStat | null | undefined;

  constructor(private readonly inner: VaultReader) {
    const stat = inner.stat?.bind(inner);
    if (stat) {
      this.stat = (p: string) => {
        this.stats++;
        return stat(p);
      };
    }
    const statNow = inner.statNow?.bind(inner);
    if (statNow) {
      this.statNow = (p: string) => {
        const known = statNow(p);
        if (known !== undefined) this.stats++;
        return known;
      };
    }
  }

  read(p: string): Promise<string | null> {
    this.reads++;
    return this.inner.read(p);
  }

  listMarkdown(): Promise<string[]> {
    return this.inner.listMarkdown();
  }
}

/**
 * A vault as Obsidian serves it: a note's text read from disk once, then from memory (cachedRead),
 * and its modification time and size from memory (TFile.stat). Nothing here edits notes.
 */
export class CachedVault implements VaultReader {
  private readonly texts = new Map<string, string | null>();
  private readonly stats = new Map<string, NoteStat | null>();

  constructor(private readonly disk: VaultReader & { stat(path: string): Promise<NoteStat | null> }) {}

  async read(p: string): Promise<string | null> {
    if (!this.texts.has(p)) this.texts.set(p, await this.disk.read(p));
    return this.texts.get(p) ?? null;
  }

  async stat(p: string): Promise<NoteStat | null> {
    if (!this.stats.has(p)) this.stats.set(p, await this.disk.stat(p));
    return this.stats.get(p) ?? null;
  }

  /** A stat already in memory (Obsidian's TFile.stat); undefined before the first. */
  statNow(p: string): NoteStat | null | undefined {
    return this.stats.get(p);
  }

  listMarkdown(): Promise<string[]> {
    return this.disk.listMarkdown();
  }
}

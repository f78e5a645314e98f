import { LinkResolver, linksIn, linksInSteps, type NoteLink } from '../agent/links';
import { ownString } from './ownString';

/**
 * The vault's link graph as the search index sees it: each note's links as written, kept note by
 * note beside the chunks (vaultIndex.ts), resolved the way Obsidian resolves them when asked. Used
 * to weigh links in: a note linked with a strong hit is likelier to be about the question
 * (graphExpansion.ts), and a note's neighbours are among its related notes (relatedNotes.ts).
 * Backlinks are found through the link's file name, so no vault-wide pass runs after an edit.
 */

interface Link {
  readonly target: string;
  readonly markdown: boolean;
}

export class LinkGraph {
  private readonly out = new Map<string, readonly Link[]>();
  /** Lower-cased file name a link points at (no `.md`) → notes that have such a link. */
  private readonly byName = new Map<string, Set<string>>();
  private resolver: LinkResolver | null = null;
  /**
   * The notes the resolver was made from. An edit re-indexes a note (delete, then set): the notes
   * are the same, so the resolver is kept (making it took 20-40 ms at 25,000 notes, and the first
   * search after every edit paid it). It is made again once a note it does not know is set or the
   * count differs (a note gone).
   */
  private resolvedFrom = new Set<string>();
  private unknownSet = false;
  /** neighbours() answers until the next change: a search asks for its two best notes' every query. */
  private readonly neighbourCache = new Map<string, string[]>();

  /** A note's links, from its text (replaces what it had). */
  set(path: string, text: string): void {
    this.setFound(path, linksIn(text));
  }

  /** set() over a note's lines, in steps (linksInSteps) so a huge note does not hold the thread. */
  *setSteps(path: string, lines: readonly string[]): Generator<void, void> {
    this.setFound(path, yield* linksInSteps(lines));
  }

  private setFound(path: string, found: readonly NoteLink[]): void {
    const seen = new Set<string>();
    const links: Link[] = [];
    for (const link of found) {
      const key = `${link.markdown ? 'm' : 'w'}${link.target}`;
      if (seen.has(key)) continue;
      seen.add(key);
      links.push({ target: ownString(link.target), markdown: link.markdown }); // Kept: not a view into the note's text.
    }
    this.setLinks(path, links);
  }

  /** Notes with links known. */
  get size(): number {
    return this.out.size;
  }

  private setLinks(path: string, links: readonly Link[]): void {
    this.neighbourCache.clear();
    this.unlink(path);
    if (!this.resolvedFrom.has(path)) this.unknownSet = true;
    for (const link of links) {
      const name = linkName(link.target);
      let sources = this.byName.get(name);
      if (!sources) this.byName.set(name, (sources = new Set()));
      sources.add(path);
    }
    this.out.set(path, links);
  }

  delete(path: string): void {
    if (!this.out.has(path)) return;
    this.neighbourCache.clear();
    this.unlink(path);
    this.out.delete(path);
  }

  /** The notes `path` links to (resolved, without itself), sorted. */
  outgoing(path: string): string[] {
    const links = this.out.get(path);
    if (!links) return [];
    const resolver = this.resolverNow();
    const found = new Set<string>();
    for (const link of links) {
      const target = resolver.resolve({ target: link.target, line: 0, markdown: link.markdown }, path);
      if (target !== null && target !== path) found.add(target);
    }
    return [...found].sort(byCodePoint);
  }

  /** The notes that link to `path` (without itself), sorted. */
  incoming(path: string): string[] {
    const name = noteName(path);
    const sources = this.byName.get(name);
    if (!sources) return [];
    const resolver = this.resolverNow();
    const found: string[] = [];
    for (const source of sources) {
      if (source === path) continue;
      const links = this.out.get(source) ?? [];
      if (links.some((link) => linkName(link.target) === name && resolver.resolve({ target: link.target, line: 0, markdown: link.markdown }, source) === path)) found.push(source);
    }
    return found.sort(byCodePoint);
  }

  /** Every note's links as written, sorted by path: what a saved index keeps. */
  toJSON(): Array<[string, Array<[string, 0 | 1]>]> {
    return [...this.out.entries()].sort(([a], [b]) => byCodePoint(a, b)).map(([path, links]) => [path, links.map((l) => [l.target, l.markdown ? 1 : 0] as [string, 0 | 1])]);
  }

  /** A graph from toJSON()'s output; null when it is not that shape (a damaged saved index). */
  static fromJSON(value: unknown): LinkGraph | null {
    const graph = new LinkGraph();
    return graph.addStored(value) ? graph : null;
  }

  /** The notes with links known, sorted: a saved index writes their links a part at a time (stored()). */
  paths(): string[] {
    return [...this.out.keys()].sort(byCodePoint);
  }

  /** These notes' links as toJSON() writes them (notes without links known left out). */
  stored(paths: readonly string[]): Array<[string, Array<[string, 0 | 1]>]> {
    const out: Array<[string, Array<[string, 0 | 1]>]> = [];
    for (const path of paths) {
      const links = this.out.get(path);
      if (links) out.push([path, links.map((l) => [l.target, l.markdown ? 1 : 0] as [string, 0 | 1])]);
    }
    return out;
  }

  /**
   * Adds a part of toJSON()'s output (a saved index restores its links a part per step); false when
   * it is not that shape, with nothing of the bad entry added (the caller drops the graph).
   */
  addStored(value: unknown): boolean {
    if (!Array.isArray(value)) return false;
    for (const entry of value as unknown[]) {
      if (!Array.isArray(entry) || typeof entry[0] !== 'string' || !Array.isArray(entry[1])) return false;
      const links: Link[] = [];
      for (const link of entry[1] as unknown[]) {
        if (!Array.isArray(link) || typeof link[0] !== 'string') return false;
        links.push({ target: link[0], markdown: link[1] === 1 });
      }
      this.setLinks(entry[0], links);
    }
    return true;
  }

  /** Linked either way, sorted (graphExpansion.ts's Neighbours). */
  neighbours(path: string): readonly string[] {
    let found = this.neighbourCache.get(path);
    if (!found) {
      if (this.neighbourCache.size >= NEIGHBOURS_CACHED) this.neighbourCache.clear();
      found = [...new Set([...this.outgoing(path), ...this.incoming(path)])].sort(byCodePoint);
      this.neighbourCache.set(path, found);
    }
    return found;
  }

  private unlink(path: string): void {
    for (const link of this.out.get(path) ?? []) {
      const name = linkName(link.target);
      const sources = this.byName.get(name);
      sources?.delete(path);
      if (sources?.size === 0) this.byName.delete(name);
    }
  }

  private resolverNow(): LinkResolver {
    // Every note in `out` came through setLinks: with none unknown set, out ⊆ resolvedFrom, so equal sizes mean the same notes.
    if (!this.resolver || this.unknownSet || this.out.size !== this.resolvedFrom.size) {
      this.resolver = new LinkResolver([...this.out.keys()]);
      this.resolvedFrom = new Set(this.out.keys());
      this.unknownSet = false;
    }
    return this.resolver;
  }
}

/** Notes whose neighbours are remembered at most (then the cache starts over). */
const NEIGHBOURS_CACHED = 1000;

/** What a link names: its last path segment, lower-cased, without `.md`. */
function linkName(target: string): string {
  const lower = target.toLowerCase().replace(/\.md$/, '');
  return lower.slice(lower.lastIndexOf('/') + 1);
}

function noteName(path: string): string {
  return linkName(path);
}

function byCodePoint(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

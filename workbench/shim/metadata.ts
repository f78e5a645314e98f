import { parse as parseYaml } from 'yaml';
import { Events } from './events';
import { TFile } from './files';
import type { Vault } from './vault';
import { getLinkpath } from './util';

export interface Loc { line: number; col: number; offset: number }
export interface Pos { start: Loc; end: Loc }
export interface LinkCache { link: string; original: string; displayText?: string; position: Pos }
export interface TagCache { tag: string; position: Pos }
export interface HeadingCache { heading: string; level: number; position: Pos }
export interface CachedMetadata {
  frontmatter?: Record<string, unknown>;
  frontmatterPosition?: Pos;
  tags?: TagCache[];
  links?: LinkCache[];
  embeds?: LinkCache[];
  headings?: HeadingCache[];
}

const FRONTMATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/;

function locator(text: string): (offset: number) => Loc {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return (offset) => {
    let line = 0;
    while (line + 1 < starts.length && starts[line + 1] <= offset) line++;
    return { line, col: offset - starts[line], offset };
  };
}

/** Parses what Obsidian's metadata cache reports for a note: frontmatter, tags, links, headings. */
export function parseMetadata(text: string): CachedMetadata {
  const loc = locator(text);
  const pos = (start: number, end: number): Pos => ({ start: loc(start), end: loc(end) });
  const cache: CachedMetadata = {};
  let bodyStart = 0;
  const fm = FRONTMATTER.exec(text);
  if (fm) {
    try {
      const data: unknown = parseYaml(fm[1]);
      cache.frontmatter = data && typeof data === 'object' && !Array.isArray(data) ? (data as Record<string, unknown>) : {};
    } catch {
      // Obsidian keeps going with no frontmatter when the YAML is invalid.
    }
    cache.frontmatterPosition = pos(0, fm[0].trimEnd().length);
    bodyStart = fm[0].length;
  }
  // Blank out code (fenced and inline) so tags and links inside it are not reported, keeping offsets.
  const body = text
    .slice(bodyStart)
    .replace(/^(```|~~~)[\s\S]*?^\1/gm, (m) => m.replace(/[^\n]/g, ' '))
    .replace(/`[^`\n]*`/g, (m) => ' '.repeat(m.length));
  const at = (i: number): number => bodyStart + i;
  const headings: HeadingCache[] = [];
  for (const m of body.matchAll(/^(#{1,6})[ \t]+(.+?)[ \t#]*$/gm)) {
    headings.push({ heading: m[2], level: m[1].length, position: pos(at(m.index), at(m.index + m[0].length)) });
  }
  const tags: TagCache[] = [];
  for (const m of body.matchAll(/(^|[\s(,])#([\p{L}\p{N}_/-]*[\p{L}_/-][\p{L}\p{N}_/-]*)/gu)) {
    const start = m.index + m[1].length;
    tags.push({ tag: `#${m[2]}`, position: pos(at(start), at(start + m[2].length + 1)) });
  }
  const links: LinkCache[] = [];
  const embeds: LinkCache[] = [];
  for (const m of body.matchAll(/(!?)\[\[([^\]|\n]+)(?:\|([^\]\n]*))?\]\]/g)) {
    const entry: LinkCache = { link: m[2].trim(), original: m[0], displayText: m[3] ?? m[2].trim(), position: pos(at(m.index), at(m.index + m[0].length)) };
    (m[1] ? embeds : links).push(entry);
  }
  if (headings.length) cache.headings = headings;
  if (tags.length) cache.tags = tags;
  if (links.length) cache.links = links;
  if (embeds.length) cache.embeds = embeds;
  return cache;
}

/** Obsidian's MetadataCache, computed from the vault's text (all notes are loaded at boot). */
export class MetadataCache extends Events {
  private readonly parsed = new Map<string, { text: string; cache: CachedMetadata }>();
  /** resolvedLinks and unresolvedLinks, computed on first use after a change (Obsidian keeps them current). */
  private linkGraph: { resolved: Record<string, Record<string, number>>; unresolved: Record<string, Record<string, number>> } | null = null;

  /** Source note → destination file → number of links and embeds, as Obsidian resolves them. */
  get resolvedLinks(): Record<string, Record<string, number>> {
    return this.links().resolved;
  }

  /** Source note → link text that resolves to no file → count. */
  get unresolvedLinks(): Record<string, Record<string, number>> {
    return this.links().unresolved;
  }

  private links(): { resolved: Record<string, Record<string, number>>; unresolved: Record<string, Record<string, number>> } {
    if (this.linkGraph) return this.linkGraph;
    const resolved: Record<string, Record<string, number>> = {};
    const unresolved: Record<string, Record<string, number>> = {};
    for (const file of this.vault.getMarkdownFiles()) {
      const cache = this.getFileCache(file);
      const to: Record<string, number> = (resolved[file.path] = {});
      const missing: Record<string, number> = (unresolved[file.path] = {});
      for (const link of [...(cache?.links ?? []), ...(cache?.embeds ?? [])]) {
        const name = getLinkpath(link.link);
        if (name === '') continue; // [[#Heading]]: a link inside the note itself.
        const dest = this.getFirstLinkpathDest(name, file.path);
        if (dest) to[dest.path] = (to[dest.path] ?? 0) + 1;
        else missing[name] = (missing[name] ?? 0) + 1;
      }
    }
    this.linkGraph = { resolved, unresolved };
    return this.linkGraph;
  }

  constructor(private readonly vault: Vault) {
    super();
    // Any change can resolve or break a link elsewhere: the link graph is recomputed on next use.
    const stale = (): void => {
      this.linkGraph = null;
    };
    vault.on('modify', stale);
    vault.on('create', stale);
    vault.on('delete', stale);
    vault.on('rename', stale);
    vault.on('modify', (file) => {
      if (file instanceof TFile) this.changed(file);
    });
    vault.on('create', (file) => {
      if (file instanceof TFile) this.changed(file);
    });
    vault.on('delete', (file) => {
      if (!(file instanceof TFile)) return;
      const prev = this.parsed.get(file.path)?.cache ?? null;
      this.parsed.delete(file.path);
      this.trigger('deleted', file, prev);
    });
    vault.on('rename', (file, oldPath) => {
      const entry = this.parsed.get(oldPath as string);
      if (entry && file instanceof TFile) {
        this.parsed.delete(oldPath as string);
        this.parsed.set(file.path, entry);
      }
    });
  }

  private changed(file: TFile): void {
    const cache = this.getFileCache(file);
    if (cache) this.trigger('changed', file, this.vault.contents.get(file.path) ?? '', cache);
    this.trigger('resolved');
  }

  getFileCache(file: TFile): CachedMetadata | null {
    return this.getCache(file.path);
  }

  getCache(path: string): CachedMetadata | null {
    if (!path.endsWith('.md')) return this.vault.getFileByPath(path) ? {} : null;
    const text = this.vault.contents.get(path);
    if (text === undefined) return null;
    const hit = this.parsed.get(path);
    if (hit && hit.text === text) return hit.cache;
    const cache = parseMetadata(text);
    this.parsed.set(path, { text, cache });
    return cache;
  }

  getFirstLinkpathDest(linkpath: string, sourcePath: string): TFile | null {
    const target = getLinkpath(linkpath);
    if (!target) return this.vault.getFileByPath(sourcePath);
    const exact = this.vault.getFileByPath(target) ?? this.vault.getFileByPath(`${target}.md`);
    if (exact) return exact;
    const lower = target.toLowerCase();
    const candidates = this.vault.getFiles().filter((f) => {
      const p = f.path.toLowerCase();
      return p === lower || p === `${lower}.md` || p.endsWith(`/${lower}`) || p.endsWith(`/${lower}.md`);
    });
    if (!candidates.length) return null;
    const dir = sourcePath.includes('/') ? sourcePath.slice(0, sourcePath.lastIndexOf('/') + 1) : '';
    candidates.sort((a, b) => Number(b.path.startsWith(dir)) - Number(a.path.startsWith(dir)) || a.path.length - b.path.length || (a.path < b.path ? -1 : 1));
    return candidates[0];
  }

  fileToLinktext(file: TFile, _sourcePath: string, omitMdExtension = true): string {
    const name = omitMdExtension && file.extension === 'md' ? file.basename : file.name;
    const sameName = this.vault.getFiles().filter((f) => (omitMdExtension && f.extension === 'md' ? f.basename : f.name) === name);
    if (sameName.length <= 1) return name;
    return omitMdExtension && file.extension === 'md' ? file.path.slice(0, -3) : file.path;
  }
}

/** Obsidian's getAllTags: frontmatter tags and inline tags, each with a leading '#'. */
export function getAllTags(cache: CachedMetadata): string[] | null {
  const tags = parseFrontMatterTags(cache.frontmatter) ?? [];
  for (const t of cache.tags ?? []) tags.push(t.tag);
  return tags;
}

function listField(value: unknown): string[] | null {
  if (typeof value === 'string') return value.split(/[,\s]+/).filter(Boolean);
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return null;
}

export function parseFrontMatterTags(frontmatter: Record<string, unknown> | null | undefined): string[] | null {
  if (!frontmatter) return null;
  const list = listField(frontmatter.tags) ?? listField(frontmatter.tag);
  return list ? list.map((t) => (t.startsWith('#') ? t : `#${t}`)) : null;
}

export function parseFrontMatterAliases(frontmatter: Record<string, unknown> | null | undefined): string[] | null {
  if (!frontmatter) return null;
  return listField(frontmatter.aliases) ?? listField(frontmatter.alias);
}

export function parseFrontMatterEntry(frontmatter: Record<string, unknown> | null | undefined, key: string | RegExp): unknown {
  if (!frontmatter) return null;
  for (const [k, v] of Object.entries(frontmatter)) if (typeof key === 'string' ? k === key : key.test(k)) return v;
  return null;
}

export function getFrontMatterInfo(content: string): { exists: boolean; frontmatter: string; from: number; to: number; contentStart: number } {
  const m = FRONTMATTER.exec(content);
  if (!m) return { exists: false, frontmatter: '', from: 0, to: 0, contentStart: 0 };
  return { exists: true, frontmatter: m[1], from: 4, to: 4 + m[1].length, contentStart: m[0].length };
}

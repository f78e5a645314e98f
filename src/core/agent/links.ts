/**
 * Links between notes as Obsidian resolves them, for hosts without Obsidian's link graph (Node) and
 * for finding the line that links (getBacklinks): `[[target]]`, `[[target|alias]]`,
 * `[[target#heading]]`, embeds `![[…]]`, and markdown links `[x](target.md)`. Links inside code
 * (fenced blocks, inline code) are not links.
 */

export interface NoteLink {
  /** The link path as written (no alias, no #heading; markdown links URL-decoded). */
  readonly target: string;
  /** 1-based line of the link. */
  readonly line: number;
  readonly markdown: boolean;
}

const WIKI = /!?\[\[([^\]\n]+?)\]\]/g;
const MARKDOWN = /!?\[[^\]\n]*\]\(\s*(<[^>\n]+>|[^)\s]+)(?:\s+(?:"[^"\n]*"|'[^'\n]*'))?\s*\)/g;
const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})/;
const FENCE_CLOSE = /^ {0,3}(`+|~+)[ \t]*$/;

/** Every link of a note, in order, outside code. */
export function linksIn(text: string): NoteLink[] {
  const steps = linksInSteps(text.split(/\r\n?|\n/), Infinity);
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

/**
 * linksIn() over a note's lines, yielding every `linesPerStep` lines so a huge note (the search
 * index's 5 MB case) is read in slices between which the host can run.
 */
export function* linksInSteps(lines: readonly string[], linesPerStep = 20_000): Generator<void, NoteLink[]> {
  const links: NoteLink[] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (i > 0 && i % linesPerStep === 0) yield;
    const raw = lines[i];
    if (fence !== null) {
      const close = FENCE_CLOSE.exec(raw);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      continue;
    }
    const open = FENCE_OPEN.exec(raw);
    if (open) {
      fence = open[1];
      continue;
    }
    if (!raw.includes('[')) continue; // No link on this line: the common case, without the regexes.
    const line = raw.includes('`') ? raw.replace(/(`+)[^`]*?\1/g, (m) => ' '.repeat(m.length)) : raw;
    for (const m of line.matchAll(WIKI)) {
      const target = wikiTarget(m[1]);
      if (target !== '') links.push({ target, line: i + 1, markdown: false });
    }
    for (const m of line.matchAll(MARKDOWN)) {
      const target = markdownTarget(m[1]);
      if (target !== null) links.push({ target, line: i + 1, markdown: true });
    }
  }
  return links;
}

/** `target#heading|alias` → target (an escaped `\|` in a table cell is the alias bar too). */
function wikiTarget(inner: string): string {
  return inner.split('|')[0].split('#')[0].replace(/\\$/, '').trim();
}

function markdownTarget(href: string): string | null {
  let target = href.startsWith('<') ? href.slice(1, -1) : href;
  if (SCHEME.test(target)) return null; // https:, mailto:, obsidian:
  target = target.split('#')[0];
  try {
    target = decodeURI(target);
  } catch {
    // A stray '%': keep the text as written.
  }
  target = target.trim();
  return target === '' ? null : target;
}

/** The notes of a vault, for resolving links: built once per listing. */
export class LinkResolver {
  private readonly byLowerPath = new Map<string, string>();
  private readonly byLowerName = new Map<string, string[]>();

  constructor(notes: readonly string[]) {
    for (const path of notes) {
      const lower = path.toLowerCase();
      if (!this.byLowerPath.has(lower)) this.byLowerPath.set(lower, path);
      const name = lower.slice(lower.lastIndexOf('/') + 1);
      const list = this.byLowerName.get(name);
      if (list) list.push(path);
      else this.byLowerName.set(name, [path]);
    }
  }

  /**
   * The note a link from `source` points to, or null. Like Obsidian: a path (with or without `.md`,
   * any case) first, a markdown link relative to the source's folder, else the notes whose path ends
   * with the link at a folder boundary, preferring the source's folder, then the shortest path.
   */
  resolve(link: NoteLink | string, source: string): string | null {
    const target = typeof link === 'string' ? link : link.target;
    const relative = typeof link !== 'string' && link.markdown;
    const dir = source.includes('/') ? source.slice(0, source.lastIndexOf('/')) : '';
    const candidates: string[] = [];
    if (relative || target.startsWith('./') || target.startsWith('../')) {
      const joined = joinPath(dir, target);
      if (joined !== null) candidates.push(joined);
    }
    const clean = target.replace(/^\/+/, '');
    candidates.push(clean);
    for (const candidate of candidates) {
      const lower = candidate.toLowerCase();
      const hit = this.byLowerPath.get(lower) ?? this.byLowerPath.get(`${lower}.md`);
      if (hit) return hit;
    }
    const lower = clean.toLowerCase();
    const withMd = lower.endsWith('.md') ? lower : `${lower}.md`;
    const name = withMd.slice(withMd.lastIndexOf('/') + 1);
    const matches = (this.byLowerName.get(name) ?? []).filter((p) => {
      const l = p.toLowerCase();
      return l === withMd || l.endsWith(`/${withMd}`);
    });
    if (matches.length === 0) return null;
    if (matches.length === 1) return matches[0];
    const prefix = dir === '' ? '' : `${dir}/`;
    const sorted = [...matches].sort((a, b) => {
      const near = Number(b.startsWith(prefix) && !b.slice(prefix.length).includes('/')) - Number(a.startsWith(prefix) && !a.slice(prefix.length).includes('/'));
      return near || a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
    });
    return sorted[0];
  }
}

/** `dir` + a relative path, with `.` and `..` resolved; null when it climbs out of the vault. */
function joinPath(dir: string, relative: string): string | null {
  const parts = dir === '' ? [] : dir.split('/');
  for (const part of relative.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

/** Notes linking to each note: target path → sorted source paths (a note linking to itself counts). */
export function backlinkMap(notes: ReadonlyMap<string, string>): Map<string, string[]> {
  const resolver = new LinkResolver([...notes.keys()]);
  const map = new Map<string, Set<string>>();
  for (const [source, text] of notes) {
    for (const link of linksIn(text)) {
      const target = resolver.resolve(link, source);
      if (target === null) continue;
      let set = map.get(target);
      if (!set) map.set(target, (set = new Set()));
      set.add(source);
    }
  }
  const out = new Map<string, string[]>();
  for (const [target, sources] of map) out.set(target, [...sources].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  return out;
}

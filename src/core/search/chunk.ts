import { parse } from 'yaml';
import { splitFrontmatter } from '../markdown/frontmatter';
import { extractTags } from '../context/tags';
import { runSteps } from './slices';

/**
 * A note cut into search chunks: one per heading section, long sections cut further with an
 * overlap. Sizes are in characters, not tokens: no tokenizer pass at index time, and chunk size
 * only has to be roughly right (≈ 4 characters a token in English; denser in Thai or CJK).
 */

export interface ChunkOptions {
  /** A section longer than this is cut into pieces of at most about this many characters. */
  readonly maxChars?: number;
  /** Each piece after the first repeats up to this many characters of whole lines from the one before. */
  readonly overlapChars?: number;
}

export const DEFAULT_CHUNK_OPTIONS: Required<ChunkOptions> = { maxChars: 1500, overlapChars: 200 };

export interface Chunk {
  /** Heading path, outermost first (empty before the first heading). */
  readonly headings: readonly string[];
  /** 1-based line range in the note (frontmatter lines count). */
  readonly startLine: number;
  readonly endLine: number;
  /** Text to index as the body: the chunk's lines without its heading line. */
  readonly body: string;
}

export interface ChunkedNote {
  /** File name without `.md`. */
  readonly title: string;
  /** Tags without '#', lowercase (frontmatter and inline). */
  readonly tags: readonly string[];
  readonly aliases: readonly string[];
  /** Other frontmatter properties as text, one `key value…` line each (links and lists flattened, URLs left out). */
  readonly properties: string;
  readonly chunks: readonly Chunk[];
}

const HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

interface Line {
  readonly text: string;
  /** 1-based line number in the note. */
  readonly number: number;
  /** Inside a fenced code block (the fences included). */
  readonly code: boolean;
}

interface Section {
  readonly headings: readonly string[];
  /** The heading line itself, when the section has one. */
  readonly heading: Line | null;
  readonly lines: Line[];
}

export function noteTitle(path: string): string {
  const file = path.split('/').pop() ?? path;
  return file.replace(/\.md$/i, '');
}

export function chunkNote(path: string, text: string, options: ChunkOptions = {}): ChunkedNote {
  return runSteps(chunkNoteSteps(path, text, options));
}

/** Lines, or sections, between two steps of chunkNoteSteps. */
const LINES_PER_STEP = 5000;
const SECTIONS_PER_STEP = 100;

/** chunkNote in steps (a 5 MB note takes ~200 ms to cut): yields every so many lines and sections. */
export function* chunkNoteSteps(path: string, text: string, options: ChunkOptions = {}): Generator<void, ChunkedNote> {
  const { maxChars, overlapChars } = { ...DEFAULT_CHUNK_OPTIONS, ...options };
  const { yaml, body } = splitFrontmatter(text);
  const properties = yaml === null ? null : parseProperties(yaml);
  const firstBodyLine = countLines(text.slice(0, text.length - body.length)) + 1;
  yield;
  const sections = yield* splitSections(body, firstBodyLine);
  const chunks: Chunk[] = [];
  for (const [n, section] of sections.entries()) {
    if (n > 0 && n % SECTIONS_PER_STEP === 0) yield;
    const content = section.lines.filter((l) => l.text.trim() !== '');
    if (content.length === 0) continue; // A heading with nothing under it: its children carry it in their heading path.
    cutSection(section.lines, maxChars, overlapChars).forEach((piece, i) => {
      const first = i === 0 && section.heading ? section.heading.number : piece[0].number;
      chunks.push({ headings: section.headings, startLine: first, endLine: piece[piece.length - 1].number, body: piece.map((l) => l.text).join('\n') });
    });
  }
  if (chunks.length === 0) {
    // An empty note, or headings only: one chunk, so it is still found by its name, headings and tags.
    const lines = body.split(/\r\n?|\n/);
    chunks.push({ headings: [], startLine: firstBodyLine, endLine: firstBodyLine + lines.length - 1, body });
  }
  yield;
  return {
    title: noteTitle(path),
    tags: noteTags(properties, body),
    aliases: properties ? stringList(properties.aliases ?? properties.alias) : [],
    properties: properties ? propertyText(properties) : '',
    chunks,
  };
}

/**
 * Frontmatter properties, or null when they are not valid YAML (Obsidian ignores such a block too).
 * Warnings are not printed: templates' `{{date}}` keys would flood the console.
 */
function parseProperties(yaml: string): Record<string, unknown> | null {
  try {
    const value: unknown = parse(yaml, { uniqueKeys: false, maxAliasCount: 100, logLevel: 'error' });
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Frontmatter `tags`/`tag` (list or string) and inline tags outside code, as extractTags reads them: lowercase, no '#'. */
function noteTags(properties: Record<string, unknown> | null, body: string): string[] {
  const tags = new Set(extractTags(body).map((t) => t.slice(1)));
  const raw = properties ? (properties.tags ?? properties.tag) : undefined;
  const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[,\s]+/) : [];
  for (const tag of list) if (typeof tag === 'string' && tag.trim() !== '') tags.add(tag.trim().replace(/^#+/, '').toLowerCase());
  return [...tags].sort();
}

// Indexed in their own fields, or Obsidian's display settings.
const NOT_PROPERTIES = new Set(['tags', 'tag', 'aliases', 'alias', 'cssclasses', 'cssclass', 'position']);

/**
 * Many notes are mostly properties (a film's director and year, a book's author): what they are
 * about is there, not in the body. Keys are kept too ("rating", "sqft" say what the note records).
 */
function propertyText(properties: Record<string, unknown>): string {
  const lines: string[] = [];
  for (const key of Object.keys(properties).sort()) {
    if (NOT_PROPERTIES.has(key.toLowerCase())) continue;
    const values: string[] = [];
    flatten(properties[key], values, 0);
    lines.push([key, ...values].join(' '));
  }
  return lines.join('\n');
}

function flatten(value: unknown, out: string[], depth: number): void {
  if (depth > 4 || value === null || value === undefined) return;
  if (typeof value === 'string') {
    if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(value.trim())) out.push(value);
  } else if (typeof value === 'number' || typeof value === 'boolean') {
    out.push(String(value));
  } else if (Array.isArray(value)) {
    for (const item of value) flatten(item, out, depth + 1);
  } else if (typeof value === 'object') {
    for (const key of Object.keys(value).sort()) {
      out.push(key);
      flatten((value as Record<string, unknown>)[key], out, depth + 1);
    }
  }
}

function countLines(prefix: string): number {
  return prefix === '' ? 0 : (prefix.match(/\r\n?|\n/g) ?? []).length;
}

function stringList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return list.filter((v): v is string | number => typeof v === 'string' || typeof v === 'number').map((v) => String(v).trim()).filter((v) => v !== '');
}

/** Sections by ATX heading; a '#' line inside a code fence is code, not a heading. */
function* splitSections(body: string, firstLine: number): Generator<void, Section[]> {
  const sections: Section[] = [];
  let current: Section = { headings: [], heading: null, lines: [] };
  const stack: Array<{ level: number; text: string }> = [];
  let fence: string | null = null;
  const all = body.split(/\r\n?|\n/);
  yield;
  for (let i = 0; i < all.length; i++) {
    if (i > 0 && i % LINES_PER_STEP === 0) yield;
    const text = all[i];
    const number = firstLine + i;
    const fenceMatch = FENCE.exec(text);
    if (fence !== null) {
      const close = /^ {0,3}(`+|~+)[ \t]*$/.exec(text);
      if (close && close[1][0] === fence[0] && close[1].length >= fence.length) fence = null;
      current.lines.push({ text, number, code: true });
      continue;
    }
    if (fenceMatch) {
      fence = fenceMatch[1];
      current.lines.push({ text, number, code: true });
      continue;
    }
    const heading = HEADING.exec(text);
    if (heading) {
      sections.push(current);
      const level = heading[1].length;
      while (stack.length > 0 && stack[stack.length - 1].level >= level) stack.pop();
      stack.push({ level, text: (heading[2] ?? '').trim() });
      current = { headings: stack.map((h) => h.text), heading: { text, number, code: false }, lines: [] };
      continue;
    }
    current.lines.push({ text, number, code: false });
  }
  sections.push(current);
  yield;
  // Trailing blank lines belong to no chunk (the line range ends at the last written line).
  for (const section of sections) while (section.lines.length > 0 && section.lines[section.lines.length - 1].text.trim() === '') section.lines.pop();
  return sections;
}

/**
 * Pieces of a section of at most about maxChars, cut between blocks (paragraphs, whole code fences).
 * A block longer than maxChars on its own is cut between lines. Each piece after the first starts
 * with up to overlapChars of whole prose lines from the end of the one before.
 */
function cutSection(lines: Line[], maxChars: number, overlapChars: number): Line[][] {
  const size = (ls: readonly Line[]): number => ls.reduce((sum, l) => sum + l.text.length + 1, 0);
  if (size(lines) <= maxChars) return [lines];
  const blocks: Line[][] = [];
  let block: Line[] = [];
  for (const line of lines) {
    const boundary = !line.code && line.text.trim() === '';
    block.push(line);
    if (boundary) {
      blocks.push(block);
      block = [];
    }
  }
  if (block.length > 0) blocks.push(block);
  const units: Line[][] = [];
  for (const b of blocks) {
    if (size(b) <= maxChars) units.push(b);
    else for (const line of b) units.push([line]); // A huge code block or paragraph: cut between lines.
  }
  const pieces: Line[][] = [];
  let piece: Line[] = [];
  let fresh = 0; // Lines of `piece` that are not overlap.
  for (const unit of units) {
    if (fresh > 0 && size(piece) + size(unit) > maxChars) {
      pieces.push(piece);
      piece = overlapOf(piece, overlapChars);
      fresh = 0;
    }
    piece = [...piece, ...unit];
    fresh += unit.length;
  }
  if (fresh > 0) pieces.push(piece);
  return pieces.map((p) => trimBlank(p)).filter((p) => p.length > 0);
}

function overlapOf(piece: readonly Line[], overlapChars: number): Line[] {
  const out: Line[] = [];
  let total = 0;
  for (let i = piece.length - 1; i >= 0; i--) {
    const line = piece[i];
    if (line.code) break; // Never start a piece inside a code fence.
    if (total + line.text.length + 1 > overlapChars) break;
    out.unshift(line);
    total += line.text.length + 1;
  }
  return out;
}

function trimBlank(lines: Line[]): Line[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].text.trim() === '') start++;
  while (end > start && lines[end - 1].text.trim() === '') end--;
  return lines.slice(start, end);
}

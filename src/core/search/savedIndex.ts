import { FIELDS } from './chunkRanking';
import { isStat, type ChunkMeta, type NoteEntry } from './indexEntries';
import { LinkGraph } from './linkGraph';
import type { TermIndex } from './termIndex';
import { decodeTermIndex, encodeTermIndex, type StoredTermIndex } from './termIndexCodec';

/**
 * The vault index as saved in the plugin folder, and read back in steps. One line of JSON first
 * (format version, settings fingerprint, next id, and the length of every section after it), then
 * the sections as they are: the notes and their links as JSON parts of 1,000 notes each, the term
 * index's fields and terms as JSON, its documents and postings as base64 (termIndexCodec.ts).
 * Nothing is parsed in one piece: the file of a 25,000-note vault is ~25 MB, and one JSON.parse of
 * it held the app for over 100 ms. The version is read from the first bytes, so another version's
 * file (format 4 was one JSON document) is refused without parsing it.
 */

/**
 * Bump when the stored shape, the chunker or the text processing changes: an older index is rebuilt.
 * 3: the term index's own compact format (MiniSearch's JSON before). 4: the notes' links (linkGraph.ts)
 * beside the chunks. 5: a JSON header line and sections, not one JSON document.
 */
export const INDEX_FORMAT_VERSION = 5;

export type RestoreReport = 'restored' | 'damaged' | 'other-version' | 'other-settings';

/** The saved file's parts, as formatSavedIndex writes them and readSavedIndex reads them. */
export interface SavedIndexFile {
  readonly version: number;
  readonly fingerprint: string;
  readonly nextId: number;
  /** Each the JSON of up to NOTES_PER_PART notes: [path, { hash, stat, chunks: [id, headings, startLine, endLine, hash][] }][]. */
  readonly notes: readonly string[];
  /** Each the JSON of up to NOTES_PER_PART notes' links (LinkGraph.stored). */
  readonly links: readonly string[];
  readonly terms: StoredTermIndex;
}

/** What an index holds, as saved and as restored. */
export interface IndexContents {
  readonly notes: Map<string, NoteEntry>;
  readonly chunks: Map<number, ChunkMeta>;
  readonly terms: TermIndex;
  readonly links: LinkGraph;
  readonly nextId: number;
}

type StoredNote = [string, { hash: string; stat: NoteEntry['stat']; chunks: Array<[number, string[], number, number, string]> }];

/** Notes per part of the notes and of the links: one part is written or read per step. */
const NOTES_PER_PART = 1000;
const VERSION = /^\{"version":(\d{1,9})[,}]/;

/** The file's text from its parts (the sections in a fixed order; one notes and one links part at least). */
export function formatSavedIndex(file: SavedIndexFile): string {
  const sections: Array<[string, string]> = [
    ...file.notes.map((part): [string, string] => ['notes', part]),
    ...file.links.map((part): [string, string] => ['links', part]),
    ['fields', JSON.stringify(file.terms.fields)],
    ['terms', JSON.stringify(file.terms.terms)],
    ['documents', file.terms.documents],
    ['postings', file.terms.postings],
  ];
  const header = { version: file.version, fingerprint: file.fingerprint, nextId: file.nextId, sections: sections.map(([key, text]) => [key, text.length]) };
  return [`${JSON.stringify(header)}\n`, ...sections.map(([, text]) => text)].join('');
}

/** The parts of a saved file; 'damaged' when it is not one (cut short, sections that do not add up), 'other-version' by its first bytes. */
export function readSavedIndex(text: string): SavedIndexFile | 'damaged' | 'other-version' {
  const version = VERSION.exec(text.slice(0, 24));
  if (!version) return 'damaged';
  if (Number(version[1]) !== INDEX_FORMAT_VERSION) return 'other-version';
  const end = text.indexOf('\n');
  if (end < 0) return 'damaged';
  let header: { fingerprint?: unknown; nextId?: unknown; sections?: unknown };
  try {
    header = JSON.parse(text.slice(0, end)) as typeof header;
  } catch {
    return 'damaged';
  }
  const { fingerprint, nextId, sections } = header;
  if (typeof fingerprint !== 'string' || !Number.isSafeInteger(nextId) || !Array.isArray(sections)) return 'damaged';
  const notes: string[] = [];
  const links: string[] = [];
  const single = new Map<string, string>();
  let at = end + 1;
  for (const section of sections as unknown[]) {
    if (!Array.isArray(section) || typeof section[0] !== 'string' || !Number.isSafeInteger(section[1]) || (section[1] as number) < 0) return 'damaged';
    const [key, length] = section as [string, number];
    if (at + length > text.length) return 'damaged';
    const body = text.slice(at, at + length);
    at += length;
    if (key === 'notes') notes.push(body);
    else if (key === 'links') links.push(body);
    else if (SINGLE.includes(key) && !single.has(key)) single.set(key, body);
    else return 'damaged';
  }
  if (at !== text.length || single.size !== SINGLE.length || notes.length === 0 || links.length === 0) return 'damaged';
  let fields: unknown;
  let terms: unknown;
  try {
    fields = JSON.parse(single.get('fields') as string);
    terms = JSON.parse(single.get('terms') as string);
  } catch {
    return 'damaged';
  }
  if (!Array.isArray(fields) || typeof terms !== 'string') return 'damaged';
  const stored: StoredTermIndex = { fields: fields as string[], terms, documents: single.get('documents') as string, postings: single.get('postings') as string };
  return { version: INDEX_FORMAT_VERSION, fingerprint, nextId: nextId as number, notes, links, terms: stored };
}

const SINGLE = ['fields', 'terms', 'documents', 'postings'];

/** The saved file of `index`, a step per part (`paths`: its notes, sorted). Removed documents' postings are left out. */
export function* saveSteps(index: IndexContents, paths: readonly string[], fingerprint: string): Generator<void, string> {
  const notes: string[] = [];
  for (let at = 0; at === 0 || at < paths.length; at += NOTES_PER_PART) {
    const part: StoredNote[] = [];
    for (const path of paths.slice(at, at + NOTES_PER_PART)) {
      const entry = index.notes.get(path) as NoteEntry;
      const chunks = entry.ids.map((id) => {
        const meta = index.chunks.get(id) as ChunkMeta;
        return [id, [...meta.headings], meta.startLine, meta.endLine, meta.hash] as [number, string[], number, number, string];
      });
      part.push([path, { hash: entry.hash, stat: entry.stat, chunks }]);
    }
    notes.push(JSON.stringify(part));
    yield;
  }
  const linked = index.links.paths();
  const links: string[] = [];
  for (let at = 0; at === 0 || at < linked.length; at += NOTES_PER_PART) {
    links.push(JSON.stringify(index.links.stored(linked.slice(at, at + NOTES_PER_PART))));
    yield;
  }
  const terms = yield* encodeTermIndex(index.terms);
  yield;
  return formatSavedIndex({ version: INDEX_FORMAT_VERSION, fingerprint, nextId: index.nextId, notes, links, terms });
}

/**
 * A saved file read back, a step per part; never throws. Every entry is checked before any is
 * taken: the caller takes the contents whole or, on a report, keeps what it had.
 */
export function* restoreSteps(text: string, fingerprint: string): Generator<void, IndexContents | Exclude<RestoreReport, 'restored'>> {
  const file = readSavedIndex(text);
  if (typeof file === 'string') return file;
  if (file.fingerprint !== fingerprint) return 'other-settings';
  yield;
  const notes = new Map<string, NoteEntry>();
  const chunks = new Map<number, ChunkMeta>();
  const links = new LinkGraph();
  let terms: TermIndex;
  try {
    for (const part of file.notes) {
      if (!takeNotes(JSON.parse(part) as unknown, notes, chunks)) return 'damaged';
      yield;
    }
    for (const part of file.links) {
      if (!links.addStored(JSON.parse(part) as unknown)) return 'damaged';
      yield;
    }
    terms = yield* decodeTermIndex(file.terms, FIELDS);
  } catch {
    return 'damaged';
  }
  // The term index and the chunks must name the same documents.
  if (terms.documentCount !== chunks.size) return 'damaged';
  for (const id of chunks.keys()) if (!terms.has(id) || id >= file.nextId) return 'damaged';
  return { notes, chunks, terms, links, nextId: file.nextId };
}

function takeNotes(part: unknown, notes: Map<string, NoteEntry>, chunks: Map<number, ChunkMeta>): boolean {
  if (!Array.isArray(part)) return false;
  for (const [path, entry] of part as StoredNote[]) {
    if (typeof path !== 'string' || typeof entry.hash !== 'string' || !Array.isArray(entry.chunks)) return false;
    const ids: number[] = [];
    for (const [id, headings, startLine, endLine, hash] of entry.chunks) {
      if (!Number.isSafeInteger(id) || !Array.isArray(headings) || !Number.isSafeInteger(startLine) || !Number.isSafeInteger(endLine) || typeof hash !== 'string') return false;
      ids.push(id);
      chunks.set(id, { path, headings, startLine, endLine, hash });
    }
    notes.set(path, { hash: entry.hash, stat: isStat(entry.stat) ? entry.stat : null, ids });
  }
  return true;
}

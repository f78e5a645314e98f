import { FIELDS } from './chunkRanking';
import type { ChunkMeta, NoteEntry } from './indexEntries';
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
  /** Each the JSON of up to NOTES_PER_PART notes, by column (NotesPart). */
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

/**
 * Up to NOTES_PER_PART notes by column: a few arrays of numbers and strings parse several times
 * faster than an array and object per chunk, and make far less garbage (a restart at 25,000 notes
 * reads 62,500 chunks).
 */
interface NotesPart {
  readonly paths: string[];
  readonly hashes: string[];
  /** Per note: mtime, size (-1, -1: no stat). */
  readonly stats: number[];
  /** Per note: its chunks, which follow in the chunk columns in note order. */
  readonly counts: number[];
  readonly ids: number[];
  /** Per chunk: start line, end line. */
  readonly lines: number[];
  /** Per chunk: its headings' index in headingSets (the part's distinct heading paths). */
  readonly headings: number[];
  readonly headingSets: string[][];
  /** The chunks' hashes (hex SHA-256, 64 characters each) one after another. */
  readonly chunkHashes: string;
}

const HASH_CHARS = 64;

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
    notes.push(JSON.stringify(notesPart(index, paths.slice(at, at + NOTES_PER_PART))));
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
  yield;
  // The term index and the chunks must name the same documents.
  if (terms.documentCount !== chunks.size) return 'damaged';
  for (const id of chunks.keys()) if (!terms.has(id) || id >= file.nextId) return 'damaged';
  return { notes, chunks, terms, links, nextId: file.nextId };
}

function notesPart(index: IndexContents, paths: readonly string[]): NotesPart {
  const part: NotesPart = { paths: [...paths], hashes: [], stats: [], counts: [], ids: [], lines: [], headings: [], headingSets: [], chunkHashes: '' };
  const setOf = new Map<string, number>();
  const chunkHashes: string[] = [];
  for (const path of paths) {
    const entry = index.notes.get(path) as NoteEntry;
    part.hashes.push(entry.hash);
    part.stats.push(entry.stat?.mtime ?? -1, entry.stat?.size ?? -1);
    part.counts.push(entry.ids.length);
    for (const id of entry.ids) {
      const meta = index.chunks.get(id) as ChunkMeta;
      const key = meta.headings.join('\n');
      let set = setOf.get(key);
      if (set === undefined) {
        set = part.headingSets.length;
        setOf.set(key, set);
        part.headingSets.push([...meta.headings]);
      }
      part.ids.push(id);
      part.lines.push(meta.startLine, meta.endLine);
      part.headings.push(set);
      if (meta.hash.length !== HASH_CHARS) throw new Error('saved index: a chunk hash is not a SHA-256');
      chunkHashes.push(meta.hash);
    }
  }
  return { ...part, chunkHashes: chunkHashes.join('') };
}

/** A part of the notes into the maps; false when it is not one (then nothing of it is to be used). */
function takeNotes(value: unknown, notes: Map<string, NoteEntry>, chunks: Map<number, ChunkMeta>): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { paths, hashes, stats, counts, ids, lines, headings, headingSets, chunkHashes } = value as Partial<NotesPart>;
  if (!Array.isArray(paths) || !Array.isArray(hashes) || !Array.isArray(stats) || !Array.isArray(counts) || !Array.isArray(ids) || !Array.isArray(lines) || !Array.isArray(headings) || !Array.isArray(headingSets) || typeof chunkHashes !== 'string') return false;
  if (hashes.length !== paths.length || counts.length !== paths.length || stats.length !== 2 * paths.length) return false;
  if (lines.length !== 2 * ids.length || headings.length !== ids.length || chunkHashes.length !== HASH_CHARS * ids.length) return false;
  for (const set of headingSets) if (!Array.isArray(set) || !set.every((h) => typeof h === 'string')) return false;
  let chunk = 0;
  for (let n = 0; n < paths.length; n++) {
    const path = paths[n];
    const count = counts[n];
    if (typeof path !== 'string' || typeof hashes[n] !== 'string' || !Number.isSafeInteger(count) || count < 0 || chunk + count > ids.length) return false;
    const noteIds: number[] = [];
    for (const end = chunk + count; chunk < end; chunk++) {
      const id = ids[chunk];
      const startLine = lines[2 * chunk];
      const endLine = lines[2 * chunk + 1];
      const set = headingSets[headings[chunk]] as string[] | undefined;
      if (!Number.isSafeInteger(id) || !Number.isSafeInteger(startLine) || !Number.isSafeInteger(endLine) || set === undefined) return false;
      noteIds.push(id);
      chunks.set(id, { path, headings: set, startLine, endLine, hash: chunkHashes.slice(HASH_CHARS * chunk, HASH_CHARS * (chunk + 1)) });
    }
    const mtime = stats[2 * n];
    const size = stats[2 * n + 1];
    notes.set(path, { hash: hashes[n], stat: typeof mtime === 'number' && typeof size === 'number' && mtime >= 0 && size >= 0 ? { mtime, size } : null, ids: noteIds });
  }
  return chunk === ids.length;
}

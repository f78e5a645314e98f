import { base64ToBytesFast, bytesToBase64Steps } from './base64';
import { TermIndex } from './termIndex';

export { runSteps, runStepsAsync } from './slices';

/**
 * The term index saved as text: live documents' field lengths and each live term's postings as
 * varints (document ids as deltas), base64, with the terms as one newline-joined string. About
 * 2.5 bytes a posting where the in-memory index takes 8, so a 25,000-note vault saves in tens of
 * MB, not hundreds. Written and read by generators that stop every so often, so the plugin can
 * pause between the steps (runSteps / runStepsAsync) and never hold the main thread long.
 */

export interface StoredTermIndex {
  readonly fields: readonly string[];
  /** Varints: per live document, its id's delta from the previous one, then its field lengths. */
  readonly documents: string;
  /** The terms with live postings, newline-separated (a term never holds a newline: tokenize splits there). */
  readonly terms: string;
  /** Varints: per term, its posting count, then per posting the document delta and frequency × fields + field. */
  readonly postings: string;
}

/** Work units (postings or documents) between two steps. */
const STEP = 100_000;

class ByteWriter {
  private bytes = new Uint8Array(1 << 16);
  length = 0;

  varint(value: number): void {
    if (this.length + 5 > this.bytes.length) {
      const next = new Uint8Array(this.bytes.length * 2);
      next.set(this.bytes);
      this.bytes = next;
    }
    while (value >= 0x80) {
      this.bytes[this.length++] = (value & 0x7f) | 0x80;
      value >>>= 7;
    }
    this.bytes[this.length++] = value;
  }

  done(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

class ByteReader {
  at = 0;
  constructor(private readonly bytes: Uint8Array) {}

  get more(): boolean {
    return this.at < this.bytes.length;
  }

  varint(): number {
    let value = 0;
    let shift = 0;
    for (;;) {
      if (this.at >= this.bytes.length) throw new Error('term index: the data ends inside a number');
      const byte = this.bytes[this.at++];
      value += (byte & 0x7f) * 2 ** shift;
      if (byte < 0x80) return value;
      shift += 7;
      if (shift > 35) throw new Error('term index: a number is too long');
    }
  }
}

/** Encodes `index`; yields between steps. Removed documents' postings are left out. */
export function* encodeTermIndex(index: TermIndex): Generator<void, StoredTermIndex> {
  const { fields, termText, alive, fieldLength } = index.state();
  const fieldCount = fields.length;
  const documents = new ByteWriter();
  let previous = 0;
  for (let id = 0; id < alive.length; id++) {
    if (alive[id] !== 1) continue;
    documents.varint(id - previous);
    previous = id;
    for (let field = 0; field < fieldCount; field++) documents.varint(fieldLength[id * fieldCount + field]);
    if (id % STEP === 0) yield;
  }
  const out = new ByteWriter();
  const terms: string[] = [];
  let work = 0;
  for (let term = 0; term < termText.length; term++) {
    // A restored term no query read is decoded into scratch, not kept (a save would otherwise decode them all).
    const { list, length } = index.peekPostings(term);
    let live = 0;
    for (let i = 0; i < length; i += 2) live += alive[list[i]] === 1 ? 1 : 0;
    work += length;
    if (live > 0) {
      terms.push(termText[term]);
      out.varint(live);
      let doc = 0;
      for (let i = 0; i < length; i += 2) {
        if (alive[list[i]] !== 1) continue;
        out.varint(list[i] - doc);
        doc = list[i];
        out.varint((list[i + 1] & 0xffff) * fieldCount + (list[i + 1] >>> 16));
      }
    }
    if (work >= STEP) {
      work = 0;
      yield;
    }
  }
  yield;
  const documentText = yield* bytesToBase64Steps(documents.done());
  const postingText = yield* bytesToBase64Steps(out.done());
  return { fields: [...fields], documents: documentText, terms: terms.join('\n'), postings: postingText };
}

/**
 * Decodes a stored index for `fields`; throws when it is damaged or was made for other fields.
 * The documents are decoded at once; the postings' structure is checked (every number whole, as
 * many lists as terms, nothing after the last) and each term's list left to be decoded when a
 * query first reads it (packedPostings.ts).
 */
export function* decodeTermIndex(stored: StoredTermIndex, fields: readonly string[]): Generator<void, TermIndex> {
  if (!stored || !Array.isArray(stored.fields) || stored.fields.join('\n') !== fields.join('\n')) throw new Error('term index: other fields');
  if (typeof stored.documents !== 'string' || typeof stored.terms !== 'string' || typeof stored.postings !== 'string') throw new Error('term index: damaged');
  const fieldCount = fields.length;
  const docBytes = yield* base64ToBytesFast(stored.documents);
  // Two passes over the documents' varints: the last id sizes the arrays, then they are filled in place.
  const docs = new ByteReader(docBytes);
  let id = 0;
  let count = 0;
  while (docs.more) {
    const delta = docs.varint();
    if (count > 0 && delta === 0) throw new Error('term index: documents out of order');
    id += delta;
    count++;
    for (let field = 0; field < fieldCount; field++) docs.varint();
    if (count % STEP === 0) yield;
  }
  if (id >= 0x100000000) throw new Error('term index: a document id is too large');
  const size = count === 0 ? 16 : id + 1;
  const alive = new Uint8Array(size);
  const fieldLength = new Uint32Array(size * fieldCount);
  const fill = new ByteReader(docBytes);
  id = 0;
  for (let n = 0; n < count; n++) {
    id += fill.varint();
    alive[id] = 1;
    for (let field = 0; field < fieldCount; field++) fieldLength[id * fieldCount + field] = fill.varint();
    if (n % STEP === STEP - 1) yield;
  }
  yield;
  const termText = stored.terms === '' ? [] : stored.terms.split('\n');
  const bytes = yield* base64ToBytesFast(stored.postings);
  const at = new Uint32Array(termText.length);
  const counts = new Uint32Array(termText.length);
  let p = 0;
  let work = 0;
  for (let term = 0; term < termText.length; term++) {
    const [postings, next] = varintAt(bytes, p);
    if (postings === 0) throw new Error('term index: a term without postings');
    // Each posting is two whole varints (checked, not decoded: that waits for the first query of the term).
    p = skipVarints(bytes, next, postings * 2);
    at[term] = next;
    counts[term] = postings;
    work += postings;
    if (work >= STEP * 4) {
      work = 0;
      yield;
    }
  }
  if (p !== bytes.length) throw new Error('term index: data after the last term');
  yield;
  const index = new TermIndex(fields);
  yield* index.loadSteps({ termText, alive, fieldLength }, { bytes, at, count: counts });
  return index;
}

/** The varint at `p` and where the next starts; throws when the data ends inside it or it is too long. */
function varintAt(bytes: Uint8Array, p: number): [number, number] {
  let value = 0;
  for (let shift = 0; shift <= 28; shift += 7) {
    if (p >= bytes.length) throw new Error('term index: the data ends inside a number');
    const byte = bytes[p++];
    value += (byte & 0x7f) * 2 ** shift;
    if (byte < 0x80) return [value, p];
  }
  throw new Error('term index: a number is too long');
}

/**
 * Where `n` varints from `p` end (counting the bytes that end one); throws when the data ends first.
 * How long each is does not matter here: the decoder bounds a term's list by where it ends.
 */
function skipVarints(bytes: Uint8Array, p: number, n: number): number {
  const end = bytes.length;
  while (n > 0 && p < end) n -= (bytes[p++] >>> 7) ^ 1;
  if (n > 0) throw new Error('term index: the data ends inside a number');
  return p;
}

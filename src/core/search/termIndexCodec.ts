import { base64ToBytesSteps, bytesToBase64Steps } from './base64';
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
  const { fields, termText, postings, postingLength, alive, fieldLength } = index.state();
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
    const list = postings[term];
    const length = postingLength[term];
    let live = 0;
    for (let i = 0; i < length; i += 2) live += alive[list[i]] === 1 ? 1 : 0;
    if (live === 0) continue;
    terms.push(termText[term]);
    out.varint(live);
    let doc = 0;
    for (let i = 0; i < length; i += 2) {
      if (alive[list[i]] !== 1) continue;
      out.varint(list[i] - doc);
      doc = list[i];
      out.varint((list[i + 1] & 0xffff) * fieldCount + (list[i + 1] >>> 16));
    }
    work += length;
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

/** Decodes a stored index for `fields`; throws when it is damaged or was made for other fields. */
export function* decodeTermIndex(stored: StoredTermIndex, fields: readonly string[]): Generator<void, TermIndex> {
  if (!stored || !Array.isArray(stored.fields) || stored.fields.join('\n') !== fields.join('\n')) throw new Error('term index: other fields');
  if (typeof stored.documents !== 'string' || typeof stored.terms !== 'string' || typeof stored.postings !== 'string') throw new Error('term index: damaged');
  const fieldCount = fields.length;
  const docs = new ByteReader(yield* base64ToBytesSteps(stored.documents));
  const ids: number[] = [];
  const lengths: number[] = [];
  let id = 0;
  while (docs.more) {
    id += docs.varint();
    ids.push(id);
    for (let field = 0; field < fieldCount; field++) lengths.push(docs.varint());
    if (ids.length % STEP === 0) yield;
  }
  const size = ids.length === 0 ? 16 : ids[ids.length - 1] + 1;
  const alive = new Uint8Array(size);
  const fieldLength = new Uint32Array(size * fieldCount);
  ids.forEach((doc, n) => {
    if (n > 0 && doc <= ids[n - 1]) throw new Error('term index: documents out of order');
    alive[doc] = 1;
    for (let field = 0; field < fieldCount; field++) fieldLength[doc * fieldCount + field] = lengths[n * fieldCount + field];
  });
  yield;
  const termText = stored.terms === '' ? [] : stored.terms.split('\n');
  const reader = new ByteReader(yield* base64ToBytesSteps(stored.postings));
  const postings: Uint32Array[] = [];
  const postingLength: number[] = [];
  let work = 0;
  for (let term = 0; term < termText.length; term++) {
    const count = reader.varint();
    const list = new Uint32Array(Math.max(4, count * 2));
    let doc = 0;
    for (let i = 0; i < count; i++) {
      doc += reader.varint();
      const packed = reader.varint();
      const field = packed % fieldCount;
      if (doc >= size || alive[doc] !== 1) throw new Error('term index: a posting names no document');
      list[2 * i] = doc;
      list[2 * i + 1] = (field << 16) | Math.floor(packed / fieldCount);
    }
    postings.push(list);
    postingLength.push(count * 2);
    work += count;
    if (work >= STEP) {
      work = 0;
      yield;
    }
  }
  if (reader.more) throw new Error('term index: data after the last term');
  const index = new TermIndex(fields);
  index.load({ termText, postings, postingLength, alive, fieldLength });
  return index;
}

/**
 * A restored term index's postings still as saved (termIndexCodec.ts's varints): each term's list
 * is decoded when first read (TermIndex.postingsOf), so a restart does not decode millions of
 * postings no query may ask for, and the index holds 2.5 bytes a posting, not 8, for the terms
 * never read. Postings added to a term since the restore follow its saved ones.
 */

export interface PackedPostings {
  readonly bytes: Uint8Array;
  /** By term: the offset of its first posting in `bytes`. */
  readonly at: Uint32Array;
  /** By term: its postings. */
  readonly count: Uint32Array;
}

/** Frequencies above this cannot be (a posting keeps 16 bits for it): a damaged file's. */
const MAX_TF = 0xffff;

export class PackedTerms {
  /** By term: 1 while its postings are only in `packed`. */
  private readonly pending: Uint8Array;
  private left: number;
  private scratch = new Uint32Array(16);

  constructor(
    private readonly packed: PackedPostings,
    private readonly fieldCount: number,
  ) {
    this.pending = new Uint8Array(packed.count.length).fill(1);
    this.left = packed.count.length;
  }

  /** Whether the term's saved postings are not decoded yet. */
  has(term: number): boolean {
    return term < this.pending.length && this.pending[term] === 1;
  }

  /** Terms not decoded yet. */
  get remaining(): number {
    return this.left;
  }

  /** The term's saved postings, then `added` (its postings since), in a list of its own; the term is read from now on. */
  take(term: number, added: Uint32Array, addedLength: number, alive: Uint8Array): { list: Uint32Array; length: number } {
    const list = new Uint32Array(Math.max(4, this.packed.count[term] * 2 + addedLength));
    const length = this.into(term, list, added, addedLength, alive);
    this.pending[term] = 0;
    this.left--;
    return { list, length };
  }

  /** The same in a scratch list valid until the next call, the term left packed (a save reads every term once). */
  peek(term: number, added: Uint32Array, addedLength: number, alive: Uint8Array): { list: Uint32Array; length: number } {
    const need = this.packed.count[term] * 2 + addedLength;
    if (this.scratch.length < need) this.scratch = new Uint32Array(Math.max(need, this.scratch.length * 2));
    return { list: this.scratch, length: this.into(term, this.scratch, added, addedLength, alive) };
  }

  /** Saved postings then added ones into `out`, removed documents left out; the numbers written. */
  private into(term: number, out: Uint32Array, added: Uint32Array, addedLength: number, alive: Uint8Array): number {
    let length = this.decode(term, out, alive);
    for (let i = 0; i < addedLength; i += 2) {
      if (alive[added[i]] !== 1) continue;
      out[length++] = added[i];
      out[length++] = added[i + 1];
    }
    return length;
  }

  /**
   * A term's saved postings into `out` (document delta, then frequency × fields + field), leaving
   * out removed documents and any posting that names no document or frequency (a damaged file's:
   * the codec checked only the structure, which bounds every number read here).
   */
  private decode(term: number, out: Uint32Array, alive: Uint8Array): number {
    const { bytes, at, count } = this.packed;
    const fieldCount = this.fieldCount;
    let p = at[term];
    let doc = 0;
    let length = 0;
    for (let i = 0; i < count[term]; i++) {
      let delta = 0;
      for (let shift = 0; ; shift += 7) {
        const byte = bytes[p++];
        delta += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
      }
      let value = 0;
      for (let shift = 0; ; shift += 7) {
        const byte = bytes[p++];
        value += (byte & 0x7f) * 2 ** shift;
        if (byte < 0x80) break;
      }
      doc += delta;
      if (doc >= alive.length || alive[doc] !== 1) continue;
      const tf = Math.floor(value / fieldCount);
      if (tf === 0 || tf > MAX_TF) continue;
      out[length++] = doc;
      out[length++] = ((value % fieldCount) << 16) | tf;
    }
    return length;
  }
}

/**
 * Each indexed note's number and each chunk's note, in typed arrays: the query path (topChunks.ts)
 * groups tens of thousands of matching chunks by note per query, and a string-keyed Map lookup per
 * match was most of its time. A note's number is freed with its last chunk and given again later;
 * nothing shown depends on the numbers (ties go by path).
 */
export class NoteNumbers {
  /** By chunk id: its note's number, -1 for none. */
  private noteOf = new Int32Array(1024).fill(-1);
  private readonly paths: Array<string | null> = [];
  private readonly chunks: number[] = [];
  private readonly numbers = new Map<string, number>();
  private readonly free: number[] = [];

  /** Chunk `id` belongs to the note at `path`. */
  add(id: number, path: string): void {
    if (id >= this.noteOf.length) {
      let size = this.noteOf.length;
      while (size <= id) size *= 2;
      const next = new Int32Array(size).fill(-1);
      next.set(this.noteOf);
      this.noteOf = next;
    }
    let number = this.numbers.get(path);
    if (number === undefined) {
      number = this.free.pop() ?? this.paths.length;
      this.numbers.set(path, number);
      this.paths[number] = path;
      this.chunks[number] = 0;
    }
    if (this.noteOf[id] === number) return;
    this.noteOf[id] = number;
    this.chunks[number]++;
  }

  /** Chunk `id` is gone; its note's number is freed with its last chunk. */
  remove(id: number): void {
    const number = id < this.noteOf.length ? this.noteOf[id] : -1;
    if (number < 0) return;
    this.noteOf[id] = -1;
    if (--this.chunks[number] > 0) return;
    this.numbers.delete(this.paths[number] as string);
    this.paths[number] = null;
    this.free.push(number);
  }

  /** The note number of chunk `id`, -1 when it has none. */
  noteOfChunk(id: number): number {
    return id < this.noteOf.length ? this.noteOf[id] : -1;
  }

  /** One past the highest note number given. */
  get limit(): number {
    return this.paths.length;
  }

  pathOf(note: number): string {
    return this.paths[note] ?? '';
  }

  numberOf(path: string): number | undefined {
    return this.numbers.get(path);
  }
}

import type { NoteStat, PdfText } from '../../ports/vault';
import { DEFAULT_TIMERS } from '../../timers';
import type { PdfJsLoader } from './pdfJs';
import { readPdfPages, type Pause } from './pdfPages';

/** Where a PDF's bytes and stat come from (the host's vault). */
export interface PdfSource {
  readBinary(path: string): Promise<Uint8Array | null>;
  stat?(path: string): Promise<NoteStat | null>;
}

interface Cached {
  readonly mtime: number;
  readonly size: number;
  readonly text: PdfText;
}

/** At most this many PDFs' texts are kept: a library of PDFs is read once, not every turn. */
const KEPT = 64;

const yieldToHost: Pause = () => new Promise((resolve) => DEFAULT_TIMERS.setTimeout(resolve, 0));

/**
 * A host's `readPdf` (src/core/ports/vault.ts): the PDF's bytes through pdf.js, the text cached by
 * the file's stat (mtime and size), so a PDF in the library is extracted once while it is unchanged.
 * A host without stat reads it every time. Failures are not cached (a PDF being written is read again).
 */
export class PdfTextReader {
  private readonly cache = new Map<string, Cached>();
  /** How many PDFs were extracted (not served from the cache): for tests and the inspector. */
  extracted = 0;

  constructor(
    private readonly source: PdfSource,
    private readonly load: PdfJsLoader,
    private readonly pause: Pause = yieldToHost,
  ) {}

  async read(path: string): Promise<PdfText | null> {
    const stat = this.source.stat ? await this.source.stat(path).catch(() => null) : null;
    const known = this.cache.get(path);
    if (stat && known && known.mtime === stat.mtime && known.size === stat.size) return known.text;
    const bytes = await this.source.readBinary(path);
    if (bytes === null) {
      this.cache.delete(path);
      return null;
    }
    const text = await readPdfPages(await this.load(), path, bytes, this.pause);
    this.extracted++;
    this.cache.delete(path);
    if (stat) this.cache.set(path, { mtime: stat.mtime, size: stat.size, text });
    // Oldest first out: a Map keeps insertion order, and a read re-inserts.
    while (this.cache.size > KEPT) this.cache.delete(this.cache.keys().next().value as string);
    return text;
  }
}

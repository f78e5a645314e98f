import { getAllTags, loadPdfJs, TFile, type App } from 'obsidian';
import type { NoteStat, PdfText, VaultReader } from '../core/ports/vault';
import { UnreadableNoteError } from '../core/context/vaultReader';
import type { PdfJsLib } from '../core/context/pdf/pdfJs';
import { PdfTextReader } from '../core/context/pdf/pdfReader';

/** One PDF text cache per app: every reader of the vault shares what was extracted. */
const pdfReaders = new WeakMap<App, PdfTextReader>();
import type { DataviewPort } from '../core/ports/dataview';
import { obsidianDataview } from './dataviewApi';

/** Files larger than this are reported, not read (the resolver's character limit is lower still). */
const MAX_BYTES = 8 * 1024 * 1024;
/** Binary files (images) read at most this large; the image limits are lower still. */
const MAX_BINARY_BYTES = 32 * 1024 * 1024;

/** The engine's VaultReader over Obsidian's Vault and MetadataCache. */
export class ObsidianVaultReader implements VaultReader {
  constructor(private readonly app: App) {}

  /** Dataview's queries while the plugin is enabled (asked each time: it can be turned on or off). */
  get dataview(): DataviewPort | undefined {
    return obsidianDataview(this.app);
  }

  async read(path: string): Promise<string | null> {
    const file = this.app.vault.getAbstractFileByPath(path);
    if (!(file instanceof TFile)) return null;
    if (file.stat.size > MAX_BYTES) throw new UnreadableNoteError(path, 'too-large', `${file.stat.size} bytes is over the ${MAX_BYTES}-byte read limit`);
    return this.app.vault.cachedRead(file);
  }

  listMarkdown(): Promise<string[]> {
    const paths = this.app.vault.getMarkdownFiles().map((f) => f.path);
    // Code-unit order, as the port promises (localeCompare would depend on the locale); the default
    // sort compares as `<` does, without a callback per comparison (25,000 paths: 2-3x faster).
    paths.sort();
    return Promise.resolve(paths);
  }

  /** Every canvas's vault-relative path, sorted by code point (the search index reads them as text). */
  listCanvases(): Promise<string[]> {
    const paths = this.app.vault.getFiles().filter((f) => f.extension === 'canvas').map((f) => f.path);
    paths.sort();
    return Promise.resolve(paths);
  }

  stat(path: string): Promise<NoteStat | null> {
    return Promise.resolve(this.statNow(path));
  }

  statNow(path: string): NoteStat | null {
    const file = this.app.vault.getAbstractFileByPath(path);
    if (!(file instanceof TFile)) return null;
    return { mtime: file.stat.mtime, size: file.stat.size };
  }

  async readBinary(path: string): Promise<Uint8Array | null> {
    const file = this.app.vault.getAbstractFileByPath(path);
    if (!(file instanceof TFile)) return null;
    if (file.stat.size > MAX_BINARY_BYTES) throw new UnreadableNoteError(path, 'too-large', `${file.stat.size} bytes is over the ${MAX_BINARY_BYTES}-byte read limit`);
    return new Uint8Array(await this.app.vault.readBinary(file));
  }

  /** A PDF's text page by page, through Obsidian's own pdf.js (loaded on first use), cached by the file's stat. */
  readPdf(path: string): Promise<PdfText | null> {
    let reader = pdfReaders.get(this.app);
    if (!reader) {
      reader = new PdfTextReader(this, async () => (await loadPdfJs()) as PdfJsLib);
      pdfReaders.set(this.app, reader);
    }
    return reader.read(path);
  }

  /** Where a link in note `from` points, as Obsidian resolves it (shortest path, relative, absolute). */
  resolveLink(link: string, from: string): Promise<string | null> {
    return Promise.resolve(this.app.metadataCache.getFirstLinkpathDest(link, from)?.path ?? null);
  }

  tagsOf(path: string): Promise<string[] | null> {
    const file = this.app.vault.getAbstractFileByPath(path);
    if (!(file instanceof TFile)) return Promise.resolve(null);
    const cache = this.app.metadataCache.getFileCache(file);
    if (!cache) return Promise.resolve(null);
    return Promise.resolve(getAllTags(cache) ?? []);
  }
}

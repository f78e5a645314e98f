import type { PdfText } from '../../ports/vault';
import type { PdfJsLib, PdfJsTextItem } from './pdfJs';

/** Why a PDF could not be read: it needs a password, or it is not a PDF pdf.js can read. */
export type PdfFailure = 'encrypted' | 'broken';

/** A PDF that cannot be read, with the reason in words for its chip and the request. */
export class PdfReadError extends Error {
  constructor(
    readonly path: string,
    readonly failure: PdfFailure,
    detail: string,
  ) {
    super(`${path}: ${detail}`);
    this.name = 'PdfReadError';
  }
}

/** Between two pages: the main thread is given back (no task over ~50 ms on a big PDF). */
export type Pause = () => Promise<void>;

/**
 * A PDF's text page by page, through pdf.js. Each page's runs are joined as pdf.js lays them out
 * (a run that ends a line ends it), lines trimmed, blank runs of lines kept to one. A page with no
 * text (an image, a scan) is ''. The bytes are copied: pdf.js takes ownership of what it is given.
 */
export async function readPdfPages(lib: PdfJsLib, path: string, bytes: Uint8Array, pause: Pause): Promise<PdfText> {
  const task = lib.getDocument({ data: bytes.slice(), verbosity: 0, isEvalSupported: false });
  let doc;
  try {
    doc = await task.promise;
  } catch (error) {
    throw failure(path, error);
  }
  try {
    const pages: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      pages.push(pageText(content.items));
      page.cleanup?.();
      await pause();
    }
    return { pages };
  } catch (error) {
    throw failure(path, error);
  } finally {
    await doc.destroy().catch(() => undefined);
  }
}

/** A page's runs as text. */
export function pageText(items: readonly PdfJsTextItem[]): string {
  let text = '';
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    text += item.str;
    if (item.hasEOL) text += '\n';
  }
  return text
    .split('\n')
    .map((line) => line.replace(/\s+$/u, ''))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

function failure(path: string, error: unknown): PdfReadError {
  if (error instanceof PdfReadError) return error;
  const name = typeof error === 'object' && error !== null ? (error as { name?: unknown }).name : undefined;
  const message = error instanceof Error ? error.message : String(error);
  if (name === 'PasswordException') return new PdfReadError(path, 'encrypted', 'the PDF is protected by a password, so its text cannot be read');
  return new PdfReadError(path, 'broken', `the PDF could not be read (${message})`);
}

import type { PdfText } from '../../ports/vault';

/**
 * How an attached PDF reads as context (issue 31): a first line saying what it is, then each page
 * under its own `## Page N` heading, so the search chunker, planning extracts and Vault QA cut it at
 * pages and their section ids are page anchors (`file.pdf#page=N`, which Obsidian opens at that page).
 * A page's own text never makes a heading or a code fence (escaped), so pages stay the only sections.
 * A PDF without any text (a scan) says so: it is never sent silently empty.
 */

export function isPdfPath(path: string): boolean {
  return /\.pdf$/i.test(path);
}

/** The file name without folder: "Manual.pdf". */
export function pdfName(path: string): string {
  return path.split('/').pop() ?? path;
}

/** A page's anchor, Obsidian's link to that page. */
export function pdfPageAnchor(path: string, page: number): string {
  return `${path}#page=${page}`;
}

const PAGE_HEADING = /^Page (\d+)$/;

/** The anchor a section of a PDF's text stands for (its heading is "Page N"), or null. */
export function pdfSectionAnchor(path: string, heading: string): string | null {
  const m = PAGE_HEADING.exec(heading);
  return isPdfPath(path) && m ? pdfPageAnchor(path, Number(m[1])) : null;
}

/** Whether no page has text: a scan or images only. */
export function hasNoText(pdf: PdfText): boolean {
  return pdf.pages.every((p) => p.trim() === '');
}

const pages = (n: number) => (n === 1 ? '1 page' : `${n} pages`);

/** The text a PDF is sent as. */
export function pdfContent(path: string, pdf: PdfText): string {
  const count = pdf.pages.length;
  if (hasNoText(pdf)) {
    return `PDF ${pdfName(path)}, ${pages(count)}, has no text layer (a scan or images only): its text cannot be read, so none of it is sent.`;
  }
  const blank = pdf.pages.filter((p) => p.trim() === '').length;
  const head = `PDF ${pdfName(path)}, ${pages(count)}${blank > 0 ? ` (${blank} without text)` : ''}; page N is ${path}#page=N.`;
  const body = pdf.pages.map((text, i) => `## Page ${i + 1}\n\n${text.trim() === '' ? '(no text on this page)' : escapeStructure(text)}`);
  return [head, ...body].join('\n\n');
}

/** Lines that markdown would read as a heading or a fence get a backslash: the page's text as text. */
function escapeStructure(text: string): string {
  return text.replace(/^(\s{0,3})(#|```|~~~)/gm, '$1\\$2');
}

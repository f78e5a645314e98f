import { pdfContent } from '../../context/pdf/pdfContent';
import type { ToolHost } from '../../ports/toolHost';
import { errorText } from '../tool';
import type { VaultView } from '../vaultView';

const PDF_NAME = /^(.+\.pdf)(?:#page=(\d+))?$/i;

/**
 * readNote on a PDF (issue 31): `file.pdf` reads its text as an attached PDF reads (pages under
 * "Page N" headings), `file.pdf#page=N` (the anchor a PDF's item and Vault QA cite) that page alone.
 * Null: the input names no PDF (or none is there), and readNote goes on as for a note. The same visibility rules as notes.
 */
export async function readPdfForTool(host: ToolHost, view: VaultView, input: string): Promise<{ path: string; text: string; page?: number } | { error: string } | null> {
  const m = PDF_NAME.exec(input.trim().replace(/^\[\[|\]\]$/g, ''));
  if (!m || !host.vault.readPdf) return null;
  const path = m[1].replace(/^\/+/, '');
  const visibility = view.visibility(path);
  if (visibility !== 'visible') return { error: errorText(view.refusal(path, visibility)) };
  let pdf;
  try {
    pdf = await host.vault.readPdf(path);
  } catch (error) {
    return { error: errorText(error instanceof Error ? error.message : String(error)) };
  }
  if (pdf === null) return null;
  const page = m[2] !== undefined ? Number(m[2]) : undefined;
  if (page !== undefined && (page < 1 || page > pdf.pages.length)) return { error: errorText(`${path} has ${pdf.pages.length} pages; there is no page ${page}.`) };
  return { path, text: pdfContent(path, pdf), ...(page !== undefined ? { page } : {}) };
}

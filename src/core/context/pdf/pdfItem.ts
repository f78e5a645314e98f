import { makeItem, type ContextItem } from '../items';
import type { VaultReader } from '../../ports/vault';
import { UnreadableNoteError } from '../vaultReader';
import { pdfContent, pdfName } from './pdfContent';
import { PdfReadError } from './pdfPages';

/** A PDF that produced no item, as the resolver reports it (its ResolutionProblem). */
export interface PdfProblem {
  readonly chipId: string;
  readonly reason: 'missing' | 'too-large' | UnreadableNoteError['reason'];
  readonly detail: string;
}

/**
 * A PDF chip as a context item (id = its path, title = its file name, content = its pages as
 * pdfContent renders them). What cannot be read is a problem with the reason in words (no pdf.js on
 * this host, a password, a broken file, no file), never an empty item. A scan without a text layer is
 * an item that says so: the model is told, and the chip shows it.
 */
export async function resolvePdf(vault: VaultReader, path: string, maxChars: number, report: (problem: PdfProblem) => void): Promise<ContextItem[]> {
  if (!vault.readPdf) {
    report({ chipId: path, reason: 'unreadable', detail: `${path}: PDFs cannot be read here (no PDF reader)` });
    return [];
  }
  let pdf;
  try {
    pdf = await vault.readPdf(path);
  } catch (error) {
    const reason = error instanceof UnreadableNoteError ? error.reason : 'unreadable';
    const detail = error instanceof PdfReadError || error instanceof UnreadableNoteError ? error.message : `${path}: ${error instanceof Error ? error.message : String(error)}`;
    report({ chipId: path, reason, detail });
    return [];
  }
  if (pdf === null) {
    report({ chipId: path, reason: 'missing', detail: `${path} does not exist` });
    return [];
  }
  const content = pdfContent(path, pdf);
  if (content.length > maxChars) {
    report({ chipId: path, reason: 'too-large', detail: `${path} has ${content.length} characters of text, over the ${maxChars} limit` });
    return [];
  }
  return [makeItem({ id: path, kind: 'pdf', title: pdfName(path), source: path, content })];
}

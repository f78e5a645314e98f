import type { PdfText } from '../../ports/vault';
import { hasNoText, pdfName } from './pdfContent';
import { PdfReadError } from './pdfPages';

/**
 * How an attached PDF stands on its chip (issue 31): being read, read (pages and characters), read
 * but without a text layer (a scan: said, since only that notice is sent), or not readable.
 */
export type PdfState =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly pages: number; readonly chars: number; readonly blank: number }
  | { readonly state: 'no-text'; readonly pages: number }
  | { readonly state: 'error'; readonly reason: string; readonly detail: string };

export function pdfOutcome(pdf: PdfText | null, path: string): PdfState {
  if (pdf === null) return { state: 'error', reason: 'Not found', detail: `${path} is not in the vault` };
  if (hasNoText(pdf)) return { state: 'no-text', pages: pdf.pages.length };
  const chars = pdf.pages.reduce((n, p) => n + p.length, 0);
  return { state: 'ready', pages: pdf.pages.length, chars, blank: pdf.pages.filter((p) => p.trim() === '').length };
}

export function pdfFailure(error: unknown): PdfState {
  const detail = error instanceof Error ? error.message : String(error);
  if (error instanceof PdfReadError) return { state: 'error', reason: error.failure === 'encrypted' ? 'Password-protected' : 'Unreadable PDF', detail };
  return { state: 'error', reason: 'Unreadable PDF', detail };
}

const n = (x: number) => x.toLocaleString('en-US');
const pages = (k: number) => (k === 1 ? '1 page' : `${n(k)} pages`);

/** A PDF chip's label and tooltip in its state (none: not read yet, e.g. a chip put back). */
export function pdfChipText(path: string, state: PdfState | undefined): { label: string; tooltip: string } {
  const name = pdfName(path);
  switch (state?.state) {
    case undefined:
      return { label: name, tooltip: `${path}: its text, page by page` };
    case 'loading':
      return { label: name, tooltip: `Reading ${path}…` };
    case 'ready':
      return {
        label: name,
        tooltip: `${path}\n${pages(state.pages)}, ${n(state.chars)} characters of text attached, page by page${state.blank > 0 ? ` (${pages(state.blank)} without text)` : ''}.`,
      };
    case 'no-text':
      return {
        label: `${name} (no text layer)`,
        tooltip: `${path}: ${pages(state.pages)} without a text layer (a scan or images only). Its text cannot be read: the model is told so, nothing else of it is sent.`,
      };
    case 'error':
      return { label: `${state.reason}: ${name}`, tooltip: `Not attached: ${state.detail}. It is not sent; remove it.` };
  }
}

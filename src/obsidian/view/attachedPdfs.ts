import type { PdfText } from '../../core/ports/vault';
import { pdfFailure, pdfOutcome, type PdfState } from '../../core/context/pdf/pdfChip';

/**
 * PDFs attached in the composer, by path: read once when attached (the vault's PDF reader caches
 * the text by the file's stat, so the turn reads it again for free), so the chip can say how it
 * stands: its pages, or that it has no text layer, or why it cannot be read.
 */
export class AttachedPdfs {
  private states = new Map<string, PdfState>();
  private stopped = false;

  /** `readPdf`: the vault's PDF reader; absent: chips show no state. */
  constructor(private readonly readPdf: ((path: string) => Promise<PdfText | null>) | undefined) {}

  stop(): void {
    this.stopped = true;
  }

  stateOf(path: string): PdfState | undefined {
    return this.states.get(path);
  }

  /** Read a PDF chip's file each time it is attached (the stat cache makes an unchanged one free); `settled` hears how it stands. */
  read(path: string, settled: (state: PdfState) => void): void {
    const readPdf = this.readPdf;
    if (!readPdf) return;
    const known = this.states.get(path);
    if (known?.state === 'loading') return;
    if (!known) this.states.set(path, { state: 'loading' });
    void readPdf(path)
      .then(
        (pdf) => pdfOutcome(pdf, path),
        (error: unknown) => pdfFailure(error),
      )
      .then((state) => {
        if (this.stopped) return;
        this.states.set(path, state);
        settled(state);
      });
  }
}

/**
 * The little of pdf.js that Strata uses, as a port: Obsidian hands its own pdf.js (`loadPdfJs()`),
 * Node and the workbench the pdfjs-dist legacy build (src/node/nodePdfJs.ts, the workbench's shim).
 * Structural types only: the core imports no pdf.js.
 */
export interface PdfJsLib {
  getDocument(source: { data: Uint8Array; verbosity?: number; isEvalSupported?: boolean; stopAtErrors?: boolean }): PdfJsLoadingTask;
}

export interface PdfJsLoadingTask {
  readonly promise: Promise<PdfJsDocument>;
  destroy?(): Promise<void>;
}

export interface PdfJsDocument {
  readonly numPages: number;
  getPage(pageNumber: number): Promise<PdfJsPage>;
  destroy(): Promise<void>;
}

export interface PdfJsPage {
  getTextContent(): Promise<{ readonly items: readonly PdfJsTextItem[] }>;
  cleanup?(): unknown;
}

/** A text run (`str`), with whether a line ends after it; marked-content items have no `str`. */
export interface PdfJsTextItem {
  readonly str?: string;
  readonly hasEOL?: boolean;
}

/** Loads pdf.js once it is needed (Obsidian's is loaded on demand). */
export type PdfJsLoader = () => Promise<PdfJsLib>;

import type { PdfJsLib, PdfJsLoader } from '../core/context/pdf/pdfJs';

/**
 * pdf.js under Node (tests, scripts, the inspector): pdfjs-dist's legacy build, the stand-in for
 * the pdf.js Obsidian ships (`loadPdfJs`). Its worker runs in this thread: the worker module is
 * handed over as `globalThis.pdfjsWorker`, which pdf.js takes instead of starting a worker.
 * pdfjs-dist is a dev dependency: nothing here reaches main.js.
 */
let loaded: Promise<PdfJsLib> | null = null;

export const loadNodePdfJs: PdfJsLoader = () => {
  loaded ??= (async () => {
    const lib = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const worker: unknown = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    const global = globalThis as { pdfjsWorker?: unknown };
    global.pdfjsWorker ??= worker;
    return lib;
  })();
  return loaded;
};

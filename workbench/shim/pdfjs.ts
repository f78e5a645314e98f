/**
 * Obsidian's `loadPdfJs()` in the workbench and jest: pdfjs-dist's legacy build (a dev dependency,
 * the same pdf.js family Obsidian ships). Its worker module is handed over as
 * `globalThis.pdfjsWorker`, so pdf.js parses in this thread instead of loading a worker file.
 */
let loaded: Promise<unknown> | null = null;

export function loadPdfJs(): Promise<unknown> {
  loaded ??= (async () => {
    const lib: unknown = await import('pdfjs-dist/legacy/build/pdf.mjs');
    const worker: unknown = await import('pdfjs-dist/legacy/build/pdf.worker.mjs');
    const global = globalThis as { pdfjsWorker?: unknown };
    global.pdfjsWorker ??= worker;
    return lib;
  })();
  return loaded;
}

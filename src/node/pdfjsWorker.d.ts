/** pdfjs-dist ships no types for its worker module: pdf.js reads only this export from it. */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs' {
  export const WorkerMessageHandler: unknown;
}

import { minimalPdf } from './minimalPdf';

/**
 * The PDFs of the sample vault (examples/vault/Attachments), made by minimalPdf: a manual with a
 * text layer on three pages, and a scanned packet with no text. __tests__/core/context/samplePdfs.test.ts
 * checks the committed files are these bytes; `npx tsx testing/pdf/samplePdfs.ts` writes them again.
 */
export const SAMPLE_PDFS: Record<string, Uint8Array> = {
  'Attachments/Greenhouse manual.pdf': minimalPdf({
    pages: [
      { lines: ['Greenhouse manual', 'Ventilation: open the roof vents once the air inside passes 24 degrees C.', 'Close them again at dusk so the house keeps its heat.'] },
      { lines: ['Watering', 'Water seedlings from below, morning only, twice a week in spring.', 'Tomatoes in the bed want a deep soak every third day in July.'] },
      { lines: ['Frost', 'Below 3 degrees C, frost cloth goes over the seedling trays.', 'The paraffin heater is the last resort: ventilate after using it.'] },
    ],
  }),
  'Attachments/Scanned seed packet.pdf': minimalPdf({ pages: [{ image: true }] }),
};

if (require.main === module) {
  // Written only when run as a script.
  void (async () => {
    const fs = await import('node:fs');
    const paths = await import('node:path');
    for (const [path, bytes] of Object.entries(SAMPLE_PDFS)) {
      const full = paths.join(__dirname, '..', '..', 'examples', 'vault', path);
      fs.mkdirSync(paths.dirname(full), { recursive: true });
      fs.writeFileSync(full, bytes);
    }
  })();
}

import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SAMPLE_PDFS } from '../../../testing/pdf/samplePdfs';
import { ChipResolver } from '../../../src/core/context/resolver';
import { FsVault } from '../../../src/node/fsVault';
import { VAULT } from '../../helpers/paths';

/** The sample vault's PDFs (issue 31) are the bytes testing/pdf/samplePdfs.ts makes, and read as the README says. */
test('the committed sample PDFs are what the generator writes', () => {
  for (const [path, bytes] of Object.entries(SAMPLE_PDFS)) expect(new Uint8Array(readFileSync(join(VAULT, path)))).toEqual(bytes);
});

test('the manual reads as three pages, the scanned packet as a PDF without a text layer', async () => {
  const { items, problems } = await new ChipResolver(new FsVault(VAULT)).resolve([
    { kind: 'pdf', path: 'Attachments/Greenhouse manual.pdf' },
    { kind: 'pdf', path: 'Attachments/Scanned seed packet.pdf' },
  ]);
  expect(problems).toEqual([]);
  expect(items[0].content).toMatch(/^PDF Greenhouse manual\.pdf, 3 pages; page N is Attachments\/Greenhouse manual\.pdf#page=N\.\n\n## Page 1\n\nGreenhouse manual\nVentilation: open the roof vents once the air inside passes 24 degrees C\./);
  expect(items[0].content).toContain('## Page 3\n\nFrost\nBelow 3 degrees C, frost cloth goes over the seedling trays.');
  expect(items[1].content).toBe('PDF Scanned seed packet.pdf, 1 page, has no text layer (a scan or images only): its text cannot be read, so none of it is sent.');
});

import { mkdtempSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ChipResolver } from '../../../src/core/context/resolver';
import { FsVault } from '../../../src/node/fsVault';
import { PdfTextReader } from '../../../src/core/context/pdf/pdfReader';
import { loadNodePdfJs } from '../../../src/node/nodePdfJs';
import { pdfSectionAnchor } from '../../../src/core/context/pdf/pdfContent';
import { minimalPdf } from '../../../testing/pdf/minimalPdf';

/** Issue 31: PDFs read as text page by page through pdf.js (pdfjs-dist here, Obsidian's own in the app). */

const MANUAL = minimalPdf({
  pages: [
    { lines: ['Greenhouse manual', 'Vent the house when it passes 27 degrees.'] },
    { lines: ['Watering', 'Water seedlings from below, twice a week.'] },
    { lines: ['# Not a heading', 'Frost cloth goes on below 3 degrees.'] },
  ],
});

function vaultWith(files: Record<string, Uint8Array | string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'strata-pdf-'));
  for (const [path, body] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), body);
  }
  return dir;
}

describe('a PDF chip', () => {
  const dir = vaultWith({
    'Reading/Manual.pdf': MANUAL,
    'Reading/Scan.pdf': minimalPdf({ pages: [{ image: true }, { image: true }] }),
    'Reading/Locked.pdf': minimalPdf({ pages: [{ lines: ['secret'] }], password: 'hunter2' }),
    'Reading/Broken.pdf': '%PDF-1.4\nthis is not a pdf at all\n',
    'Notes/a.md': 'A note.',
  });

  it('is read page by page, each page under a heading whose anchor is file.pdf#page=N (golden)', async () => {
    const { items, problems } = await new ChipResolver(new FsVault(dir)).resolve([{ kind: 'pdf', path: 'Reading/Manual.pdf' }]);
    expect(problems).toEqual([]);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: 'Reading/Manual.pdf', kind: 'pdf', title: 'Manual.pdf', source: 'Reading/Manual.pdf' });
    expect(items[0].content).toBe(
      [
        'PDF Manual.pdf, 3 pages; page N is Reading/Manual.pdf#page=N.',
        '## Page 1\n\nGreenhouse manual\nVent the house when it passes 27 degrees.',
        '## Page 2\n\nWatering\nWater seedlings from below, twice a week.',
        '## Page 3\n\n\\# Not a heading\nFrost cloth goes on below 3 degrees.',
      ].join('\n\n'),
    );
    expect(pdfSectionAnchor('Reading/Manual.pdf', 'Page 2')).toBe('Reading/Manual.pdf#page=2');
    expect(pdfSectionAnchor('Notes/a.md', 'Page 2')).toBeNull();
  });

  it('without a text layer says so in the item: never sent silently empty', async () => {
    const { items, problems } = await new ChipResolver(new FsVault(dir)).resolve([{ kind: 'pdf', path: 'Reading/Scan.pdf' }]);
    expect(problems).toEqual([]);
    expect(items[0].content).toBe('PDF Scan.pdf, 2 pages, has no text layer (a scan or images only): its text cannot be read, so none of it is sent.');
  });

  it('encrypted, broken or missing: a clear problem, no item', async () => {
    const { items, problems } = await new ChipResolver(new FsVault(dir)).resolve([
      { kind: 'pdf', path: 'Reading/Locked.pdf' },
      { kind: 'pdf', path: 'Reading/Broken.pdf' },
      { kind: 'pdf', path: 'Reading/Gone.pdf' },
      { kind: 'note', path: 'Notes/a.md' },
    ]);
    expect(items.map((i) => i.id)).toEqual(['Notes/a.md']);
    expect(problems).toEqual([
      { chipId: 'Reading/Locked.pdf', reason: 'unreadable', detail: 'Reading/Locked.pdf: the PDF is protected by a password, so its text cannot be read' },
      { chipId: 'Reading/Broken.pdf', reason: 'unreadable', detail: expect.stringMatching(/^Reading\/Broken\.pdf: the PDF could not be read \(/) },
      { chipId: 'Reading/Gone.pdf', reason: 'missing', detail: 'Reading/Gone.pdf does not exist' },
    ]);
  });

  it('is extracted once while its stat (mtime, size) is unchanged, again when it changes', async () => {
    const vault = new FsVault(dir);
    const pauses: number[] = [];
    const reader = new PdfTextReader(vault, loadNodePdfJs, () => {
      pauses.push(1);
      return Promise.resolve();
    });
    const first = await reader.read('Reading/Manual.pdf');
    expect(first?.pages).toHaveLength(3);
    expect(pauses).toHaveLength(3); // one yield after each page
    expect(await reader.read('Reading/Manual.pdf')).toBe(first);
    expect(reader.extracted).toBe(1);
    writeFileSync(join(dir, 'Reading/Manual.pdf'), minimalPdf({ pages: [{ lines: ['Rewritten'] }] }));
    utimesSync(join(dir, 'Reading/Manual.pdf'), new Date(2030, 0, 1), new Date(2030, 0, 1));
    expect((await reader.read('Reading/Manual.pdf'))?.pages).toEqual(['Rewritten']);
    expect(reader.extracted).toBe(2);
    writeFileSync(join(dir, 'Reading/Manual.pdf'), MANUAL);
  });

  it('on a host without a PDF reader is a problem that says so', async () => {
    const vault = { read: () => Promise.resolve(null), listMarkdown: () => Promise.resolve([]) };
    const { problems } = await new ChipResolver(vault).resolve([{ kind: 'pdf', path: 'a.pdf' }]);
    expect(problems).toEqual([{ chipId: 'a.pdf', reason: 'unreadable', detail: 'a.pdf: PDFs cannot be read here (no PDF reader)' }]);
  });
});

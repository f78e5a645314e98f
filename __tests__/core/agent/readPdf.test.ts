/** Issue 31: the agent's readNote reads a PDF's pages (`file.pdf`, or one page as `file.pdf#page=N`). */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FsVault } from '../../../src/node/fsVault';
import { fsToolHost } from '../../../src/node/toolHost';
import { SourceCatalog } from '../../../src/core/agent/sourceCatalog';
import { AGENT_TOOLS, runToolCall } from '../../../src/core/agent/toolbox';
import { minimalPdf } from '../../../testing/pdf/minimalPdf';

const dir = mkdtempSync(path.join(os.tmpdir(), 'strata-readpdf-'));
mkdirSync(path.join(dir, 'Docs'));
mkdirSync(path.join(dir, 'Strata'));
writeFileSync(path.join(dir, 'Docs/Manual.pdf'), minimalPdf({ pages: [{ lines: ['Vents', 'Open at 24 degrees.'] }, { lines: ['Water', 'From below.'] }] }));
writeFileSync(path.join(dir, 'Strata/Hidden.pdf'), minimalPdf({ pages: [{ lines: ['chat attachment'] }] }));
writeFileSync(path.join(dir, 'note.md'), 'A note.\n');

async function read(args: Record<string, unknown>) {
  const host = fsToolHost({ vault: new FsVault(dir), search: null, hidden: ['Strata'] });
  return runToolCall({ id: 'c1', name: 'readNote', args }, AGENT_TOOLS, { host, signal: new AbortController().signal, sources: new SourceCatalog() });
}

test('readNote on a PDF: its pages under "Page N" headings; #page=N reads that page alone', async () => {
  const whole = await read({ path: 'Docs/Manual.pdf' });
  expect(whole.isError).toBe(false);
  expect(whole.content).toBe(
    [
      'Docs/Manual.pdf (lines 1-11 of 11)',
      'PDF Manual.pdf, 2 pages; page N is Docs/Manual.pdf#page=N.',
      '',
      '## Page 1',
      '',
      'Vents',
      'Open at 24 degrees.',
      '',
      '## Page 2',
      '',
      'Water',
      'From below.',
    ].join('\n'),
  );
  expect(whole.content).toContain('## Page 2');
  const page = await read({ path: 'Docs/Manual.pdf#page=2' });
  expect(page.content).toContain('Water');
  expect(page.content).toContain('From below.');
  expect(page.content).not.toContain('Open at 24 degrees.');
  expect((await read({ path: 'Docs/Manual.pdf#page=9' })).content).toBe('Error: Docs/Manual.pdf has 2 pages; there is no page 9.');
  const hidden = await read({ path: 'Strata/Hidden.pdf' });
  expect(hidden.isError).toBe(true);
  expect(hidden.content).toContain('saved chats are not sources');
});
